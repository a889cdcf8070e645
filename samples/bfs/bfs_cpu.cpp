#include "bfs_cpu.h"

std::vector<std::uint32_t> bfs_cpu(std::uint32_t vertex_count, const std::vector<std::uint32_t>& src,
                                   const std::vector<std::uint32_t>& dst, std::uint32_t source) {
  std::vector<std::size_t> first(vertex_count + 1, 0);
  for (std::uint32_t s : src) ++first[s + 1];
  for (std::uint32_t v = 0; v < vertex_count; ++v) first[v + 1] += first[v];
  std::vector<std::size_t> next(first.begin(), first.end() - 1);
  std::vector<std::uint32_t> adjacent(src.size());
  for (std::size_t e = 0; e < src.size(); ++e) adjacent[next[src[e]]++] = dst[e];

  std::vector<std::uint32_t> level(vertex_count, kNotReached), queue;
  queue.reserve(vertex_count);
  level[source] = 0;
  queue.push_back(source);
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const std::uint32_t u = queue[head];
    for (std::size_t i = first[u]; i < first[u + 1]; ++i) {
      if (level[adjacent[i]] == kNotReached) {
        level[adjacent[i]] = level[u] + 1;
        queue.push_back(adjacent[i]);
      }
    }
  }
  return level;
}
