#include "triangles_cpu.h"

#include <algorithm>

// Sorted adjacency lists; for each edge u < w, the neighbours x > w that u and w share are walked
// in one merge of the two lists, and u, w and x each get the triangle.
std::vector<unsigned long long> triangles_per_vertex_cpu(std::uint32_t n, const std::vector<std::uint32_t>& src,
                                                         const std::vector<std::uint32_t>& dst) {
  std::vector<std::vector<std::uint32_t>> adjacent(n);
  for (std::size_t e = 0; e < src.size(); ++e) adjacent[src[e]].push_back(dst[e]);
  for (auto& list : adjacent) std::sort(list.begin(), list.end());

  std::vector<unsigned long long> count(n, 0);
  for (std::uint32_t u = 0; u < n; ++u) {
    const std::vector<std::uint32_t>& nu = adjacent[u];
    for (std::uint32_t w : nu) {
      if (w <= u) continue;
      const std::vector<std::uint32_t>& nw = adjacent[w];
      auto a = std::upper_bound(nu.begin(), nu.end(), w);
      auto b = std::upper_bound(nw.begin(), nw.end(), w);
      while (a != nu.end() && b != nw.end()) {
        if (*a < *b) {
          ++a;
        } else if (*b < *a) {
          ++b;
        } else {
          ++count[u];
          ++count[w];
          ++count[*a];
          ++a;
          ++b;
        }
      }
    }
  }
  return count;
}
