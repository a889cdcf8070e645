// Bucket-peeling reference (Batagelj and Zaversnik, 2003), written without Medusa: the core number
// of every vertex, its degree counted as its out-edges (self loops and repeated edges included).
#pragma once

#include <cstdint>
#include <vector>

std::vector<int> core_numbers_cpu(std::uint32_t vertex_count, const std::vector<std::uint32_t>& src,
                                  const std::vector<std::uint32_t>& dst);
