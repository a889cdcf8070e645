// Global aggregates on the host backend: each partition engine holds its own slots, which its
// functors add to (HostAggregateTarget), as each GPU holds its own on the CUDA backend.
#pragma once

#include <medusa/aggregate.h>

namespace medusa::host {

template <class Program>
class PartitionEngine;

template <class Program>
void upload_aggregates(PartitionEngine<Program>& e, const medusa::detail::AggregateCells& cells, bool) {
  e.aggregate_cells() = cells;
}

template <class Program>
void request_aggregates(PartitionEngine<Program>&, bool) {}

template <class Program>
void download_aggregates(PartitionEngine<Program>& e, medusa::detail::AggregateCells& out, bool) {
  out = e.aggregate_cells();
}

}  // namespace medusa::host
