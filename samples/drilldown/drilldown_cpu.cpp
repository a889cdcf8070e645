#include "drilldown_cpu.h"

std::vector<std::uint32_t> neighbourhood_cpu(std::uint32_t vertex_count, const std::vector<std::uint32_t>& src,
                                             const std::vector<std::uint32_t>& dst, std::uint32_t focus,
                                             std::uint32_t radius) {
  std::vector<std::vector<std::uint32_t>> out(vertex_count);
  for (std::size_t e = 0; e < src.size(); ++e) out[src[e]].push_back(dst[e]);
  std::vector<std::uint32_t> hops(vertex_count, 0xffffffffu), queue{focus};
  hops[focus] = 0;
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const std::uint32_t u = queue[head];
    if (hops[u] == radius) continue;
    for (std::uint32_t w : out[u]) {
      if (hops[w] == 0xffffffffu) {
        hops[w] = hops[u] + 1;
        queue.push_back(w);
      }
    }
  }
  return hops;
}
