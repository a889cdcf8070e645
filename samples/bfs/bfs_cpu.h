// Sequential queue BFS reference, written without Medusa, and the checks the BFS samples share.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

inline constexpr std::uint32_t kNotReached = 0xffffffffu;

// Level of every vertex from `source` (kNotReached if unreachable).
std::vector<std::uint32_t> bfs_cpu(std::uint32_t vertex_count, const std::vector<std::uint32_t>& src,
                                   const std::vector<std::uint32_t>& dst, std::uint32_t source);

// Compares exactly; prints the verdict and returns the exit code.
int validate_levels(const std::vector<unsigned int>& got, const std::vector<std::uint32_t>& expected);
bool write_levels(const std::string& path, const std::vector<unsigned int>& levels);
