#include "sssp_cpu.h"

#include <functional>
#include <queue>
#include <utility>

std::vector<std::uint64_t> sssp_cpu(std::uint32_t vertex_count, const std::vector<std::uint32_t>& src,
                                    const std::vector<std::uint32_t>& dst,
                                    const std::vector<std::uint32_t>& weight, std::uint32_t source) {
  std::vector<std::size_t> first(vertex_count + 1, 0);
  for (std::uint32_t s : src) ++first[s + 1];
  for (std::uint32_t v = 0; v < vertex_count; ++v) first[v + 1] += first[v];
  std::vector<std::size_t> next(first.begin(), first.end() - 1), order(src.size());
  for (std::size_t e = 0; e < src.size(); ++e) order[next[src[e]]++] = e;

  std::vector<std::uint64_t> dist(vertex_count, kUnreachable);
  using Item = std::pair<std::uint64_t, std::uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> heap;
  dist[source] = 0;
  heap.push({0, source});
  while (!heap.empty()) {
    const auto [d, u] = heap.top();
    heap.pop();
    if (d != dist[u]) continue;
    for (std::size_t i = first[u]; i < first[u + 1]; ++i) {
      const std::size_t e = order[i];
      const std::uint64_t nd = d + weight[e];
      if (nd < dist[dst[e]]) {
        dist[dst[e]] = nd;
        heap.push({nd, dst[e]});
      }
    }
  }
  return dist;
}
