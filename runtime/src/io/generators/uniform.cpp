// Erdos-Renyi G(n, m): uniform endpoints, exactly m edges after the options.
#include "finish_edges.h"
#include "sample_edges.h"

namespace medusa::io {

EdgeListData generate_uniform(VertexId vertices, std::uint64_t edges, const GeneratorOptions& options) {
  detail::check_generator_options(options);
  if (vertices == 0 && edges > 0) MEDUSA_THROW("a graph without vertices cannot have edges");
  if (vertices == kInvalidVertex) MEDUSA_THROW("too many vertices for 32-bit ids");
  const std::uint64_t n = vertices;
  // Distinct edges that exist: ordered pairs, or unordered ones when symmetrized.
  std::uint64_t possible;
  if (options.symmetrize) possible = options.remove_self_loops ? n * (n - (n > 0)) / 2 : n * (n + 1) / 2;
  else possible = options.remove_self_loops ? n * (n - (n > 0)) : n * n;
  std::vector<VertexId> src, dst;
  detail::sample_exact(
      edges, possible, options,
      [n](detail::Xoshiro256& rng) {
        VertexId u = static_cast<VertexId>(rng.below(n));
        VertexId v = static_cast<VertexId>(rng.below(n));
        return std::make_pair(u, v);
      },
      src, dst);
  return detail::finish_edges(vertices, std::move(src), std::move(dst), options, "uniform", false);
}

}  // namespace medusa::io
