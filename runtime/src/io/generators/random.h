// The generators' own PRNG, so that output is identical on every platform and library:
// splitmix64 to derive seeds, xoshiro256** for the streams.
#pragma once

#include <cstdint>

namespace medusa::io::detail {

inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// A stateless hash of (seed, a, b): used for per-edge weights so that they do not depend on the
// order in which edges are produced.
inline std::uint64_t hash3(std::uint64_t seed, std::uint64_t a, std::uint64_t b) {
  std::uint64_t state = seed ^ (a * 0xD1B54A32D192ED03ull) ^ (b * 0x8CB92BA72F3D8DD7ull);
  splitmix64(state);
  return splitmix64(state);
}

class Xoshiro256 {
 public:
  // Independent streams: one per (seed, stream id), e.g. one per block of edges.
  Xoshiro256(std::uint64_t seed, std::uint64_t stream);

  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, bound) without modulo bias (Lemire's multiply-shift with rejection).
  std::uint64_t below(std::uint64_t bound);
  // Uniform double in [0, 1) with 53 random bits.
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

// Edges are generated in blocks of this many, each block from its own stream, so the result is the
// same whatever the thread count.
constexpr std::uint64_t kEdgesPerBlock = 1 << 16;

}  // namespace medusa::io::detail
