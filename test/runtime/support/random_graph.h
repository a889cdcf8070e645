// Seeded, platform-independent random graphs and edge weights for tests.
#pragma once

#include "graph_files.h"

#include <cstdint>

namespace medusa_test {

// splitmix64: the same sequence on every platform (unlike std distributions).
inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// `edges` directed edges with uniformly random endpoints (self loops and duplicates included).
inline EdgeList random_graph(std::uint32_t vertices, std::uint64_t edges, std::uint64_t seed) {
  EdgeList g;
  g.vertex_count = vertices;
  g.src.resize(edges);
  g.dst.resize(edges);
  for (std::uint64_t i = 0; i < edges; ++i) {
    g.src[i] = static_cast<std::uint32_t>(mix64(seed * 2654435761ULL + 2 * i) % vertices);
    g.dst[i] = static_cast<std::uint32_t>(mix64(seed * 2654435761ULL + 2 * i + 1) % vertices);
  }
  return g;
}

// random_graph with a hub joined both ways to every vertex: large and skewed enough (at least
// 65,536 vertices, over a fifth of the endpoints at the top 1%) for VertexOrder::Auto's degree order.
inline EdgeList hub_graph(std::uint32_t vertices, std::uint64_t random_edges, std::uint32_t hub, std::uint64_t seed) {
  EdgeList g = random_graph(vertices, random_edges, seed);
  for (std::uint32_t v = 0; v < vertices; ++v) {
    if (v == hub) continue;
    g.src.push_back(hub), g.dst.push_back(v);
    g.src.push_back(v), g.dst.push_back(hub);
  }
  return g;
}

// Deterministic weight in [1, max_weight] for input edge i.
inline int edge_weight(std::uint64_t i, int max_weight) {
  return 1 + static_cast<int>(mix64(i ^ 0x5eed) % static_cast<std::uint64_t>(max_weight));
}

}  // namespace medusa_test
