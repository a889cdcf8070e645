// Sorting and de-duplicating edges packed as 64-bit keys (src << 32 | dst), in parallel where the
// standard library offers it; the result does not depend on the thread count.
#pragma once

#include <medusa/types.h>

#include <cstdint>
#include <vector>

namespace medusa::io::detail {

inline std::uint64_t edge_key(VertexId src, VertexId dst) {
  return (static_cast<std::uint64_t>(src) << 32) | dst;
}
inline VertexId key_src(std::uint64_t key) { return static_cast<VertexId>(key >> 32); }
inline VertexId key_dst(std::uint64_t key) { return static_cast<VertexId>(key & 0xFFFFFFFFu); }

// Sorts ascending and removes repeated keys.
void sort_unique(std::vector<std::uint64_t>& keys);
// Sorts ascending.
void sort_keys(std::vector<std::uint64_t>& keys);

}  // namespace medusa::io::detail
