// Checks written without Medusa: 2-colouring of the input and the properties of a maximal matching.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

// side[v] = 1 for one colour class, 0 for the other; false if the graph has an odd cycle.
bool two_colour(std::uint32_t vertex_count, const std::vector<std::uint32_t>& src,
                const std::vector<std::uint32_t>& dst, std::vector<unsigned int>& side);

// Every violation (at most a few listed): a partner that is no neighbour, a partner that does not
// point back, an edge whose two ends are both unmatched. Empty: a maximal matching.
std::vector<std::string> check_maximal_matching(std::uint32_t vertex_count, const std::vector<std::uint32_t>& src,
                                                const std::vector<std::uint32_t>& dst,
                                                const std::vector<unsigned int>& match);
