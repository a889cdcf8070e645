// METIS k-way on the undirected view of a Topology. METIS needs a symmetric adjacency without self
// loops or duplicates; we build it in idx_t arrays directly (two passes: count, then fill) so that
// 16M vertices / 500M adjacency entries need only the final arrays plus one scratch list per thread.
#include "metis_kway.h"

#include <medusa/error.h>

#include <metis.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace medusa::detail {

namespace {

constexpr std::uint64_t kIdxMax = static_cast<std::uint64_t>(std::numeric_limits<idx_t>::max());

// Sorted, unique neighbours of v in both directions, without v itself.
void undirected_neighbours(const Topology& t, VertexId v, std::vector<VertexId>& out) {
  out.clear();
  for (EdgeIndex e = t.out_offsets[v]; e < t.out_offsets[v + 1]; ++e)
    if (t.out_dst[e] != v) out.push_back(t.out_dst[e]);
  for (EdgeIndex r = t.in_offsets[v]; r < t.in_offsets[v + 1]; ++r)
    if (t.in_src[r] != v) out.push_back(t.in_src[r]);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

const char* metis_status_meaning(int status) {
  switch (status) {
    case METIS_ERROR_INPUT: return "METIS_ERROR_INPUT (METIS rejected the input graph or options)";
    case METIS_ERROR_MEMORY: return "METIS_ERROR_MEMORY (METIS could not allocate memory)";
    case METIS_ERROR: return "METIS_ERROR (METIS failed for an unspecified reason)";
    default: return "an unknown METIS status";
  }
}

}  // namespace

void metis_kway(const Topology& t, std::uint32_t parts, std::uint64_t seed,
                std::vector<std::uint32_t>& part_of) {
  const VertexId V = t.vertex_count;
  MEDUSA_REQUIRE(static_cast<std::uint64_t>(V) <= kIdxMax && parts <= kIdxMax,
                 "METIS k-way: " + std::to_string(V) + " vertices / " + std::to_string(parts) +
                     " parts exceed METIS' " + std::to_string(sizeof(idx_t) * 8) +
                     "-bit idx_t; use PartitionMethod::Contiguous");
  const auto n = static_cast<std::int64_t>(V);

  // Pass 1: undirected degree of each vertex (into xadj[v + 1]).
  std::vector<idx_t> xadj(static_cast<std::size_t>(V) + 1, 0);
  std::vector<std::uint64_t> degree_sum(static_cast<std::size_t>(V) + 1, 0);  // 64-bit prefix sums
#pragma omp parallel
  {
    std::vector<VertexId> scratch;
#pragma omp for schedule(dynamic, 1024)
    for (std::int64_t v = 0; v < n; ++v) {
      undirected_neighbours(t, static_cast<VertexId>(v), scratch);
      degree_sum[static_cast<std::size_t>(v) + 1] = scratch.size();
    }
  }
  for (std::size_t v = 0; v < V; ++v) degree_sum[v + 1] += degree_sum[v];
  const std::uint64_t adjacency = degree_sum[V];
  MEDUSA_REQUIRE(adjacency <= kIdxMax,
                 "METIS k-way: the undirected graph has " + std::to_string(adjacency) +
                     " adjacency entries, more than METIS' " + std::to_string(sizeof(idx_t) * 8) +
                     "-bit idx_t holds (" + std::to_string(kIdxMax) +
                     "); use PartitionMethod::Contiguous or a METIS built with IDXTYPEWIDTH 64");
  for (std::size_t v = 0; v <= V; ++v) xadj[v] = static_cast<idx_t>(degree_sum[v]);
  std::vector<std::uint64_t>().swap(degree_sum);

  // Pass 2: the adjacency itself.
  std::vector<idx_t> adjncy(static_cast<std::size_t>(adjacency));
#pragma omp parallel
  {
    std::vector<VertexId> scratch;
#pragma omp for schedule(dynamic, 1024)
    for (std::int64_t v = 0; v < n; ++v) {
      undirected_neighbours(t, static_cast<VertexId>(v), scratch);
      std::copy(scratch.begin(), scratch.end(), adjncy.begin() + xadj[static_cast<std::size_t>(v)]);
    }
  }

  // Two constraints: 1 per vertex, and its in+out degree (at least 1), so parts are balanced by
  // vertices and by edges. METIS sums each constraint in idx_t, so degrees are scaled down by a
  // power of two when the total would overflow.
  std::uint64_t degree_total = 0;
  for (VertexId v = 0; v < V; ++v)
    degree_total += std::max<std::uint64_t>(1, t.out_degree(v) + t.in_degree(v));
  int shift = 0;
  while ((degree_total >> shift) + V > kIdxMax / 2) ++shift;
  std::vector<idx_t> vwgt(2 * static_cast<std::size_t>(V));
#pragma omp parallel for schedule(static)
  for (std::int64_t v = 0; v < n; ++v) {
    const auto u = static_cast<VertexId>(v);
    const std::uint64_t d = (t.out_degree(u) + t.in_degree(u)) >> shift;
    vwgt[2 * static_cast<std::size_t>(v)] = 1;
    vwgt[2 * static_cast<std::size_t>(v) + 1] = static_cast<idx_t>(std::max<std::uint64_t>(1, d));
  }

  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_OBJTYPE] = METIS_OBJTYPE_CUT;
  options[METIS_OPTION_NUMBERING] = 0;
  options[METIS_OPTION_SEED] = static_cast<idx_t>(seed % kIdxMax);

  idx_t nvtxs = static_cast<idx_t>(V), ncon = 2, nparts = static_cast<idx_t>(parts), edgecut = 0;
  std::vector<idx_t> part(static_cast<std::size_t>(V), 0);
  const int status = METIS_PartGraphKway(&nvtxs, &ncon, xadj.data(), adjncy.data(), vwgt.data(),
                                         nullptr, nullptr, &nparts, nullptr, nullptr, options,
                                         &edgecut, part.data());
  if (status != METIS_OK) {
    MEDUSA_THROW("METIS_PartGraphKway failed on " + std::to_string(V) + " vertices, " +
                 std::to_string(adjacency) + " adjacency entries, " + std::to_string(parts) +
                 " parts: " + metis_status_meaning(status) +
                 "; PartitionMethod::Contiguous needs no METIS");
  }
  part_of.resize(V);
  for (std::size_t v = 0; v < V; ++v) {
    MEDUSA_REQUIRE(part[v] >= 0 && static_cast<std::uint64_t>(part[v]) < parts,
                   "METIS returned partition " + std::to_string(part[v]) + " for vertex " +
                       std::to_string(v) + " (expected 0.." + std::to_string(parts - 1) + ")");
    part_of[v] = static_cast<std::uint32_t>(part[v]);
  }
}

}  // namespace medusa::detail
