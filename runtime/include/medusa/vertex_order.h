// Vertex order on the device (docs/design/vertex-order.md): of the whole graph in a one-partition
// run, of each partition's owned vertices otherwise (build_partition_plan). Numbering the vertices by
// descending degree puts the hubs, whose values most edges read, in a few cache lines (docs/tuning.md,
// "Measurements behind the defaults"). On graphs without hubs (roads,
// grids) the input order keeps neighbours close and degree order would scatter them.
#pragma once

#include <medusa/config.h>
#include <medusa/partition/plan.h>
#include <medusa/topology.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

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

// What a program's supersteps read, as a partitioned run's set-up knows it (Program::uses and the
// seeds), for VertexOrder::Auto on partitions.
struct ProgramReach {
  bool by_id = false;              // functors read or send by vertex id: they hold the user's IDs
  bool frontier = false;           // the edge passes run over a frontier (Domain::Active)
  std::uint64_t seed_edges = 0;    // the out-edges of the seeds (graph.SetActive)
  std::uint64_t edges = 0;         // of the whole graph
  std::uint64_t dense_fraction = 8;  // a frontier of at least edges / dense_fraction out-edges is dense
  // Supersteps that read every vertex: no frontier, or one that starts dense (cc_lp seeds every
  // vertex). A frontier from a few seeds (BFS-Q, SSSP-Q) reads a queue's rows instead.
  bool every_vertex() const { return !frontier || seed_edges * dense_fraction >= edges; }
};

// Auto on k partitions: the one-partition rule (hub share, measured on the whole graph; no copy
// to fit) for programs whose supersteps read every vertex, the input order for a queue frontier,
// where degree order measured slower (docs/design/vertex-order.md, "Partitions"). Input and
// Degree are taken as requested.
VertexOrderChoice choose_partition_vertex_order(const Topology& t, VertexOrder requested, const ProgramReach& program);

// What VertexOrder::Auto weighs (medusa-gen info prints it too).
inline constexpr VertexId kDegreeOrderMinVertices = VertexId{1} << 16;  // smaller vertex arrays stay in L2
inline constexpr double kHubFraction = 0.01;                           // "the top 1% of vertices"
inline constexpr double kDegreeOrderMinHubShare = 0.2;

// Share of the 2E edge endpoints held by the top `fraction` of vertices, from each vertex's
// in + out degree (taken by value: reordered).
inline double hub_share(std::vector<std::uint64_t> degree, std::uint64_t edges, double fraction = kHubFraction) {
  if (degree.empty() || edges == 0) return 0.0;
  const auto top = std::max<std::size_t>(1, static_cast<std::size_t>(fraction * static_cast<double>(degree.size())));
  std::nth_element(degree.begin(), degree.begin() + static_cast<std::ptrdiff_t>(top - 1), degree.end(), std::greater<>());
  const std::uint64_t held = std::accumulate(degree.begin(), degree.begin() + static_cast<std::ptrdiff_t>(top), std::uint64_t{0});
  return static_cast<double>(held) / (2.0 * static_cast<double>(edges));
}
double hub_share(const Topology& t, double fraction = kHubFraction);

// Each vertex's in + out degree.
std::vector<std::uint64_t> total_degrees(const Topology& t);
// Sorts vertex IDs into degree order: descending `degree` (total_degrees), ties by ID.
void sort_by_degree(const std::vector<std::uint64_t>& degree, std::vector<VertexId>& ids);

// Auto's rule before the memory check: enough vertices, enough of the endpoints at the hubs.
inline bool degree_order_pays(VertexId vertices, double top_share) {
  return vertices >= kDegreeOrderMinVertices && top_share >= kDegreeOrderMinHubShare;
}

// The whole graph as one partition (no replicas) whose local IDs run in descending in + out degree,
// ties by ID. Each vertex keeps its out-edges and in-edges in the input order's order, so combiners
// fold the same messages in the same order and results match the input order exactly. The
// layout's input_edge maps local CSR positions to the user's edges; its topology's is left empty.
// sorted_rows: each out-edge row is ordered by local tail ID instead (neighbour sets).
PartitionLayout degree_ordered_layout(const Topology& t, bool sorted_rows = false);

// MemAvailable of /proc/meminfo; 0 where unknown.
std::uint64_t available_host_bytes();

// Host bytes of the renumbered copy degree_ordered_layout makes.
std::uint64_t degree_ordered_layout_bytes(const Topology& t);

}  // namespace medusa
