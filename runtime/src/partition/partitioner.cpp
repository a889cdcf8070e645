// partition_vertices (method choice, contiguous ranges) and measure_partition.
#include <medusa/error.h>
#include <medusa/partition/assignment.h>

#if MEDUSA_HAVE_METIS
#include "metis_kway.h"
#endif

#include <algorithm>
#include <cstdint>
#include <string>

namespace medusa {

namespace {

// Below this many vertices per part METIS' coarsening has nothing to work with.
constexpr std::uint64_t kMinVerticesPerPart = 64;
constexpr std::uint64_t kAutoMetisMaxEdges = std::uint64_t{64} << 20;  // 64M directed edges

void contiguous(const Topology& t, std::uint32_t parts, std::vector<std::uint32_t>& part_of) {
  const VertexId V = t.vertex_count;
  part_of.assign(V, 0);
  // Weight 1 + in + out degree: the vertex's share of a partition's CSR, reverse CSR and data.
  std::uint64_t total = 0;
  for (VertexId v = 0; v < V; ++v) total += 1 + t.out_degree(v) + t.in_degree(v);
  if (total == 0) return;
  // A vertex goes to the part its weight's midpoint falls in; 128-bit so total * parts cannot wrap.
  std::uint64_t before = 0;
  for (VertexId v = 0; v < V; ++v) {
    const std::uint64_t w = 1 + t.out_degree(v) + t.in_degree(v);
    const unsigned __int128 mid2 = static_cast<unsigned __int128>(2 * before + w) * parts;
    part_of[v] = static_cast<std::uint32_t>(
        std::min<unsigned __int128>(parts - 1, mid2 / (static_cast<unsigned __int128>(2) * total)));
    before += w;
  }
}

double imbalance(const std::vector<std::uint64_t>& per_part) {
  std::uint64_t total = 0, largest = 0;
  for (std::uint64_t x : per_part) {
    total += x;
    largest = std::max(largest, x);
  }
  if (total == 0) return 1.0;
  return static_cast<double>(largest) * static_cast<double>(per_part.size()) / static_cast<double>(total);
}

}  // namespace

bool metis_available() {
#if MEDUSA_HAVE_METIS
  return true;
#else
  return false;
#endif
}

PartitionAssignment partition_vertices(const Topology& t, std::uint32_t parts, PartitionMethod method,
                                       std::uint64_t seed) {
  MEDUSA_REQUIRE(parts >= 1, "partition_vertices: the number of parts must be at least 1");
  MEDUSA_REQUIRE(t.out_offsets.size() == static_cast<std::size_t>(t.vertex_count) + 1 &&
                     t.in_offsets.size() == static_cast<std::size_t>(t.vertex_count) + 1,
                 "partition_vertices: the topology is not built (call Topology::build first)");
  PartitionAssignment a;
  a.parts = parts;
  if (parts == 1) {
    a.part_of.assign(t.vertex_count, 0);
    a.method = "single";
    return a;
  }
  if (method == PartitionMethod::Metis && !metis_available()) {
    MEDUSA_THROW("PartitionMethod::Metis requested, but Medusa was built without METIS; install "
                 "libmetis-dev (Debian) and reconfigure Medusa with CMake, or use "
                 "PartitionMethod::Contiguous (or Auto)");
  }
  const bool tiny = t.edge_count == 0 ||
                    static_cast<std::uint64_t>(t.vertex_count) < kMinVerticesPerPart * parts;
  // Auto leaves very large graphs to contiguous ranges: single-threaded METIS needs minutes and
  // tens of GB there (kron-20: 44 s, 3.7 GB), and on scrambled power-law graphs it cuts barely
  // fewer edges. PartitionMethod::Metis or `medusa-part` + Config::partitionFile still use it.
  const bool too_large_for_auto = method == PartitionMethod::Auto && t.edge_count > kAutoMetisMaxEdges;
  const bool use_metis =
      !tiny && !too_large_for_auto && metis_available() && method != PartitionMethod::Contiguous;
  std::string metis_failure;
  if (use_metis) {
#if MEDUSA_HAVE_METIS
    try {
      detail::metis_kway(t, parts, seed, a.part_of);
      a.method = "metis k-way";
      return a;
    } catch (const Error& e) {
      // Asked for METIS by name: the user hears why it failed. Auto carries on without it.
      if (method == PartitionMethod::Metis) throw;
      metis_failure = e.what();
    }
#endif
  }
  (void)seed;
  contiguous(t, parts, a.part_of);
  a.method = too_large_for_auto ? "contiguous (Auto: too large for METIS at run time)"
             : !metis_failure.empty() ? "contiguous (Auto: METIS failed: " + metis_failure + ")"
                                      : "contiguous";
  return a;
}

PartitionQuality measure_partition(const Topology& t, const PartitionAssignment& a) {
  const VertexId V = t.vertex_count;
  MEDUSA_REQUIRE(a.parts >= 1, "measure_partition: the assignment has 0 parts");
  MEDUSA_REQUIRE(a.part_of.size() == V,
                 "measure_partition: the assignment covers " + std::to_string(a.part_of.size()) +
                     " vertices, the graph has " + std::to_string(V));
  PartitionQuality q;
  q.vertices.assign(a.parts, 0);
  q.edges.assign(a.parts, 0);
  for (VertexId v = 0; v < V; ++v) {
    const std::uint32_t p = a.part_of[v];
    MEDUSA_REQUIRE(p < a.parts, "measure_partition: vertex " + std::to_string(v) + " is in part " +
                                    std::to_string(p) + " of " + std::to_string(a.parts));
    ++q.vertices[p];
    q.edges[p] += t.in_degree(v);
  }
  const auto n = static_cast<std::int64_t>(V);
  std::uint64_t cut = 0;
#pragma omp parallel for schedule(dynamic, 4096) reduction(+ : cut)
  for (std::int64_t v = 0; v < n; ++v) {
    const std::uint32_t p = a.part_of[static_cast<std::size_t>(v)];
    for (EdgeIndex e = t.out_offsets[static_cast<std::size_t>(v)];
         e < t.out_offsets[static_cast<std::size_t>(v) + 1]; ++e)
      if (a.part_of[t.out_dst[e]] != p) ++cut;
  }
  q.cut_edges = cut;
  q.vertex_imbalance = imbalance(q.vertices);
  q.edge_imbalance = imbalance(q.edges);
  return q;
}

}  // namespace medusa
