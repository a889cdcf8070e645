// SetActive(priority) on the GPU (docs/design/priority-buckets.md): the same buckets as the host
// engine's (host/priority_buckets.h), so that both run the same supersteps, kept as a near queue
// and a far pile (common/near_far.h) so that a superstep's end costs one pass over V flags and
// O(frontier), not more.
// At a superstep's end the flagged vertices are compacted (A, the one pass over V); they fold their
// priorities into the waiting ones; then either A's lowest bucket is the next frontier (near), or
// the far pile is split once into its lowest bucket and the rest (far). Either step appends the
// next frontier straight to the queue Domain::Active reads, with its counts, in place of the
// frontier's own compaction. The kernels check a batch's `halted`, so that bucketed supersteps run
// in batches once the delta is known; one partition only.
#pragma once

#include <medusa/backend/common/near_far.h>
#include <medusa/backend/common/partitioned_session.h>
#include <medusa/backend/common/priorities.h>
#include <medusa/backend/cuda/buffer.h>
#include <medusa/backend/cuda/check.h>
#include <medusa/backend/cuda/engine/core.cuh>
#include <medusa/backend/cuda/kernels.cuh>
#include <medusa/backend/cuda/last_block.cuh>
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

__device__ __forceinline__ unsigned long long warp_sum(unsigned long long x) {
  for (int o = 16; o > 0; o >>= 1) x += __shfl_down_sync(0xffffffffu, x, o);
  return x;
}
__device__ __forceinline__ unsigned long long warp_min(unsigned long long x) {
  for (int o = 16; o > 0; o >>= 1) x = min(x, __shfl_down_sync(0xffffffffu, x, o));
  return x;
}

// Where a bucket step puts the next frontier: straight into the queue that Domain::Active reads,
// with the counts the frontier compaction would have made, so no second pass over V flags is needed.
template <class Index>
struct NextFrontier {
  Index* queue;                   // Frontiers::d_active_vertices_
  unsigned long long* count;      // StepCounters::next_active_vertices
  unsigned long long* edges;      // StepCounters::next_active_vertex_edges (the expansion's choice)
  const EdgeIndex* out_offsets;
  std::uint8_t* flags;  // the same frontier as flags (pull fusion; the compaction of A zeroed them), or null
};

// The two lists a bucket step appends to: the next frontier and a pile.
enum AppendTo : unsigned { kAppendNone = 0, kAppendFrontier = 1, kAppendPile = 2 };
inline constexpr unsigned kStepItems = 8;  // items a thread classifies per tile
inline constexpr unsigned long long kStepTile = static_cast<unsigned long long>(kBlock) * kStepItems;

// Exclusive prefix sum of x over the block, and its total; every thread of the block calls it.
__device__ __forceinline__ unsigned block_exclusive_sum(unsigned x, unsigned& total) {
  constexpr int kWarps = kBlock / 32;
  __shared__ unsigned warp_total[kWarps];
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x / 32u;
  unsigned inclusive = x;
  for (int o = 1; o < 32; o <<= 1) {
    const unsigned other = __shfl_up_sync(0xffffffffu, inclusive, o);
    if (lane >= static_cast<unsigned>(o)) inclusive += other;
  }
  if (lane == 31) warp_total[warp] = inclusive;
  __syncthreads();
  unsigned before = 0;
  total = 0;
  for (int w = 0; w < kWarps; ++w) {
    if (w == static_cast<int>(warp)) before = total;
    total += warp_total[w];
  }
  __syncthreads();  // (warp_total is reused by the next call)
  return before + inclusive - x;
}

