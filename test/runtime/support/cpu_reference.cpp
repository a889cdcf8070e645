#include "cpu_reference.h"

#include <functional>
#include <queue>
#include <utility>

namespace medusa_test {

std::vector<float> pagerank_reference(const EdgeList& g, int iterations) {
  const std::uint32_t n = g.vertex_count;
  std::vector<std::uint32_t> outdeg(n, 0);
  for (std::uint32_t s : g.src) ++outdeg[s];
  std::vector<double> rank(n, 1.0), sum(n);
  for (int it = 0; it < iterations; ++it) {
    std::fill(sum.begin(), sum.end(), 0.0);
    for (std::size_t i = 0; i < g.src.size(); ++i) sum[g.dst[i]] += rank[g.src[i]] / outdeg[g.src[i]];
    for (std::uint32_t v = 0; v < n; ++v) rank[v] = 0.15 + 0.85 * sum[v];
  }
  return std::vector<float>(rank.begin(), rank.end());
}

std::vector<int> bfs_reference(const EdgeList& g, std::uint32_t source) {
  const std::uint32_t n = g.vertex_count;
  std::vector<std::vector<std::uint32_t>> adj(n);
  for (std::size_t i = 0; i < g.src.size(); ++i) adj[g.src[i]].push_back(g.dst[i]);
  std::vector<int> level(n, kUnreached);
  std::queue<std::uint32_t> q;
  level[source] = 0;
  q.push(source);
  while (!q.empty()) {
    const std::uint32_t u = q.front();
    q.pop();
    for (std::uint32_t w : adj[u]) {
      if (level[w] == kUnreached) {
        level[w] = level[u] + 1;
        q.push(w);
      }
    }
  }
  return level;
}

std::vector<int> sssp_reference(const EdgeList& g, const std::vector<int>& weights,
                                std::uint32_t source) {
  const std::uint32_t n = g.vertex_count;
  std::vector<std::vector<std::pair<std::uint32_t, int>>> adj(n);
  for (std::size_t i = 0; i < g.src.size(); ++i) adj[g.src[i]].push_back({g.dst[i], weights[i]});
  std::vector<int> dist(n, kUnreached);
  using Item = std::pair<int, std::uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> pq;
  dist[source] = 0;
  pq.push({0, source});
  while (!pq.empty()) {
    const auto [d, u] = pq.top();
    pq.pop();
    if (d != dist[u]) continue;
    for (const auto& [w, len] : adj[u]) {
      if (d + len < dist[w]) {
        dist[w] = d + len;
        pq.push({dist[w], w});
      }
    }
  }
  return dist;
}

}  // namespace medusa_test
