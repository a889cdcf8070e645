// Vertex order on the device (docs/design/vertex-order.md): of the whole graph in a one-partition
// run, of each partition's owned vertices otherwise (build_partition_plan). Numbering the vertices by
// descending degree puts the hubs, whose values most edges read, in a few cache lines: on Kronecker
// scale 22 a PageRank iteration went from 1.26 to 0.79 ms (H100). On graphs without hubs (roads,
// grids) the input order keeps neighbours close and degree order would scatter them.
#pragma once

#include <medusa/config.h>
#include <medusa/partition/plan.h>
#include <medusa/topology.h>

#include <cstdint>
#include <string>

namespace medusa {

struct VertexOrderChoice {
  VertexOrder order = VertexOrder::Input;  // Input or Degree
  VertexOrder requested = VertexOrder::Auto;
  double hub_share = -1.0;  // share of edge endpoints at the top 1% of vertices by degree; < 0: not measured
  std::string reason;

  bool by_degree() const { return order == VertexOrder::Degree; }
  std::string describe() const;
};

// Auto picks Degree when the graph has at least 65,536 vertices, its top 1% of vertices hold at
// least a fifth of the edge endpoints, and the renumbered copy of the topology fits in half the
// host's available memory. `available_host_bytes` = 0: unknown, not limited.
VertexOrderChoice choose_vertex_order(const Topology& t, VertexOrder requested, std::uint64_t available_host_bytes);

// Share of the 2E edge endpoints (in + out degree) held by the top `fraction` of vertices.
double hub_share(const Topology& t, double fraction = 0.01);

// The whole graph as one partition (no replicas) whose local IDs run in descending in + out degree,
// ties by ID. Each vertex keeps its out-edges and in-edges in the input order's order, so combiners
// fold the same messages in the same order and results match the input order exactly. The
// layout's input_edge maps local CSR positions to the user's edges; its topology's is left empty.
PartitionLayout degree_ordered_layout(const Topology& t);

// MemAvailable of /proc/meminfo; 0 where unknown.
std::uint64_t available_host_bytes();

// Host bytes of the renumbered copy degree_ordered_layout makes.
std::uint64_t degree_ordered_layout_bytes(const Topology& t);

}  // namespace medusa
