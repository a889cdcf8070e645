// Union-find reference, written without Medusa: each vertex's component, named by its smallest
// vertex id, treating every edge as undirected.
#pragma once

#include <cstdint>
#include <vector>

std::vector<std::uint32_t> components_cpu(std::uint32_t vertex_count, const std::vector<std::uint32_t>& src,
                                          const std::vector<std::uint32_t>& dst);
