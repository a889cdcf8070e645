// Which process (MPI rank) runs which partition: partition p runs on rank p % ranks, where it is
// local engine p / ranks. One process (ranks = 1) runs them all, local engine p = partition p.
#pragma once

#include <cstdint>
#include <vector>

namespace medusa::transport {

struct PartitionOwnership {
  std::uint32_t rank = 0, ranks = 1;

  std::uint32_t rank_of(std::uint32_t partition) const { return partition % ranks; }
  bool owns(std::uint32_t partition) const { return rank_of(partition) == rank; }
  std::uint32_t local_index(std::uint32_t partition) const { return partition / ranks; }
  std::uint32_t partition(std::uint32_t local_index) const { return local_index * ranks + rank; }
  // Partitions of `parts` this rank runs.
  std::uint32_t owned_count(std::uint32_t parts) const {
    return parts > rank ? (parts - rank + ranks - 1) / ranks : 0;
  }
  // Those partitions, by local index.
  std::vector<std::uint32_t> partitions_of(std::uint32_t parts) const {
    std::vector<std::uint32_t> out;
    for (std::uint32_t i = 0; i < owned_count(parts); ++i) out.push_back(partition(i));
    return out;
  }
};

}  // namespace medusa::transport
