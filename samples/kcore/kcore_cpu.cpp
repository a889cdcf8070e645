#include "kcore_cpu.h"

#include <algorithm>

// Vertices sorted by degree in buckets; taking them in order, each one's core is its degree then,
// and each neighbour of higher degree moves one bucket down.
std::vector<int> core_numbers_cpu(std::uint32_t n, const std::vector<std::uint32_t>& src,
                                  const std::vector<std::uint32_t>& dst) {
  std::vector<std::uint64_t> offset(n + 1, 0);
  for (std::uint32_t u : src) ++offset[u + 1];
  for (std::uint32_t v = 0; v < n; ++v) offset[v + 1] += offset[v];
  std::vector<std::uint32_t> adjacent(src.size());
  std::vector<std::uint64_t> next(offset.begin(), offset.end() - 1);
  for (std::size_t e = 0; e < src.size(); ++e) adjacent[next[src[e]]++] = dst[e];

  std::vector<int> degree(n);
  int max_degree = 0;
  for (std::uint32_t v = 0; v < n; ++v) {
    degree[v] = static_cast<int>(offset[v + 1] - offset[v]);
    max_degree = std::max(max_degree, degree[v]);
  }
  std::vector<std::uint32_t> bin_start(static_cast<std::size_t>(max_degree) + 2, 0);
  for (std::uint32_t v = 0; v < n; ++v) ++bin_start[degree[v] + 1];
  for (int d = 0; d <= max_degree; ++d) bin_start[d + 1] += bin_start[d];
  std::vector<std::uint32_t> order(n), position(n);
  std::vector<std::uint32_t> fill(bin_start.begin(), bin_start.end() - 1);
  for (std::uint32_t v = 0; v < n; ++v) {
    position[v] = fill[degree[v]]++;
    order[position[v]] = v;
  }
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t v = order[i];
    for (std::uint64_t e = offset[v]; e < offset[v + 1]; ++e) {
      const std::uint32_t u = adjacent[e];
      if (degree[u] <= degree[v]) continue;
      // Swap u with the first vertex of its bucket, then shrink the bucket from the front.
      const int du = degree[u];
      const std::uint32_t first = bin_start[du];
      const std::uint32_t w = order[first];
      if (w != u) {
        std::swap(order[position[u]], order[first]);
        std::swap(position[u], position[w]);
      }
      ++bin_start[du];
      --degree[u];
    }
  }
  return degree;
}
