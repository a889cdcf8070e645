// Random bipartite graph: edges from a uniform left vertex to a uniform right vertex.
#include "finish_edges.h"
#include "sample_edges.h"

namespace medusa::io {

EdgeListData generate_bipartite(VertexId left, VertexId right, std::uint64_t edges, const GeneratorOptions& options) {
  detail::check_generator_options(options);
  const std::uint64_t total = std::uint64_t{left} + right;
  if (total >= kInvalidVertex) MEDUSA_THROW("too many vertices for 32-bit ids");
  if ((left == 0 || right == 0) && edges > 0) MEDUSA_THROW("bipartite graph needs both sides non-empty to have edges");
  std::vector<VertexId> src, dst;
  detail::sample_exact(
      edges, std::uint64_t{left} * right, options,
      [left, right](detail::Xoshiro256& rng) {
        VertexId u = static_cast<VertexId>(rng.below(left));
        VertexId v = left + static_cast<VertexId>(rng.below(right));
        return std::make_pair(u, v);
      },
      src, dst);
  return detail::finish_edges(static_cast<VertexId>(total), std::move(src), std::move(dst), options, "bipartite", false);
}

}  // namespace medusa::io
