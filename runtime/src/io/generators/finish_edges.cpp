#include "finish_edges.h"

#include "../edge_sort.h"
#include "random.h"

#include <medusa/error.h>

#include <algorithm>

namespace medusa::io::detail {
namespace {

constexpr std::uint64_t kWeightSalt = 0x57E1647000000001ull;

void assign_weights(EdgeListData& data, const GeneratorOptions& options) {
  const std::uint64_t range = static_cast<std::uint64_t>(options.weights.hi) - static_cast<std::uint64_t>(options.weights.lo) + 1;
  const std::int64_t count = static_cast<std::int64_t>(data.src.size());
  data.weight.resize(data.src.size());
  const bool symmetric = data.symmetric;
  const std::uint64_t seed = options.seed ^ kWeightSalt;
#pragma omp parallel for schedule(static)
  for (std::int64_t e = 0; e < count; ++e) {
    VertexId u = data.src[e], v = data.dst[e];
    // An undirected edge's two directions hash the same pair, so they get the same weight.
    if (symmetric && u > v) std::swap(u, v);
    std::uint64_t draw = hash3(seed, u, v);
    std::uint64_t offset = range == 0 ? draw : static_cast<std::uint64_t>((static_cast<unsigned __int128>(draw) * range) >> 64);
    data.weight[e] = static_cast<double>(static_cast<std::int64_t>(static_cast<std::uint64_t>(options.weights.lo) + offset));
  }
}

}  // namespace

void check_generator_options(const GeneratorOptions& options) {
  if (options.weighted && options.weights.lo > options.weights.hi) {
    MEDUSA_THROW("weight range is empty (expected lo <= hi, got " + std::to_string(options.weights.lo) + ":" +
                 std::to_string(options.weights.hi) + ")");
  }
}

EdgeListData finish_edges(VertexId vertex_count, std::vector<VertexId> src, std::vector<VertexId> dst,
                          const GeneratorOptions& options, const std::string& format, bool already_symmetric) {
  EdgeListData data;
  data.vertex_count = vertex_count;
  data.format = format;
  if (options.remove_self_loops) {
    std::size_t kept = 0;
    for (std::size_t e = 0; e < src.size(); ++e) {
      if (src[e] == dst[e]) continue;
      src[kept] = src[e];
      dst[kept] = dst[e];
      ++kept;
    }
    src.resize(kept);
    dst.resize(kept);
  }
  const bool add_reverse = options.symmetrize && !already_symmetric;
  data.symmetric = options.symmetrize || already_symmetric;
  if (options.remove_duplicates) {
    const std::int64_t count = static_cast<std::int64_t>(src.size());
    std::vector<std::uint64_t> keys(src.size());
#pragma omp parallel for schedule(static)
    for (std::int64_t e = 0; e < count; ++e) {
      VertexId u = src[e], v = dst[e];
      if (add_reverse && u > v) std::swap(u, v);  // one key per undirected pair
      keys[e] = edge_key(u, v);
    }
    src = {};
    dst = {};
    sort_unique(keys);
    if (add_reverse) {
      std::size_t loops = 0;
      for (std::uint64_t k : keys) loops += key_src(k) == key_dst(k);
      const std::size_t unique = keys.size();
      keys.reserve(2 * unique - loops);
      for (std::size_t i = 0; i < unique; ++i) {
        if (key_src(keys[i]) != key_dst(keys[i])) keys.push_back(edge_key(key_dst(keys[i]), key_src(keys[i])));
      }
      sort_keys(keys);
    }
    data.src.resize(keys.size());
    data.dst.resize(keys.size());
    const std::int64_t total = static_cast<std::int64_t>(keys.size());
#pragma omp parallel for schedule(static)
    for (std::int64_t e = 0; e < total; ++e) {
      data.src[e] = key_src(keys[e]);
      data.dst[e] = key_dst(keys[e]);
    }
  } else {
    if (add_reverse) {
      const std::size_t count = src.size();
      std::size_t loops = 0;
      for (std::size_t e = 0; e < count; ++e) loops += src[e] == dst[e];
      src.reserve(2 * count - loops);
      dst.reserve(2 * count - loops);
      for (std::size_t e = 0; e < count; ++e) {
        if (src[e] == dst[e]) continue;
        src.push_back(dst[e]);
        dst.push_back(src[e]);
      }
    }
    data.src = std::move(src);
    data.dst = std::move(dst);
  }
  if (options.weighted) assign_weights(data, options);
  return data;
}

}  // namespace medusa::io::detail
