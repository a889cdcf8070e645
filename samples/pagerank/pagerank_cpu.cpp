#include "pagerank_cpu.h"

std::vector<double> pagerank_cpu(std::uint32_t vertex_count, const std::vector<std::uint32_t>& src,
                                 const std::vector<std::uint32_t>& dst, std::uint32_t iterations) {
  std::vector<double> out_degree(vertex_count, 0.0);
  for (std::uint32_t s : src) out_degree[s] += 1.0;
  std::vector<double> rank(vertex_count, 1.0), incoming(vertex_count);
  for (std::uint32_t it = 0; it < iterations; ++it) {
    incoming.assign(vertex_count, 0.0);
    for (std::size_t e = 0; e < src.size(); ++e) incoming[dst[e]] += rank[src[e]] / out_degree[src[e]];
    for (std::uint32_t v = 0; v < vertex_count; ++v) rank[v] = 0.15 + 0.85 * incoming[v];
  }
  return rank;
}
