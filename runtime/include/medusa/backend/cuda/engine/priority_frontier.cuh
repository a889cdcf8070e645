// SetActive(priority) on the GPU (docs/design/priority-buckets.md): the same buckets as the host
// engine's (host/priority_buckets.h), so that both run the same supersteps. At a superstep's end the
// flagged vertices join the waiting ones, each with its lowest priority; the lowest bucket's
// vertices are flagged again for the usual compaction (Domain::Active); the others keep waiting.
// Two passes over all vertices per superstep besides the compaction (fold with the lowest bucket,
// take), a third while the auto delta is undecided; one partition only.
#pragma once

#include <medusa/backend/common/partitioned_session.h>
#include <medusa/backend/common/priorities.h>
#include <medusa/backend/cuda/buffer.h>
#include <medusa/backend/cuda/check.h>
#include <medusa/backend/cuda/engine/core.cuh>
#include <medusa/backend/cuda/kernels.cuh>
#include <medusa/config.h>
#include <medusa/device_api.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

namespace medusa::gpu {

namespace kernels {

inline constexpr std::uint64_t kNoPriority = ~std::uint64_t{0};  // a free slot; no bucket

// The first non-zero priorities' count and exact sum, while the auto delta is undecided.
struct PrioritySums {
  unsigned long long given, low, high;
};

// Per vertex: a flagged one (the flag cleared) joins the waiting ones with the lowest priority it
// was given (SetActive() without one: ~0 - 1, the last bucket, as on the host); with `sums`, the
// non-zero priorities are counted and summed. With `width` (0: not yet), every waiting vertex's
// bucket is folded into the lowest (stored inverted, so that the zeroed counter means none) and
// the waiting vertices counted. (Templates, as every kernel in a header: one definition per binary.)
template <class Priority>
__global__ void __launch_bounds__(kBlock)
    fold_priorities_kernel(std::uint8_t* __restrict__ flags, std::uint64_t n, Priority* __restrict__ next_priority,
                           Priority* __restrict__ waiting, PrioritySums* __restrict__ sums, std::uint64_t width,
                           Priority* __restrict__ lowest_inverted, Priority* __restrict__ counted) {
  await_previous_kernel();
  Priority lowest = 0, count = 0;  // (inverted bucket)
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t v = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < n; v += stride) {
    Priority p = waiting[v];
    if (flags != nullptr && flags[v] != 0) {
      flags[v] = 0;
      const Priority given = next_priority[v];
      next_priority[v] = kNoPriority;
      if (sums != nullptr && given != kNoPriority && given != 0) {
        atomicAdd(&sums->given, 1ull);
        if (atomicAdd(&sums->low, given) + given < given) atomicAdd(&sums->high, 1ull);  // (carried)
      }
      const Priority q = given == kNoPriority ? kNoPriority - 1 : given;
      if (q < p) waiting[v] = p = q;
    }
    if (width != 0 && p != kNoPriority) {
      ++count;
      lowest = max(lowest, ~(p / width));
    }
  }
  if (width == 0) return;
  for (int o = 16; o > 0; o >>= 1) {
    lowest = max(lowest, __shfl_down_sync(0xffffffffu, lowest, o));
    count += __shfl_down_sync(0xffffffffu, count, o);
  }
  if ((threadIdx.x & 31u) == 0 && count != 0) {
    atomicMax(lowest_inverted, lowest);
    atomicAdd(counted, count);
  }
}

// The lowest bucket's waiting vertices stop waiting and are flagged for the compaction.
template <class Priority>
__global__ void __launch_bounds__(kBlock)
    take_lowest_bucket_kernel(Priority* __restrict__ waiting, std::uint64_t n, std::uint64_t width,
                              const Priority* __restrict__ lowest_inverted, std::uint8_t* __restrict__ flags) {
  await_previous_kernel();
  const Priority lowest = ~*lowest_inverted;
  if (lowest == kNoPriority) return;
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t v = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < n; v += stride) {
    const Priority p = waiting[v];
    if (p != kNoPriority && p / width == lowest) {
      waiting[v] = kNoPriority;
      flags[v] = 1;
    }
  }
}

}  // namespace kernels

// A part of PartitionEngine<Program> (= Engine).
template <class Program, class Engine>
class PriorityFrontier {
 public:
  // Whether SetActive(priority) orders by bucket: programs with priorities in one-partition runs
  // (partitions would have to agree on the lowest bucket: common/priorities.h), with a delta set
  // or, for auto, a mean out-degree of kAutoBucketsDegree or more. A sparser graph runs one bucket:
  // its supersteps batch, and the bucket passes over all vertices cost more than the relaxations
  // they save there (docs/design/priority-buckets.md).
  static constexpr std::uint64_t kAutoBucketsDegree = 8;
  bool priority_buckets() const {
    const Engine& e = self();
    return Program::uses.priorities && Program::uses.vertex_frontier && e.conf_.gpuCount == 1 &&
           (e.conf_.priorityDelta != 0 || e.E_ >= kAutoBucketsDegree * e.V_);
  }

