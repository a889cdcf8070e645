// PageRank reference, written without Medusa: rank' = 0.15 + 0.85 * sum(rank/outdeg) (double, pull order, OpenMP).
#pragma once

#include <cstdint>
#include <vector>

std::vector<double> pagerank_cpu(std::uint32_t vertex_count, const std::vector<std::uint32_t>& src,
                                 const std::vector<std::uint32_t>& dst, std::uint32_t iterations);
