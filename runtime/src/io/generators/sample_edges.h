// Draws exactly m independent edges from a sampler, redrawing what self-loop and duplicate
// removal take away, so G(n, m)-style generators deliver the count asked for.
#pragma once

#include "../edge_sort.h"
#include "random.h"

#include <medusa/error.h>
#include <medusa/io/generators.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace medusa::io::detail {

// sample(rng) returns one (src, dst). `possible` is how many distinct edges (after the options)
// exist, to refuse impossible requests instead of looping forever.
template <class Sampler>
void sample_exact(std::uint64_t m, std::uint64_t possible, const GeneratorOptions& options, Sampler sample,
                  std::vector<VertexId>& src, std::vector<VertexId>& dst) {
  const bool canonical = options.symmetrize;
  if (options.remove_duplicates && m > possible) {
    MEDUSA_THROW("cannot draw " + std::to_string(m) + " distinct edges: only " + std::to_string(possible) +
                 " exist with these options");
  }
  if (options.remove_self_loops && possible == 0 && m > 0) MEDUSA_THROW("no edges without self loops exist here");
  std::vector<std::uint64_t> keys;
  std::uint64_t round = 0;
  while (keys.size() < m) {
    const std::uint64_t need = m - keys.size();
    const std::uint64_t blocks = (need + kEdgesPerBlock - 1) / kEdgesPerBlock;
    const std::size_t base = keys.size();
    keys.resize(base + need);
    std::vector<unsigned char> keep(need, 1);
#pragma omp parallel for schedule(dynamic, 4)
    for (std::int64_t block = 0; block < static_cast<std::int64_t>(blocks); ++block) {
      // Stream ids: round in the high bits, block below, so every draw has its own stream.
      Xoshiro256 rng(options.seed, (round << 40) | static_cast<std::uint64_t>(block));
      const std::uint64_t begin = block * kEdgesPerBlock;
      const std::uint64_t end = std::min(need, begin + kEdgesPerBlock);
      for (std::uint64_t i = begin; i < end; ++i) {
        std::pair<VertexId, VertexId> edge = sample(rng);
        if (options.remove_self_loops && edge.first == edge.second) keep[i] = 0;
        if (canonical && edge.first > edge.second) std::swap(edge.first, edge.second);
        keys[base + i] = edge_key(edge.first, edge.second);
      }
    }
    std::size_t kept = base;
    for (std::uint64_t i = 0; i < need; ++i) {
      if (keep[i]) keys[kept++] = keys[base + i];
    }
    keys.resize(kept);
    if (options.remove_duplicates) sort_unique(keys);
    if (++round > 100000) MEDUSA_THROW("edge sampling does not converge (too dense a request)");
  }
  src.resize(keys.size());
  dst.resize(keys.size());
  for (std::size_t e = 0; e < keys.size(); ++e) {
    src[e] = key_src(keys[e]);
    dst[e] = key_dst(keys[e]);
  }
}

}  // namespace medusa::io::detail
