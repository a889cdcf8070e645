// Reference HITS in double precision, written without Medusa: `iterations` rounds of
// authority = A^T hub, normalised, then hub = A authority, normalised (L2), hubs starting at 1.
#pragma once

#include <cstdint>
#include <vector>

struct HitsScores {
  std::vector<double> hub, authority;
};

HitsScores hits_cpu(std::uint32_t vertex_count, const std::vector<std::uint32_t>& src,
                    const std::vector<std::uint32_t>& dst, std::uint32_t iterations);
