// Sequential Dijkstra reference, written without Medusa.
#pragma once

#include <cstdint>
#include <vector>

inline constexpr std::uint64_t kUnreachable = ~std::uint64_t{0};

std::vector<std::uint64_t> sssp_cpu(std::uint32_t vertex_count, const std::vector<std::uint32_t>& src,
                                    const std::vector<std::uint32_t>& dst,
                                    const std::vector<std::uint32_t>& weight, std::uint32_t source);
