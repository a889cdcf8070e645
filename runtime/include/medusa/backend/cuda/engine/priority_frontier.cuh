// SetActive(priority) on the GPU (docs/design/priority-buckets.md): the same buckets as the host
// engine's (host/priority_buckets.h), so that both run the same supersteps, kept as a near queue
// and a far pile (common/near_far.h) so that a superstep's end costs O(frontier), not O(V).
// At a superstep's end the flagged vertices are compacted (A) as they fold their priorities into
// the waiting ones; then either the near candidates' lowest bucket is the next frontier (near), or
// the far pile is split once into its lowest bucket and the rest (far): near_far_kernels.cuh. The
// next frontier's vertices are flagged again for the usual compaction (Domain::Active). The
// kernels check a batch's `halted`, so that bucketed supersteps run in batches once the delta is
// known; one partition only.
#pragma once

#include <medusa/backend/common/near_far.h>
#include <medusa/backend/common/partitioned_session.h>
#include <medusa/backend/common/priorities.h>
#include <medusa/backend/cuda/buffer.h>
#include <medusa/backend/cuda/check.h>
#include <medusa/backend/cuda/engine/core.cuh>
#include <medusa/backend/cuda/engine/near_far_kernels.cuh>
#include <medusa/backend/cuda/kernels.cuh>
#include <medusa/config.h>
#include <medusa/device_api.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

namespace medusa::gpu {

// A part of PartitionEngine<Program> (= Engine).
template <class Program, class Engine>
class PriorityFrontier {
 public:
  // Whether SetActive(priority) orders by bucket: programs with priorities in one-partition runs
  // (partitions would have to agree on the lowest bucket: common/priorities.h), with a delta set
  // or, for auto, a mean out-degree of kAutoBucketsDegree or more. A sparser graph runs one bucket
  // with the auto delta (docs/design/priority-buckets.md says why, and how to measure it again:
  // kAutoBucketsDegree 0 orders every graph).
  static constexpr std::uint64_t kAutoBucketsDegree = 8;
  bool priority_buckets() const {
    const Engine& e = self();
    return Program::uses.priorities && Program::uses.vertex_frontier && e.conf_.gpuCount == 1 &&
           (e.conf_.priorityDelta != 0 || e.E_ >= kAutoBucketsDegree * e.V_);
  }
  // Whether a superstep may run in a batch as far as priorities go: the auto delta's choice reads
  // the first priorities back on the host.
  bool priorities_batchable() const { return !priority_buckets() || delta_ != 0; }

 protected:
  Engine& self() { return static_cast<Engine&>(*this); }
  const Engine& self() const { return static_cast<const Engine&>(*this); }

  // Every slot free, no vertex waiting, the piles empty; delta as configured (0: auto, chosen at
  // the first superstep that gives a non-zero priority). Kept across Runs, as on the host.
  void allocate_priorities() {
    if (!priority_buckets()) return;
    Engine& e = self();
    cudaStream_t s = e.stream_.get();
    d_next_priority_.allocate(e.V_);
    d_waiting_.allocate(e.V_);
    d_activated_.allocate(e.V_);
    d_candidates_.allocate(e.V_);
    d_piles_[0].allocate(e.V_);
    d_piles_[1].allocate(e.V_);
    d_in_pile_.allocate(e.V_);
    if (e.V_ != 0) {
      MEDUSA_CUDA_CHECK(cudaMemsetAsync(d_next_priority_.data(), 0xff, d_next_priority_.bytes(), s));
      MEDUSA_CUDA_CHECK(cudaMemsetAsync(d_waiting_.data(), 0xff, d_waiting_.bytes(), s));
      d_in_pile_.zero(s);
    }
    d_state_.allocate(1);
    const kernels::NearFarState initial = common::initial_near_far_state();
    d_state_.upload(&initial, 1, s);
    e.stream_.sync();  // (`initial` is about to go away)
    d_sums_.allocate(1);
    d_sums_.zero(s);
    h_sums_ = gpu::PinnedBuffer<kernels::PrioritySums>(1);
    delta_ = e.conf_.priorityDelta;
    mean_out_degree_ = e.V_ == 0 ? 1.0 : static_cast<double>(e.E_) / static_cast<double>(e.V_);
  }

  void priority_ctx(KernelCtx<typename Program::Message>& c) const { c.next_priority = d_next_priority_.data(); }

