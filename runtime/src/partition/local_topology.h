// A partition's local graph, cut straight out of the whole graph's CSR and reverse CSR.
#pragma once

#include <medusa/partition/plan.h>
#include <medusa/topology.h>

#include <cstdint>
#include <vector>

namespace medusa::detail {

// Fills out.topology and out.input_edge from the whole graph `t`, given out.global_id (local
// vertex -> global), its inverse `to_local` and `inner(g)`: whether global vertex g keeps its
// in-edges here (hop < hops). Every head of such an edge is local. The local edges are those
// in-edges, each local vertex's out-row in the global CSR order, and each in-row in the global
// in-row's order (by global source, as the unpartitioned run folds it); topology.input_edge is an
// edge's rank among the local edges in global CSR order.
void build_local_topology(const Topology& t, const std::vector<std::uint8_t>& inner,
                          const std::vector<VertexId>& to_local, PartitionLayout& out);

}  // namespace medusa::detail
