// SetActive(priority) on the GPU (docs/design/priority-buckets.md): the same buckets as the host
// engine's (host/priority_buckets.h), so that both run the same supersteps, kept as a near queue
// and a far pile (common/near_far.h) so that a superstep's end costs O(frontier), not O(V).
// At a superstep's end the flagged vertices are compacted (A); they fold their priorities into the
// waiting ones; then either A's lowest bucket is the next frontier (near), or the far pile is split
// once into its lowest bucket and the rest (far). The next frontier's vertices are flagged again for
// the usual compaction (Domain::Active). The kernels check a batch's `halted`, so that bucketed
// supersteps run in batches once the delta is known; one partition only.
#pragma once

#include <medusa/backend/common/near_far.h>
#include <medusa/backend/common/partitioned_session.h>
#include <medusa/backend/common/priorities.h>
#include <medusa/backend/cuda/buffer.h>
#include <medusa/backend/cuda/check.h>
#include <medusa/backend/cuda/engine/core.cuh>
#include <medusa/backend/cuda/kernels.cuh>
#include <medusa/config.h>
#include <medusa/device_api.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

namespace medusa::gpu {

namespace kernels {

using common::kNoPriority;
using common::NearFarState;

// The first non-zero priorities' count and exact sum, while the auto delta is undecided.
struct PrioritySums {
  unsigned long long given, low, high;
};

// Grid-stride over 0 .. n-1 by whole warps: lanes past n take part with `valid` false, so that warp
// votes and shuffles in f always have every lane.
template <class F>
__device__ __forceinline__ void for_each_by_warps(unsigned long long n, const F& f) {
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long base = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + (threadIdx.x & ~31u);
       base < n; base += stride) {
    const unsigned long long i = base + (threadIdx.x & 31u);
    f(i, i < n);
  }
}

// The lanes of a whole warp with `mine` append their v to queue[*count ..], with one atomic.
template <class Index>
__device__ __forceinline__ void warp_append(bool mine, Index v, Index* queue, unsigned long long* count) {
  const unsigned lanes = __ballot_sync(0xffffffffu, mine);
  if (lanes == 0) return;
  const unsigned lane = threadIdx.x & 31u;
  const int leader = __ffs(lanes) - 1;
  unsigned long long base = 0;
  if (static_cast<int>(lane) == leader) base = atomicAdd(count, static_cast<unsigned long long>(__popc(lanes)));
  base = __shfl_sync(0xffffffffu, base, leader);
  if (mine) queue[base + __popc(lanes & ((1u << lane) - 1u))] = v;
}

__device__ __forceinline__ unsigned long long warp_sum(unsigned long long x) {
  for (int o = 16; o > 0; o >>= 1) x += __shfl_down_sync(0xffffffffu, x, o);
  return x;
}
__device__ __forceinline__ unsigned long long warp_min(unsigned long long x) {
  for (int o = 16; o > 0; o >>= 1) x = min(x, __shfl_down_sync(0xffffffffu, x, o));
  return x;
}

// The state as other blocks of this kernel left it (through L2: this SM's L1 may hold older lines).
__device__ __forceinline__ NearFarState load_through_l2(const NearFarState* s) {
  static_assert(sizeof(NearFarState) % sizeof(unsigned long long) == 0, "NearFarState: whole words");
  NearFarState r;
  const auto* from = reinterpret_cast<const unsigned long long*>(s);
  auto* to = reinterpret_cast<unsigned long long*>(&r);
  for (unsigned i = 0; i < sizeof(NearFarState) / sizeof(unsigned long long); ++i) to[i] = __ldcg(from + i);
  return r;
}

// A's vertices fold their priorities into the waiting ones (`fold`), and A's lowest bucket is found
// (`width` 0: not yet, the auto delta undecided). With `sums`, the non-zero priorities given are
// counted and summed. (Templates, as every kernel in a header: one definition per binary.)
template <class Index>
__global__ void __launch_bounds__(kBlock)
    fold_activated_kernel(const Index* __restrict__ activated, NearFarState* __restrict__ s,
                          std::uint64_t* __restrict__ next_priority, std::uint64_t* __restrict__ waiting, bool fold,
                          PrioritySums* __restrict__ sums, std::uint64_t width, const int* __restrict__ halted) {
  await_previous_kernel();
  if (batch_halted(halted)) return;
  const unsigned long long n = s->activated;
  unsigned long long joined = 0, lowest = kNoPriority;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const Index v = activated[i];
    if (fold) {
      const common::Folded f = common::fold_activated(next_priority, waiting, v);
      joined += f.joined ? 1 : 0;
      if (sums != nullptr && f.given != kNoPriority && f.given != 0) {
        atomicAdd(&sums->given, 1ull);
        if (atomicAdd(&sums->low, f.given) + f.given < f.given) atomicAdd(&sums->high, 1ull);  // (carried)
      }
    }
    if (width != 0) lowest = min(lowest, static_cast<unsigned long long>(common::bucket_of(waiting[v], width)));
  }
  joined = warp_sum(joined);
  lowest = warp_min(lowest);
  if ((threadIdx.x & 31u) != 0) return;
  if (joined != 0) atomicAdd(&s->joined, joined);
  if (lowest != kNoPriority) atomicMin(&s->activated_min, lowest);
}

