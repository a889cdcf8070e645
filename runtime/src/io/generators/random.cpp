#include "random.h"

namespace medusa::io::detail {

Xoshiro256::Xoshiro256(std::uint64_t seed, std::uint64_t stream) {
  std::uint64_t state = seed ^ (stream * 0x9E3779B97F4A7C15ull) ^ 0x6A09E667F3BCC909ull;
  splitmix64(state);  // decorrelate neighbouring stream ids
  state ^= stream;
  for (auto& word : s_) word = splitmix64(state);
}

std::uint64_t Xoshiro256::below(std::uint64_t bound) {
  if (bound == 0) return 0;
  // 128-bit product: the high word is uniform in [0, bound) once the low word is outside the
  // biased zone.
  unsigned __int128 product = static_cast<unsigned __int128>(next()) * bound;
  std::uint64_t low = static_cast<std::uint64_t>(product);
  if (low < bound) {
    const std::uint64_t threshold = (0 - bound) % bound;
    while (low < threshold) {
      product = static_cast<unsigned __int128>(next()) * bound;
      low = static_cast<std::uint64_t>(product);
    }
  }
  return static_cast<std::uint64_t>(product >> 64);
}

}  // namespace medusa::io::detail
