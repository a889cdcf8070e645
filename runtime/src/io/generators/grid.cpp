// 2-D grid with 4-neighbour connectivity: diameter rows + cols - 2, the road-network extreme.
#include "finish_edges.h"

#include <medusa/error.h>

namespace medusa::io {

EdgeListData generate_grid(VertexId rows, VertexId cols, const GeneratorOptions& options) {
  detail::check_generator_options(options);
  const std::uint64_t n = std::uint64_t{rows} * cols;
  if (n >= kInvalidVertex) MEDUSA_THROW("grid has too many vertices for 32-bit ids");
  const std::uint64_t m = rows == 0 || cols == 0 ? 0 : 2 * (std::uint64_t{rows} * (cols - 1) + std::uint64_t{cols} * (rows - 1));
  std::vector<VertexId> src, dst;
  src.reserve(m);
  dst.reserve(m);
  // Neighbours in increasing id order: up, left, right, down.
  for (VertexId r = 0; r < rows; ++r) {
    for (VertexId c = 0; c < cols; ++c) {
      const VertexId v = r * cols + c;
      if (r > 0) src.push_back(v), dst.push_back(v - cols);
      if (c > 0) src.push_back(v), dst.push_back(v - 1);
      if (c + 1 < cols) src.push_back(v), dst.push_back(v + 1);
      if (r + 1 < rows) src.push_back(v), dst.push_back(v + cols);
    }
  }
  return detail::finish_edges(static_cast<VertexId>(n), std::move(src), std::move(dst), options, "grid", true);
}

}  // namespace medusa::io