// Items 0 .. n-1 in tiles of kStepTile per block (every thread of a block runs the same passes, so
// the barriers stay whole): classify(i, v) returns where v goes (AppendTo bits, v set). Each list
// takes one atomic per block and tile: per-warp atomics on one counter queue up over a Kronecker
// graph's millions of activated vertices (as in compact_flags_kernel). Frontier vertices add their
// out-degrees to the frontier's edge count, and their flags when it has them. Returns the thread's
// frontier count.
template <class Index, class Classify>
__device__ unsigned long long classify_and_append(unsigned long long n, const Classify& classify,
                                                  const NextFrontier<Index>& next, Index* pile,
                                                  unsigned long long* pile_count) {
  __shared__ unsigned long long first_taken, first_piled;
  unsigned long long taken_here = 0, degrees = 0;
  for (unsigned long long base = static_cast<unsigned long long>(blockIdx.x) * kStepTile; base < n;
       base += static_cast<unsigned long long>(gridDim.x) * kStepTile) {
    Index item[kStepItems];
    unsigned to[kStepItems];
    unsigned taken = 0, piled = 0;
#pragma unroll
    for (unsigned k = 0; k < kStepItems; ++k) {
      const unsigned long long i = base + k * kBlock + threadIdx.x;
      to[k] = kAppendNone;
      item[k] = 0;
      if (i < n) to[k] = classify(i, item[k]);
      if (to[k] & kAppendFrontier) {
        ++taken;
        degrees += next.out_offsets[item[k] + 1] - next.out_offsets[item[k]];
        if (next.flags != nullptr) next.flags[item[k]] = 1;
      }
      if (to[k] & kAppendPile) ++piled;
    }
    unsigned taken_total = 0, piled_total = 0;
    unsigned at_taken = block_exclusive_sum(taken, taken_total);
    unsigned at_piled = block_exclusive_sum(piled, piled_total);
    if (threadIdx.x == 0) {
      first_taken = taken_total != 0 ? atomicAdd(next.count, static_cast<unsigned long long>(taken_total)) : 0ull;
      first_piled = piled_total != 0 ? atomicAdd(pile_count, static_cast<unsigned long long>(piled_total)) : 0ull;
    }
    __syncthreads();
#pragma unroll
    for (unsigned k = 0; k < kStepItems; ++k) {
      if (to[k] & kAppendFrontier) next.queue[first_taken + at_taken++] = item[k];
      if (to[k] & kAppendPile) pile[first_piled + at_piled++] = item[k];
    }
    __syncthreads();  // (first_taken and first_piled are reused by the next tile)
    taken_here += taken;
  }
  degrees = warp_sum(degrees);
  if ((threadIdx.x & 31u) == 0 && degrees != 0) atomicAdd(next.edges, degrees);
  return taken_here;
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

// Near: A's vertices in its lowest bucket are the next frontier. Every other vertex of A goes on the
// pile unless it is there already.
template <class Index>
__global__ void __launch_bounds__(kBlock)
    near_queue_kernel(const Index* __restrict__ activated, NearFarState* __restrict__ s,
                      std::uint64_t* __restrict__ waiting, std::uint8_t* __restrict__ in_pile, Index* pile0,
                      Index* pile1, std::uint64_t width, const NextFrontier<Index> next,
                      const int* __restrict__ halted) {
  await_previous_kernel();
  if (batch_halted(halted)) return;
  const bool near = common::takes_near(*s);
  const unsigned side = s->pile_side;
  const unsigned long long bucket = s->activated_min;
  const auto classify = [&](unsigned long long i, Index& v) -> unsigned {
    v = activated[i];
    const common::NearStep step = common::near_step(waiting, in_pile, v, near, bucket, width);
    return (step.taken ? kAppendFrontier : 0u) | (step.piled ? kAppendPile : 0u);
  };
  unsigned long long taken =
      classify_and_append(s->activated, classify, next, side == 0 ? pile0 : pile1, &s->pile_count[side]);
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

// Far: the pile's lowest bucket is the next frontier, stale entries are dropped, and the rest moves
// to the other pile. Near or far, the last block to finish ends the step: the state is made ready
// for the next superstep and the step counters get the bucket and the bucketed vertices.
template <class Index>
__global__ void __launch_bounds__(kBlock)
    split_pile_kernel(NearFarState* __restrict__ s, std::uint64_t* __restrict__ waiting,
                      std::uint8_t* __restrict__ in_pile, Index* pile0, Index* pile1, std::uint64_t width,
                      const NextFrontier<Index> next, unsigned long long* __restrict__ bucket_inverted,
                      unsigned long long* __restrict__ bucketed, const int* __restrict__ halted) {
  await_previous_kernel();
  if (batch_halted(halted)) return;
  if (!common::takes_near(*s)) {
    const unsigned side = s->pile_side;
    const unsigned long long bucket = s->pile_min;
    const Index* from = side == 0 ? pile0 : pile1;
    const auto classify = [&](unsigned long long i, Index& v) -> unsigned {
      v = from[i];
      const common::SplitStep step = common::split_step(waiting, in_pile, v, bucket, width);
      return step == common::SplitStep::Taken ? kAppendFrontier
             : step == common::SplitStep::Kept ? kAppendPile
                                               : kAppendNone;
    };
    unsigned long long taken = classify_and_append(s->pile_count[side], classify, next, side == 0 ? pile1 : pile0,
                                                   &s->pile_count[side ^ 1u]);
    taken = warp_sum(taken);
    if ((threadIdx.x & 31u) == 0 && taken != 0) atomicAdd(&s->taken, taken);
  }
  if (!is_last_block(&s->blocks_done)) return;
  NearFarState done = load_through_l2(s);
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

  // A superstep's end in place of the frontier's compaction: the lowest bucket becomes the next
  // frontier's queue (Domain::Active), its counts those the compaction would have made.
  void take_lowest_bucket(cudaStream_t s) {
    Engine& e = self();
    if (e.V_ == 0) return;
    gpu::StepCounters* c = e.d_counters_.data();
    const int* halted = e.batch_.device_halted();
    kernels::NearFarState* st = d_state_.data();
    const kernels::NextFrontier<VertexId> next{e.d_active_vertices_.data(), &c->next_active_vertices,
                                               &c->next_active_vertex_edges, e.d_out_offsets_.data(),
                                               e.d_active_flags_.data()};
    // (the frontier's flags for pulls, when kept, are zeroed here and set by the take)
    gpu::launch_kernel<kernels::compact_flags_kernel<VertexId>>(
        e.compact_grid(e.V_), kernels::kBlock, s, e.d_next_active_vertex_.data(), e.V_, d_activated_.data(),
        &st->activated, nullptr, nullptr, next.flags, kernels::CurrentFlags::Zeroed, halted);
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
                                                             d_piles_[1].data(), width(), next, halted);
    MEDUSA_CUDA_CHECK_LAUNCH("near_queue_kernel");
    gpu::launch_kernel<kernels::pile_min_kernel<VertexId>>(pile_grid, kernels::kBlock, s, st, d_waiting_.data(),
                                                           d_piles_[0].data(), d_piles_[1].data(), width(), halted);
    MEDUSA_CUDA_CHECK_LAUNCH("pile_min_kernel");
    gpu::launch_kernel<kernels::split_pile_kernel<VertexId>>(
        pile_grid, kernels::kBlock, s, st, d_waiting_.data(), d_in_pile_.data(), d_piles_[0].data(),
        d_piles_[1].data(), width(), next, &c->lowest_bucket_inverted, &c->bucketed_vertices, halted);
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
