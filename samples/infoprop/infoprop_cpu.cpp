#include "infoprop_cpu.h"

#include <algorithm>

namespace {

constexpr std::uint32_t kNever = 0xffffffffu;

std::uint32_t finalize(std::uint32_t h) {
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return h;
}

// The documented draw for edge head -> tail: 24 bits of a hash of the seed and the endpoints.
std::uint32_t draw24(std::uint32_t seed, std::uint32_t head, std::uint32_t tail) {
  return finalize(seed ^ (head * 0x9e3779b1u) ^ (tail * 0x85ebca77u)) >> 8;
}

struct Adjacency {
  std::vector<std::size_t> first;
  std::vector<std::size_t> edge;  // edge indices grouped by source
};
Adjacency by_source(std::uint32_t n, const std::vector<std::uint32_t>& src) {
  Adjacency a;
  a.first.assign(n + 1, 0);
  for (std::uint32_t s : src) ++a.first[s + 1];
  for (std::uint32_t v = 0; v < n; ++v) a.first[v + 1] += a.first[v];
  std::vector<std::size_t> next(a.first.begin(), a.first.end() - 1);
  a.edge.resize(src.size());
  for (std::size_t e = 0; e < src.size(); ++e) a.edge[next[src[e]]++] = e;
  return a;
}

}  // namespace

InfopropSetup infoprop_setup(std::uint32_t vertex_count, const std::vector<std::uint32_t>& dst, std::uint32_t seed,
                             std::uint32_t first) {
  InfopropSetup s;
  if (vertex_count == 0) return s;
  s.seeds.push_back(first % vertex_count);
  for (std::uint32_t i = 1; i < 16; ++i) {
    const std::uint32_t v = finalize(seed * 0x27d4eb2du + i) % vertex_count;
    if (std::find(s.seeds.begin(), s.seeds.end(), v) == s.seeds.end()) s.seeds.push_back(v);
  }
  s.threshold.resize(vertex_count);
  for (std::uint32_t v = 0; v < vertex_count; ++v) s.threshold[v] = 1 + finalize(seed ^ 0x5eed5eedu ^ (v * 0x165667b1u)) % (1u << 20);
  std::vector<std::uint32_t> in_degree(vertex_count, 0);
  for (std::uint32_t d : dst) ++in_degree[d];
  s.weight.resize(dst.size());
  for (std::size_t e = 0; e < dst.size(); ++e) s.weight[e] = (1u << 20) / in_degree[dst[e]];
  return s;
}

std::vector<std::uint32_t> independent_cascade_cpu(std::uint32_t vertex_count, const std::vector<std::uint32_t>& src,
                                                   const std::vector<std::uint32_t>& dst, const InfopropSetup& setup,
                                                   std::uint32_t seed, std::uint32_t chance24,
                                                   std::uint32_t max_steps) {
  const Adjacency adj = by_source(vertex_count, src);
  std::vector<std::uint32_t> at(vertex_count, kNever), frontier = setup.seeds, next;
  for (std::uint32_t s : frontier) at[s] = 0;
  for (std::uint32_t step = 0; step < max_steps && !frontier.empty(); ++step) {
    next.clear();
    for (std::uint32_t u : frontier) {
      for (std::size_t i = adj.first[u]; i < adj.first[u + 1]; ++i) {
        const std::uint32_t w = dst[adj.edge[i]];
        if (at[w] == kNever && draw24(seed, u, w) < chance24) {
          at[w] = step + 1;
          next.push_back(w);
        }
      }
    }
    frontier.swap(next);
  }
  return at;
}

std::vector<std::uint32_t> linear_threshold_cpu(std::uint32_t vertex_count, const std::vector<std::uint32_t>& src,
                                                const std::vector<std::uint32_t>& dst, const InfopropSetup& setup,
                                                std::uint32_t max_steps) {
  const Adjacency adj = by_source(vertex_count, src);
  std::vector<std::uint32_t> at(vertex_count, kNever), influence(vertex_count, 0), frontier = setup.seeds, touched, next;
  for (std::uint32_t s : frontier) at[s] = 0;
  for (std::uint32_t step = 0; step < max_steps && !frontier.empty(); ++step) {
    touched.clear();
    for (std::uint32_t u : frontier) {
      for (std::size_t i = adj.first[u]; i < adj.first[u + 1]; ++i) {
        const std::uint32_t w = dst[adj.edge[i]];
        if (at[w] != kNever) continue;
        influence[w] += setup.weight[adj.edge[i]];
        touched.push_back(w);
      }
    }
    next.clear();
    for (std::uint32_t w : touched) {
      if (at[w] == kNever && influence[w] >= setup.threshold[w]) {
        at[w] = step + 1;
        next.push_back(w);
      }
    }
    frontier.swap(next);
  }
  return at;
}
