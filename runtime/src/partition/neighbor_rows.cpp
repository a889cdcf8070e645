// add_neighbor_rows (plan.h): the replicas' and owned vertices' whole out-rows for neighbour sets.
#include <medusa/error.h>
#include <medusa/partition/plan.h>

#include <algorithm>
#include <cstdint>
#include <string>

namespace medusa {

void add_neighbor_rows(PartitionLayout& l, const Topology& t) {
  MEDUSA_REQUIRE(l.held, "add_neighbor_rows: partition " + std::to_string(l.index) + " is not held here");
  const auto V = static_cast<std::int64_t>(l.vertex_count());
  NeighborRows& rows = l.neighbor_rows;
  rows.offsets.assign(static_cast<std::size_t>(V) + 1, 0);
  for (std::int64_t i = 0; i < V; ++i) rows.offsets[i + 1] = rows.offsets[i] + t.out_degree(l.global_id[i]);
  rows.ids.resize(rows.offsets[V]);
#pragma omp parallel for schedule(dynamic, 256)
  for (std::int64_t i = 0; i < V; ++i) {
    const VertexId g = l.global_id[i];
    const auto to = rows.ids.begin() + static_cast<std::ptrdiff_t>(rows.offsets[i]);
    const auto row = t.out_dst.begin() + static_cast<std::ptrdiff_t>(t.out_offsets[g]);
    std::copy(row, row + static_cast<std::ptrdiff_t>(t.out_degree(g)), to);
    std::sort(to, to + static_cast<std::ptrdiff_t>(t.out_degree(g)));
  }
  l.neighbor_row_bytes = rows.offsets.size() * sizeof(EdgeIndex) + rows.ids.size() * sizeof(VertexId);
}

}  // namespace medusa
