// Internal: METIS k-way partitioning (compiled only when MEDUSA_HAVE_METIS).
#pragma once

#include <medusa/partition/assignment.h>

namespace medusa::detail {

// parts >= 2 and t has edges; fills part_of (t.vertex_count entries).
void metis_kway(const Topology& t, std::uint32_t parts, std::uint64_t seed,
                std::vector<std::uint32_t>& part_of);

}  // namespace medusa::detail