// Near: A's vertices in its lowest bucket are flagged for the next frontier. Every other vertex of A
// goes on the pile unless it is there already.
template <class Index>
__global__ void __launch_bounds__(kBlock)
    near_queue_kernel(const Index* __restrict__ activated, NearFarState* __restrict__ s,
                      std::uint64_t* __restrict__ waiting, std::uint8_t* __restrict__ in_pile, Index* pile0,
                      Index* pile1, std::uint64_t width, std::uint8_t* __restrict__ flags,
                      const int* __restrict__ halted) {
  await_previous_kernel();
  if (batch_halted(halted)) return;
  const bool near = common::takes_near(*s);
  const unsigned side = s->pile_side;
  const unsigned long long bucket = s->activated_min;
  Index* pile = side == 0 ? pile0 : pile1;
  unsigned long long taken = 0;
  for_each_by_warps(s->activated, [&](unsigned long long i, bool valid) {
    common::NearStep step{false, false};
    Index v = 0;
    if (valid) {
      v = activated[i];
      step = common::near_step(waiting, in_pile, v, near, bucket, width);
      if (step.taken) {
        flags[v] = 1;
        ++taken;
      }
    }
    warp_append(step.piled, v, pile, &s->pile_count[side]);
  });
  taken = warp_sum(taken);
  if ((threadIdx.x & 31u) == 0 && taken != 0) atomicAdd(&s->taken, taken);
}

// Far: the lowest bucket among the pile's waiting vertices.
template <class Index>
__global__ void __launch_bounds__(kBlock)
    pile_min_kernel(NearFarState* __restrict__ s, const std::uint64_t* __restrict__ waiting, const Index* pile0,
                    const Index* pile1, std::uint64_t width, const int* __restrict__ halted) {
  await_previous_kernel();
  if (batch_halted(halted) || common::takes_near(*s)) return;
  const unsigned side = s->pile_side;
  const Index* pile = side == 0 ? pile0 : pile1;
  const unsigned long long n = s->pile_count[side];
  unsigned long long lowest = kNoPriority;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    lowest = min(lowest, static_cast<unsigned long long>(common::bucket_of(waiting[pile[i]], width)));
  lowest = warp_min(lowest);
  if ((threadIdx.x & 31u) == 0 && lowest != kNoPriority) atomicMin(&s->pile_min, lowest);
}

