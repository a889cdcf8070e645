// Sequential queue BFS reference, written without Medusa.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

inline constexpr std::uint32_t kNotReached = 0xffffffffu;

// Level of every vertex from `source` (kNotReached if unreachable).
std::vector<std::uint32_t> bfs_cpu(std::uint32_t vertex_count, const std::vector<std::uint32_t>& src,
                                   const std::vector<std::uint32_t>& dst, std::uint32_t source);