 protected:
  Engine& self() { return static_cast<Engine&>(*this); }
  const Engine& self() const { return static_cast<const Engine&>(*this); }

  // Every slot free, no vertex waiting; delta as configured (0: auto, chosen at the first superstep
  // that gives a non-zero priority). Kept across Runs, as on the host.
  void allocate_priorities() {
    if (!priority_buckets()) return;
    Engine& e = self();
    cudaStream_t s = e.stream_.get();
    d_next_priority_.allocate(e.V_);
    d_waiting_.allocate(e.V_);
    if (e.V_ != 0) {
      MEDUSA_CUDA_CHECK(cudaMemsetAsync(d_next_priority_.data(), 0xff, d_next_priority_.bytes(), s));
      MEDUSA_CUDA_CHECK(cudaMemsetAsync(d_waiting_.data(), 0xff, d_waiting_.bytes(), s));
    }
    d_sums_.allocate(1);
    d_sums_.zero(s);
    h_sums_ = gpu::PinnedBuffer<kernels::PrioritySums>(1);
    delta_ = e.conf_.priorityDelta;
    mean_out_degree_ = e.V_ == 0 ? 1.0 : static_cast<double>(e.E_) / static_cast<double>(e.V_);
  }
  static std::uint64_t device_bytes(std::uint64_t vertices) { return 2 * vertices * sizeof(std::uint64_t); }

  void priority_ctx(KernelCtx<typename Program::Message>& c) const {
    c.next_priority = reinterpret_cast<std::uint64_t*>(d_next_priority_.data());
  }

  // Before the compaction of a superstep's end: the next frontier's flags become the lowest bucket's.
  void take_lowest_bucket(cudaStream_t s) {
    Engine& e = self();
    if (e.V_ == 0) return;
    gpu::StepCounters* c = e.d_counters_.data();
    const unsigned grid = gpu::grid_for(e.V_, e.max_blocks_);
    const bool undecided = delta_ == 0;
    gpu::launch_kernel<kernels::fold_priorities_kernel<unsigned long long>>(
        grid, kernels::kBlock, s, e.d_next_active_vertex_.data(), e.V_, d_next_priority_.data(), d_waiting_.data(),
        undecided ? d_sums_.data() : nullptr, undecided ? 0 : delta_, &c->lowest_bucket_inverted,
        &c->bucketed_vertices);
    MEDUSA_CUDA_CHECK_LAUNCH("fold_priorities_kernel");
    if (undecided) {  // (the host decides, with the host engine's code: a read-back while undecided)
      d_sums_.download(h_sums_.data(), 1, s);
      e.stream_.sync();
      common::PrioritySum first;
      first.given = h_sums_[0].given;
      first.low = h_sums_[0].low;
      first.high = h_sums_[0].high;
      delta_ = common::auto_priority_delta(first, mean_out_degree_);
      gpu::launch_kernel<kernels::fold_priorities_kernel<unsigned long long>>(
          grid, kernels::kBlock, s, nullptr, e.V_, d_next_priority_.data(), d_waiting_.data(), nullptr, width(),
          &c->lowest_bucket_inverted, &c->bucketed_vertices);
      MEDUSA_CUDA_CHECK_LAUNCH("fold_priorities_kernel (lowest bucket)");
    }
    gpu::launch_kernel<kernels::take_lowest_bucket_kernel<unsigned long long>>(
        grid, kernels::kBlock, s, d_waiting_.data(), e.V_, width(), &c->lowest_bucket_inverted,
        e.d_next_active_vertex_.data());
    MEDUSA_CUDA_CHECK_LAUNCH("take_lowest_bucket_kernel");
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
           ": each superstep's Domain::Active is the lowest bucket, found by passes over all vertices; "
           "no batches of supersteps\n";
  }

 private:
  // The divisor of a priority: while every priority so far is 0, one bucket (as on the host).
  std::uint64_t width() const { return delta_ == 0 ? kernels::kNoPriority : delta_; }

  gpu::DeviceBuffer<unsigned long long> d_next_priority_;  // KernelCtx::next_priority (~0: none)
  gpu::DeviceBuffer<unsigned long long> d_waiting_;        // a waiting vertex's priority, else ~0
  gpu::DeviceBuffer<kernels::PrioritySums> d_sums_;
  gpu::PinnedBuffer<kernels::PrioritySums> h_sums_;
  std::uint64_t delta_ = 0;  // 0 while auto has not chosen
  double mean_out_degree_ = 1.0;
};

}  // namespace medusa::gpu
