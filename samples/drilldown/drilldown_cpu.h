// Bounded queue BFS reference, written without Medusa: hop count of every vertex within `radius`
// hops of `focus`, 0xffffffff for the others.
#pragma once

#include <cstdint>
#include <vector>

std::vector<std::uint32_t> neighbourhood_cpu(std::uint32_t vertex_count, const std::vector<std::uint32_t>& src,
                                             const std::vector<std::uint32_t>& dst, std::uint32_t focus,
                                             std::uint32_t radius);
