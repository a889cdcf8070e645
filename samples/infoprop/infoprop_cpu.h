// Information propagation: the problem set-up (seeds, thresholds, weights) and sequential
// simulations of the independent cascade and linear threshold models, written without Medusa.
#pragma once

#include <cstdint>
#include <vector>

struct InfopropSetup {
  std::vector<std::uint32_t> seeds;      // active at superstep 0: `first` and up to 15 hashed vertices
  std::vector<std::uint32_t> threshold;  // per vertex, in (0, 2^20]
  std::vector<std::uint32_t> weight;     // per edge: 2^20 / in-degree of its tail
};

InfopropSetup infoprop_setup(std::uint32_t vertex_count, const std::vector<std::uint32_t>& dst, std::uint32_t seed,
                             std::uint32_t first);

// Superstep at which each vertex became active (0xffffffff: never), for at most `max_steps` rounds.
std::vector<std::uint32_t> independent_cascade_cpu(std::uint32_t vertex_count, const std::vector<std::uint32_t>& src,
                                                   const std::vector<std::uint32_t>& dst, const InfopropSetup& setup,
                                                   std::uint32_t seed, std::uint32_t chance24,
                                                   std::uint32_t max_steps);
std::vector<std::uint32_t> linear_threshold_cpu(std::uint32_t vertex_count, const std::vector<std::uint32_t>& src,
                                                const std::vector<std::uint32_t>& dst, const InfopropSetup& setup,
                                                std::uint32_t max_steps);
