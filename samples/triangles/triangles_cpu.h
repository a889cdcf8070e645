// Triangles per vertex of a simple undirected graph (every edge in both directions, no self loops
// or repeated edges), written without Medusa: each triangle u < w < x is found once, from u.
#pragma once

#include <cstdint>
#include <vector>

std::vector<unsigned long long> triangles_per_vertex_cpu(std::uint32_t vertex_count,
                                                         const std::vector<std::uint32_t>& src,
                                                         const std::vector<std::uint32_t>& dst);
