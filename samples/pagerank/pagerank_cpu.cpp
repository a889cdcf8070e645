#include "pagerank_cpu.h"

// Pull order over in-edges grouped by head (a counting sort of the edge list), each vertex's sum
// on one thread: on Kronecker scale 22 the edge-order push (a random write per edge) took minutes.
std::vector<double> pagerank_cpu(std::uint32_t vertex_count, const std::vector<std::uint32_t>& src,
                                 const std::vector<std::uint32_t>& dst, std::uint32_t iterations) {
  const std::int64_t n = vertex_count;
  std::vector<double> out_degree(vertex_count, 0.0);
  for (std::uint32_t s : src) out_degree[s] += 1.0;
  std::vector<std::uint64_t> first_in(vertex_count + std::size_t{1}, 0);
  for (std::uint32_t d : dst) ++first_in[d + std::size_t{1}];
  for (std::int64_t v = 0; v < n; ++v) first_in[v + 1] += first_in[v];
  std::vector<std::uint32_t> in_src(src.size());
  std::vector<std::uint64_t> next(first_in.begin(), first_in.end() - 1);
  for (std::size_t e = 0; e < src.size(); ++e) in_src[next[dst[e]]++] = src[e];

  std::vector<double> rank(vertex_count, 1.0), contribution(vertex_count);
  for (std::uint32_t it = 0; it < iterations; ++it) {
#pragma omp parallel for schedule(static)
    for (std::int64_t v = 0; v < n; ++v) contribution[v] = out_degree[v] > 0 ? rank[v] / out_degree[v] : 0.0;
#pragma omp parallel for schedule(dynamic, 1024)
    for (std::int64_t v = 0; v < n; ++v) {
      double incoming = 0;
      for (std::uint64_t j = first_in[v]; j < first_in[v + 1]; ++j) incoming += contribution[in_src[j]];
      rank[v] = 0.15 + 0.85 * incoming;
    }
  }
  return rank;
}
