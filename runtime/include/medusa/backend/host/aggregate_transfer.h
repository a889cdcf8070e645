// Global aggregates on the host backend: every simulated partition adds into the one host copy of
// the slots, so the first download takes the whole fold and leaves the identities to the others.
#pragma once

#include <medusa/aggregate.h>

namespace medusa::host {

template <class Program>
class PartitionEngine;

template <class Program>
void upload_aggregates(PartitionEngine<Program>&, const medusa::detail::AggregateCells& cells, bool) {
  medusa::detail::host_aggregate_cells = cells;
}

template <class Program>
void request_aggregates(PartitionEngine<Program>&, bool) {}

template <class Program>
void download_aggregates(PartitionEngine<Program>&, medusa::detail::AggregateCells& out, bool) {
  medusa::detail::AggregateCells& cells = medusa::detail::host_aggregate_cells;
  out = cells;
  const auto& entries = medusa::detail::aggregate_registry<Program>();
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (entries[i].object != nullptr) cells.acc[i] = entries[i].identity(entries[i].object);
}

}  // namespace medusa::host
