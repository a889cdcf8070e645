// GTgraph's R-MAT generator: recursive quadrant choice with probabilities perturbed by up to +-5%
// at every level (as GTgraph does to avoid a too-regular degree staircase).
#include "finish_edges.h"
#include "random.h"

#include <medusa/error.h>

namespace medusa::io {

EdgeListData generate_rmat(const RmatParameters& p, const GeneratorOptions& options) {
  detail::check_generator_options(options);
  if (p.scale < 1 || p.scale > 31) MEDUSA_THROW("R-MAT scale must be 1..31 (got " + std::to_string(p.scale) + ")");
  const double total = p.a + p.b + p.c + p.d;
  if (!(p.a >= 0 && p.b >= 0 && p.c >= 0 && p.d >= 0 && total > 0.999999 && total < 1.000001)) {
    MEDUSA_THROW("R-MAT needs a, b, c, d >= 0 with a + b + c + d = 1");
  }
  const std::uint64_t n = 1ull << p.scale;
  const std::uint64_t m = p.edges;
  std::vector<VertexId> src(m), dst(m);
  const std::int64_t blocks = static_cast<std::int64_t>((m + detail::kEdgesPerBlock - 1) / detail::kEdgesPerBlock);
#pragma omp parallel for schedule(dynamic, 4)
  for (std::int64_t block = 0; block < blocks; ++block) {
    detail::Xoshiro256 rng(options.seed, static_cast<std::uint64_t>(block));
    const std::uint64_t begin = block * detail::kEdgesPerBlock;
    const std::uint64_t end = std::min(m, begin + detail::kEdgesPerBlock);
    for (std::uint64_t e = begin; e < end; ++e) {
      double a = p.a, b = p.b, c = p.c, d = p.d;
      std::uint64_t u = 0, v = 0;
      for (std::uint64_t step = n >> 1; step >= 1; step >>= 1) {
        const double r = rng.unit();
        if (r < a) {
        } else if (r < a + b) {
          v += step;
        } else if (r < a + b + c) {
          u += step;
        } else {
          u += step;
          v += step;
        }
        a *= 0.95 + 0.1 * rng.unit();
        b *= 0.95 + 0.1 * rng.unit();
        c *= 0.95 + 0.1 * rng.unit();
        d *= 0.95 + 0.1 * rng.unit();
        const double norm = a + b + c + d;
        a /= norm;
        b /= norm;
        c /= norm;
        d /= norm;
      }
      src[e] = static_cast<VertexId>(u);
      dst[e] = static_cast<VertexId>(v);
    }
  }
  return detail::finish_edges(static_cast<VertexId>(n), std::move(src), std::move(dst), options, "rmat", false);
}

}  // namespace medusa::io
