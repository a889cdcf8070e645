#include "hits_cpu.h"

#include <cmath>

namespace {
void normalise(std::vector<double>& x) {
  double squares = 0;
  for (double v : x) squares += v * v;
  if (squares <= 0) return;
  const double scale = 1.0 / std::sqrt(squares);
  for (double& v : x) v *= scale;
}
}  // namespace

HitsScores hits_cpu(std::uint32_t n, const std::vector<std::uint32_t>& src, const std::vector<std::uint32_t>& dst,
                    std::uint32_t iterations) {
  HitsScores s;
  s.hub.assign(n, 1.0);
  s.authority.assign(n, 0.0);
  for (std::uint32_t it = 0; it < iterations; ++it) {
    s.authority.assign(n, 0.0);
    for (std::size_t e = 0; e < src.size(); ++e) s.authority[dst[e]] += s.hub[src[e]];
    normalise(s.authority);
    s.hub.assign(n, 0.0);
    for (std::size_t e = 0; e < src.size(); ++e) s.hub[src[e]] += s.authority[dst[e]];
    normalise(s.hub);
  }
  return s;
}
