// Plain CPU references for the integration tests, written without any Medusa code.
#pragma once

#include "graph_files.h"

#include <cstdint>
#include <vector>

namespace medusa_test {

inline constexpr int kUnreached = 1 << 30;

// rank'(v) = 0.15 + 0.85 * sum over in-edges (u, v) of rank(u) / outdeg(u), from rank = 1,
// `iterations` times (the Medusa paper's PageRank).
std::vector<float> pagerank_reference(const EdgeList& g, int iterations);

// Hop distance from `source` (kUnreached where unreachable), by a FIFO queue.
std::vector<int> bfs_reference(const EdgeList& g, std::uint32_t source);

// Shortest path length from `source` with weights[i] for input edge i, by Dijkstra.
std::vector<int> sssp_reference(const EdgeList& g, const std::vector<int>& weights,
                                std::uint32_t source);

}  // namespace medusa_test
