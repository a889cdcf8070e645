// What every engine reports at the end of a superstep, their sum over partitions, and the
// superstep's line in a verbose run.
#pragma once

#include <medusa/backend/common/partition_votes.h>
#include <medusa/backend/common/priorities.h>
#include <medusa/backend/common/pull_fusion.h>
#include <medusa/types.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>

namespace medusa::common {

struct StepCounts {
  std::array<int, kVoteSlots> votes{};
  std::uint64_t active_vertices = 0;
  std::uint64_t active_edges = 0;
  std::uint8_t frontier_passes = 0;  // FrontierPass bits (pull_fusion.h)
  // Programs with priorities where the engine orders by bucket (priority_buckets): the bucket the
  // next frontier holds (~0: none), its width (0: not chosen yet) and the vertices its buckets hold
  // (the next frontier's and those deferred to higher buckets).
  std::uint64_t bucket = ~std::uint64_t{0};
  std::uint64_t bucket_width = 0;
  std::uint64_t bucketed_vertices = 0;
  bool priority_buckets = false;

  // Adds one partition's counts.
  void add(const StepCounts& c) {
    or_votes(votes.data(), c.votes.data());  // (partition_votes.h: as a batch's end does)
    active_vertices += c.active_vertices;
    active_edges += c.active_edges;
    frontier_passes |= c.frontier_passes;
    bucket = std::min(bucket, c.bucket);
    bucket_width = c.bucket_width;
    bucketed_vertices += c.bucketed_vertices;
    priority_buckets |= c.priority_buckets;
  }
};

// Config::verbose: one line per superstep.
inline void print_superstep(std::uint32_t step, const StepCounts& total, bool partitioned) {
  std::fprintf(stderr, "medusa: superstep %u: %snext frontier %llu vertices, %llu edges%s%s\n", step,
               frontier_pass_text(total.frontier_passes).c_str(),
               static_cast<unsigned long long>(total.active_vertices),
               static_cast<unsigned long long>(total.active_edges),
               partitioned ? " (local copies, replicas included)" : "",
               total.priority_buckets
                   ? describe_bucket(total.bucket, total.bucket_width, total.bucketed_vertices - total.active_vertices)
                         .c_str()
                   : "");
}

}  // namespace medusa::common
