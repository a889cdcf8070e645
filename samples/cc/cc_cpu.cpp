#include "cc_cpu.h"

#include <numeric>
#include <utility>

std::vector<std::uint32_t> components_cpu(std::uint32_t vertex_count, const std::vector<std::uint32_t>& src,
                                          const std::vector<std::uint32_t>& dst) {
  std::vector<std::uint32_t> parent(vertex_count);
  std::iota(parent.begin(), parent.end(), 0u);
  auto find = [&](std::uint32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (std::size_t e = 0; e < src.size(); ++e) {
    std::uint32_t a = find(src[e]), b = find(dst[e]);
    if (a == b) continue;
    if (a > b) std::swap(a, b);
    parent[b] = a;  // the root is always the smallest id of its set
  }
  std::vector<std::uint32_t> component(vertex_count);
  for (std::uint32_t v = 0; v < vertex_count; ++v) component[v] = find(v);
  return component;
}