// Far: the pile's lowest bucket is flagged for the next frontier, stale entries are dropped, and the
// rest moves to the other pile. Near or far, the last block to finish ends the step: the state is
// made ready for the next superstep and the step counters get the bucket and the bucketed vertices.
template <class Index>
__global__ void __launch_bounds__(kBlock)
    split_pile_kernel(NearFarState* __restrict__ s, std::uint64_t* __restrict__ waiting,
                      std::uint8_t* __restrict__ in_pile, Index* pile0, Index* pile1, std::uint64_t width,
                      std::uint8_t* __restrict__ flags, unsigned long long* __restrict__ bucket_inverted,
                      unsigned long long* __restrict__ bucketed, const int* __restrict__ halted) {
  await_previous_kernel();
  if (batch_halted(halted)) return;
  if (!common::takes_near(*s)) {
    const unsigned side = s->pile_side;
    const unsigned long long bucket = s->pile_min;
    const Index* from = side == 0 ? pile0 : pile1;
    Index* rest = side == 0 ? pile1 : pile0;
    unsigned long long taken = 0;
    for_each_by_warps(s->pile_count[side], [&](unsigned long long i, bool valid) {
      common::SplitStep step = common::SplitStep::Dropped;
      Index v = 0;
      if (valid) {
        v = from[i];
        step = common::split_step(waiting, in_pile, v, bucket, width);
        if (step == common::SplitStep::Taken) {
          flags[v] = 1;
          ++taken;
        }
      }
      warp_append(step == common::SplitStep::Kept, v, rest, &s->pile_count[side ^ 1u]);
    });
    taken = warp_sum(taken);
    if ((threadIdx.x & 31u) == 0 && taken != 0) atomicAdd(&s->taken, taken);
  }
  __shared__ bool is_last;
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    is_last = atomicAdd(&s->blocks_done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!is_last || threadIdx.x != 0) return;
  __threadfence();
  NearFarState done = load_through_l2(s);
  done.blocks_done = 0;
  const common::NearFarOutcome out = common::finish_near_far_step(done);
  *s = done;
  *bucket_inverted = ~static_cast<unsigned long long>(out.bucket);  // (none: 0)
  *bucketed = out.bucketed_vertices;
}

}  // namespace kernels

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
  void take_lowest_bucket(cudaStream_t s) {
    Engine& e = self();
    if (e.V_ == 0) return;
    gpu::StepCounters* c = e.d_counters_.data();
    const int* halted = e.batch_.device_halted();
    kernels::NearFarState* st = d_state_.data();
    std::uint8_t* flags = e.d_next_active_vertex_.data();
    gpu::launch_kernel<kernels::compact_flags_kernel<VertexId>>(e.compact_grid(e.V_), kernels::kBlock, s, flags,
                                                                e.V_, d_activated_.data(), &st->activated, nullptr,
                                                                nullptr, nullptr, halted);
    MEDUSA_CUDA_CHECK_LAUNCH("compact_flags_kernel (activated vertices)");
    // A few waves of blocks: the kernels stride over device counts, from a few vertices to all V.
    const unsigned grid = gpu::grid_for(e.V_, std::max(1u, e.max_blocks_ / 4));
    const unsigned pile_grid = gpu::grid_for(e.V_, std::max(1u, e.max_blocks_ / 16));
    const bool undecided = delta_ == 0;
    gpu::launch_kernel<kernels::fold_activated_kernel<VertexId>>(
        grid, kernels::kBlock, s, d_activated_.data(), st, d_next_priority_.data(), d_waiting_.data(), true,
        undecided ? d_sums_.data() : nullptr, undecided ? 0 : width(), halted);
    MEDUSA_CUDA_CHECK_LAUNCH("fold_activated_kernel");
    if (undecided) {  // (the host decides, with the host engine's code: a read-back while undecided)
      d_sums_.download(h_sums_.data(), 1, s);
      e.stream_.sync();
      common::PrioritySum first;
      first.given = h_sums_[0].given;
      first.low = h_sums_[0].low;
      first.high = h_sums_[0].high;
      delta_ = common::auto_priority_delta(first, mean_out_degree_);
      gpu::launch_kernel<kernels::fold_activated_kernel<VertexId>>(
          grid, kernels::kBlock, s, d_activated_.data(), st, d_next_priority_.data(), d_waiting_.data(), false,
          nullptr, width(), halted);
      MEDUSA_CUDA_CHECK_LAUNCH("fold_activated_kernel (lowest bucket)");
    }
    gpu::launch_kernel<kernels::near_queue_kernel<VertexId>>(grid, kernels::kBlock, s, d_activated_.data(), st,
                                                             d_waiting_.data(), d_in_pile_.data(), d_piles_[0].data(),
                                                             d_piles_[1].data(), width(), flags, halted);
    MEDUSA_CUDA_CHECK_LAUNCH("near_queue_kernel");
    gpu::launch_kernel<kernels::pile_min_kernel<VertexId>>(pile_grid, kernels::kBlock, s, st, d_waiting_.data(),
                                                           d_piles_[0].data(), d_piles_[1].data(), width(), halted);
    MEDUSA_CUDA_CHECK_LAUNCH("pile_min_kernel");
    gpu::launch_kernel<kernels::split_pile_kernel<VertexId>>(
        pile_grid, kernels::kBlock, s, st, d_waiting_.data(), d_in_pile_.data(), d_piles_[0].data(),
        d_piles_[1].data(), width(), flags, &c->lowest_bucket_inverted, &c->bucketed_vertices, halted);
    MEDUSA_CUDA_CHECK_LAUNCH("split_pile_kernel");
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
  gpu::DeviceBuffer<VertexId> d_piles_[2];            // the far pile and the other (NearFarState::pile_side)
  gpu::DeviceBuffer<std::uint8_t> d_in_pile_;         // a vertex has an entry on the pile
  gpu::DeviceBuffer<kernels::NearFarState> d_state_;
  gpu::DeviceBuffer<kernels::PrioritySums> d_sums_;
  gpu::PinnedBuffer<kernels::PrioritySums> h_sums_;
  std::uint64_t delta_ = 0;  // 0 while auto has not chosen
  double mean_out_degree_ = 1.0;
};

}  // namespace medusa::gpu
