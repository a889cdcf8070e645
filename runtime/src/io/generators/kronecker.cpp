// Graph500 Kronecker generator (the reference code's recursive quadrant choice, with its vertex
// relabelling).
#include "finish_edges.h"
#include "random.h"

#include <medusa/error.h>

#include <cmath>
#include <numeric>

namespace medusa::io {

namespace {
constexpr std::uint64_t kPermutationStream = 0xFFFFFFFFFFFFull;

std::uint32_t threshold32(double p) {
  double scaled = std::ldexp(p, 32);
  return scaled >= 4294967295.0 ? 0xFFFFFFFFu : static_cast<std::uint32_t>(scaled);
}
}  // namespace

EdgeListData generate_kronecker(const KroneckerParameters& p, const GeneratorOptions& options) {
  detail::check_generator_options(options);
  if (p.scale < 1 || p.scale > 31) MEDUSA_THROW("Kronecker scale must be 1..31 (got " + std::to_string(p.scale) + ")");
  if (p.edge_factor < 1) MEDUSA_THROW("Kronecker edge factor must be at least 1");
  if (!(p.a >= 0 && p.b >= 0 && p.c >= 0 && p.a + p.b + p.c <= 1)) {
    MEDUSA_THROW("Kronecker initiator needs A, B, C >= 0 and A + B + C <= 1");
  }
  const std::uint64_t n = 1ull << p.scale;
  const std::uint64_t m = p.edge_factor * n;
  // Thresholds on 32-bit draws: two quadrant choices per 64-bit random number.
  const std::uint32_t t_a = threshold32(p.a), t_ab = threshold32(p.a + p.b), t_abc = threshold32(p.a + p.b + p.c);

  std::vector<VertexId> src(m), dst(m);
  const std::int64_t blocks = static_cast<std::int64_t>((m + detail::kEdgesPerBlock - 1) / detail::kEdgesPerBlock);
#pragma omp parallel for schedule(dynamic, 4)
  for (std::int64_t block = 0; block < blocks; ++block) {
    detail::Xoshiro256 rng(options.seed, static_cast<std::uint64_t>(block));
    const std::uint64_t begin = block * detail::kEdgesPerBlock;
    const std::uint64_t end = std::min(m, begin + detail::kEdgesPerBlock);
    for (std::uint64_t e = begin; e < end; ++e) {
      std::uint32_t u = 0, v = 0;
      std::uint64_t bits = 0;
      for (int level = 0; level < p.scale; ++level) {
        if ((level & 1) == 0) bits = rng.next();
        const std::uint32_t r = static_cast<std::uint32_t>(bits >> ((level & 1) * 32));
        // Quadrant: A top-left (0,0), B top-right (0,1), C bottom-left (1,0), D bottom-right (1,1).
        const std::uint32_t row = r >= t_ab;
        const std::uint32_t column = (r >= t_a && r < t_ab) || r >= t_abc;
        u |= row << level;
        v |= column << level;
      }
      src[e] = u;
      dst[e] = v;
    }
  }

  // Random relabelling (Fisher-Yates), so that high-degree vertices are spread over the id range.
  std::vector<VertexId> label(n);
  std::iota(label.begin(), label.end(), VertexId{0});
  detail::Xoshiro256 shuffle(options.seed, kPermutationStream);
  for (std::uint64_t i = n - 1; i > 0; --i) std::swap(label[i], label[shuffle.below(i + 1)]);
  const std::int64_t count = static_cast<std::int64_t>(m);
#pragma omp parallel for schedule(static)
  for (std::int64_t e = 0; e < count; ++e) {
    src[e] = label[src[e]];
    dst[e] = label[dst[e]];
  }
  return detail::finish_edges(static_cast<VertexId>(n), std::move(src), std::move(dst), options, "kronecker", false);
}

}  // namespace medusa::io