  // Before the compaction of a superstep's end: the next frontier's flags become the lowest bucket's.
  // Three launches (near_far_kernels.cuh), four while the auto delta is undecided.
  void take_lowest_bucket(cudaStream_t s) {
    Engine& e = self();
    if (e.V_ == 0) return;
    gpu::StepCounters* c = e.d_counters_.data();
    const int* halted = e.batch_.device_halted();
    std::uint8_t* flags = e.d_next_active_vertex_.data();
    const bool undecided = delta_ == 0;
    kernels::NearFarArrays<VertexId> arrays{d_state_.data(), d_next_priority_.data(), d_waiting_.data(),
                                            d_in_pile_.data(), {d_piles_[0].data(), d_piles_[1].data()},
                                            d_candidates_.data(), flags, width()};
    gpu::launch_kernel<kernels::compact_fold_kernel<VertexId>>(e.compact_grid(e.V_), kernels::kBlock, s, flags, e.V_,
                                                               d_activated_.data(), arrays,
                                                               undecided ? d_sums_.data() : nullptr, !undecided, halted);
    MEDUSA_CUDA_CHECK_LAUNCH("compact_fold_kernel");
    // A few waves of blocks: the kernels stride over device counts, from a few vertices to all V.
    const unsigned grid = gpu::grid_for(e.V_, std::max(1u, e.max_blocks_ / 4));
    if (undecided) {  // (the host decides, with the host engine's code: a read-back while undecided)
      d_sums_.download(h_sums_.data(), 1, s);
      e.stream_.sync();
      common::PrioritySum first;
      first.given = h_sums_[0].given;
      first.low = h_sums_[0].low;
      first.high = h_sums_[0].high;
      delta_ = common::auto_priority_delta(first, mean_out_degree_);
      arrays.width = width();
      gpu::launch_kernel<kernels::classify_activated_kernel<VertexId>>(grid, kernels::kBlock, s, d_activated_.data(),
                                                                       arrays, halted);
      MEDUSA_CUDA_CHECK_LAUNCH("classify_activated_kernel");
    }
    gpu::launch_kernel<kernels::take_bucket_kernel<VertexId>>(grid, kernels::kBlock, s, arrays,
                                                              &c->lowest_bucket_inverted, &c->bucketed_vertices, halted);
    MEDUSA_CUDA_CHECK_LAUNCH("take_bucket_kernel");
    // (it returns at once unless the far split took nothing: few blocks)
    const unsigned again_grid = gpu::grid_for(e.V_, std::max(1u, e.max_blocks_ / 16));
    gpu::launch_kernel<kernels::split_again_kernel<VertexId>>(again_grid, kernels::kBlock, s, arrays,
                                                              &c->lowest_bucket_inverted, &c->bucketed_vertices, halted);
    MEDUSA_CUDA_CHECK_LAUNCH("split_again_kernel");
  }

  // The bucket fields of a superstep's StepCounts (the session's report and stop rule).
  void count_buckets(const gpu::StepCounters& c, common::StepCounts& out) const {
    if (!priority_buckets()) return;
    out.priority_buckets = true;
    out.bucket = ~static_cast<std::uint64_t>(c.lowest_bucket_inverted);
    out.bucket_width = delta_;
    out.bucketed_vertices = c.bucketed_vertices;
  }

  std::string describe_priorities() const {
    if (!Program::uses.priorities) return "";
    if (!priority_buckets())
      return "  " +
             common::describe_unordered_priorities(common::priorities_unordered_because(
                 self().conf_.gpuCount, /*auto_delta_on_cuda=*/self().conf_.priorityDelta == 0)) +
             "\n";
    return "  priority buckets of delta " + common::describe_priority_delta(self().conf_) +
           ": each superstep's Domain::Active is the lowest bucket, from the vertices it activated (near) or "
           "a split of the far pile once they hold none of it (far); in batches once delta is known\n";
  }

 private:
  // The divisor of a priority: while every priority so far is 0, one bucket (as on the host).
  std::uint64_t width() const { return delta_ == 0 ? kernels::kNoPriority : delta_; }

  gpu::DeviceBuffer<std::uint64_t> d_next_priority_;  // KernelCtx::next_priority (~0: none)
  gpu::DeviceBuffer<std::uint64_t> d_waiting_;        // a waiting vertex's priority, else ~0
  gpu::DeviceBuffer<VertexId> d_activated_;           // A: the vertices flagged in the superstep
  gpu::DeviceBuffer<VertexId> d_candidates_;          // the near queue: A's vertices below far_floor
  gpu::DeviceBuffer<VertexId> d_piles_[2];            // the far pile and the other (NearFarState::pile_side)
  gpu::DeviceBuffer<std::uint8_t> d_in_pile_;         // a vertex has an entry on the pile
  gpu::DeviceBuffer<kernels::NearFarState> d_state_;
  gpu::DeviceBuffer<kernels::PrioritySums> d_sums_;
  gpu::PinnedBuffer<kernels::PrioritySums> h_sums_;
  std::uint64_t delta_ = 0;  // 0 while auto has not chosen
  double mean_out_degree_ = 1.0;
};

}  // namespace medusa::gpu
