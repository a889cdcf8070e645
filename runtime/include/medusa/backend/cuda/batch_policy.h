// When the CUDA engine issues supersteps in batches (superstep_batch.cuh), as plain host logic.
// A superstep qualifies when every operation in it could have run in a batch and its frontier is
// one that is pushed rather than pulled (fewer out-edges than E/8, pull_fusion.h), so the pushes a
// batch issues are those exact counts would choose unless the frontier grows past that within the
// batch. Batching starts after kSparseStreak qualifying supersteps in a row, so a Kronecker graph,
// whose frontier grows a hundredfold per superstep, never batches.
#pragma once

#include <medusa/tuning.h>
#include <medusa/backend/common/pull_fusion.h>

#include <cstdint>

namespace medusa::gpu {

// Tuning::superstepBatch (MEDUSA_SUPERSTEP_BATCH): Auto batches long runs of sparse supersteps.
using BatchMode = medusa::SuperstepBatching;

class BatchPolicy {
 public:
  static constexpr std::uint32_t kLength = 16;       // supersteps per read-back
  static constexpr std::uint32_t kSparseStreak = 8;  // qualifying supersteps before a batch
  static constexpr std::uint64_t kSparseFraction = common::kFrontierPullFraction;
  static constexpr std::uint64_t kMinVertexBound = 1024;

  explicit BatchPolicy(BatchMode mode) : mode_(mode), run_mode_(mode) {}

  // Whether batches may run at all, given what the engine allows.
  bool allow(bool allowed) { return allowed_ = allowed && mode_ != BatchMode::Off; }
  // The mode of one Run (a source schedule: schedule.h), within what allow() allowed.
  void set_run_mode(BatchMode mode) { run_mode_ = mode; }
  bool allowed() const { return allowed_; }
  void reset_streak() { streak_ = 0; }
  // After a superstep read back exactly: whether the next ones start a batch. A program without a
  // vertex frontier (PageRank) has no frontier to grow out of a batch: one qualifying superstep is
  // enough, as when forced. `buckets_sparse`: sparse_buckets(), for priority buckets.
  bool should_start(bool step_batchable, std::uint64_t vertex_edges, std::uint64_t edges, bool frontier = true,
                    bool buckets_sparse = true) {
    if (!allowed_ || run_mode_ == BatchMode::Off) return false;
    const bool qualifies =
        step_batchable && (run_mode_ == BatchMode::Always || (sparse(vertex_edges, edges) && buckets_sparse));
    streak_ = qualifies ? streak_ + 1 : 0;
    return streak_ >= (run_mode_ == BatchMode::Always || !frontier ? 1 : kSparseStreak);
  }
  // After a batch's read-back: whether the next batch follows at once.
  bool continues(std::uint64_t vertex_edges, std::uint64_t edges, bool buckets_sparse = true) const {
    return run_mode_ == BatchMode::Always || (sparse(vertex_edges, edges) && buckets_sparse);
  }
  // Whether a batch whose launches have this vertex bound queues its next frontiers in SetActive()
  // rather than compacting all V flags: when the frontier is small next to V (forced: always).
  bool queues_frontier(std::uint64_t vertex_bound, std::uint64_t vertices) const {
    return run_mode_ == BatchMode::Always || vertex_bound * kQueuedFrontierFraction <= vertices;
  }
  static constexpr std::uint64_t kQueuedFrontierFraction = 16;  // the bound is 4x the frontier
  static bool sparse(std::uint64_t vertex_edges, std::uint64_t edges) {
    return vertex_edges * kSparseFraction < edges || vertex_edges == 0;
  }
  // With priority buckets the next frontier is the lowest bucket of the waiting vertices, which the
  // last frontiers do not predict (a Kronecker graph's middle buckets are millions of vertices, and
  // a batch expands every frontier with the lane-group push, not the edge-balanced one). So such a
  // superstep qualifies, and a batch goes on, only while the bucketed vertices (waiting and next
  // frontier, StepCounters::bucketed_vertices; 0 without buckets) are under V / kSparseFraction.
  static bool sparse_buckets(std::uint64_t bucketed_vertices, std::uint64_t vertices) {
    return bucketed_vertices * kSparseFraction < vertices || bucketed_vertices == 0;
  }

  // Grid bounds for the launches of a batch that starts from this frontier: four times its
  // vertices (at least kMinVertexBound), times their average out-degree for the edges, each
  // rounded up to a power of two (so that batches of similar frontiers make the same launches, and
  // a recorded batch can be replayed). Kernels stride over the device's count, so a frontier beyond
  // them runs correctly, with fewer threads.
  struct Bounds {
    std::uint64_t vertices, vertex_edges;
  };
  static Bounds bounds(std::uint64_t vertices, std::uint64_t vertex_edges) {
    const std::uint64_t v = power_of_two_at_least(vertices * 4 > kMinVertexBound ? vertices * 4 : kMinVertexBound);
    const std::uint64_t average = vertices == 0 ? 1 : (vertex_edges + vertices - 1) / vertices;
    return {v, power_of_two_at_least(v * average)};
  }
  static std::uint64_t power_of_two_at_least(std::uint64_t n) {
    std::uint64_t p = 1;
    while (p < n) p <<= 1;
    return p;
  }

 private:
  BatchMode mode_;
  BatchMode run_mode_;
  bool allowed_ = false;
  std::uint32_t streak_ = 0;
};

}  // namespace medusa::gpu
