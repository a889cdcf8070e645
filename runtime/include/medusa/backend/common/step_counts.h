// What every engine reports at the end of a superstep, their sum over partitions, and the
// superstep's line and the run's summary in a verbose run.
#pragma once

#include <medusa/backend/common/partition_votes.h>
#include <medusa/backend/common/priorities.h>
#include <medusa/backend/common/pull_fusion.h>
#include <medusa/config.h>
#include <medusa/types.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <string>

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

// Config::verbose: the run's summary; `plan` describes the registered plan's calls (empty: none),
// `exchanged`: a partitioned run, whose replica refreshes are counted.
inline void print_run(const RunStats& s, const std::string& plan, bool exchanged) {
  std::fprintf(stderr, "medusa: %u supersteps in %.6f s (%s), %llu edges visited\n", s.supersteps, s.seconds,
               s.stop_reason.c_str(), static_cast<unsigned long long>(s.edges_visited));
  if (s.fused_passes != 0) std::fprintf(stderr, "medusa: %u fused passes\n", s.fused_passes);
  if (!plan.empty()) std::fprintf(stderr, "%s\n", plan.c_str());
  if (exchanged)
    std::fprintf(stderr,
                 "medusa: replica exchange: %u refreshes, %.3f MB (%.3f MB of it by sparse copies), %.3f ms copying\n",
                 s.exchange_refreshes, static_cast<double>(s.exchange_bytes) / 1e6,
                 static_cast<double>(s.exchange_sparse_bytes) / 1e6, s.exchange_seconds * 1e3);
}

}  // namespace medusa::common
