// The kernels of a bucketed superstep's end (priority_frontier.cuh; the steps are common/near_far.h):
// 1. compact_fold_kernel: the activated flags are compacted (A); each vertex of A folds its priority
//    and becomes a near candidate or joins the pile, in the same pass.
// 2. take_bucket_kernel: near, the candidates' lowest bucket is flagged for the next frontier; far,
//    the pile is split at its lower bound. Its last block ends the step, unless the split took nothing.
// 3. split_again_kernel: only then (else it returns at once), a second split at the exact minimum.
// Every kernel checks a batch's `halted`. Appends and sums take one atomic per block and round, not
// per warp: on kron-22 a pile of millions of vertices would queue 100,000s of atomics on one counter.
#pragma once

#include <medusa/backend/common/near_far.h>
#include <medusa/backend/cuda/kernels.cuh>
#include <medusa/types.h>

#include <cstdint>

namespace medusa::gpu::kernels {

using common::kNoPriority;
using common::NearFarState;

// The first non-zero priorities' count and exact sum, while the auto delta is undecided.
struct PrioritySums {
  unsigned long long given, low, high;
};

// Every thread of the block calls it with the number of entries it appends to the queue whose
// length is *count; returns where its own go. One atomic for the block (none when it has none).
__device__ __forceinline__ unsigned long long block_reserve(unsigned mine, unsigned long long* count) {
  constexpr unsigned kWarps = kBlock / 32;
  __shared__ unsigned warp_first[kWarps];
  __shared__ unsigned long long block_first;
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x / 32u;
  unsigned upto = mine;  // inclusive scan over the warp's lanes
  for (int o = 1; o < 32; o <<= 1) {
    const unsigned other = __shfl_up_sync(0xffffffffu, upto, o);
    if (lane >= static_cast<unsigned>(o)) upto += other;
  }
  if (lane == 31) warp_first[warp] = upto;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned total = 0;
    for (unsigned w = 0; w < kWarps; ++w) {
      const unsigned t = warp_first[w];
      warp_first[w] = total;
      total += t;
    }
    block_first = total != 0 ? atomicAdd(count, static_cast<unsigned long long>(total)) : 0ull;
  }
  __syncthreads();
  const unsigned long long first = block_first + warp_first[warp] + (upto - mine);
  __syncthreads();  // (the next call writes the shared words again)
  return first;
}

// Every thread of the block calls it; the block's sum (or minimum) reaches *target in one atomic.
template <bool kMin>
__device__ __forceinline__ void block_fold_into(unsigned long long x, unsigned long long* target) {
  constexpr unsigned kWarps = kBlock / 32;
  __shared__ unsigned long long warp_part[kWarps];
  for (int o = 16; o > 0; o >>= 1) {
    const unsigned long long other = __shfl_down_sync(0xffffffffu, x, o);
    x = kMin ? min(x, other) : x + other;
  }
  if ((threadIdx.x & 31u) == 0) warp_part[threadIdx.x / 32u] = x;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long all = warp_part[0];
    for (unsigned w = 1; w < kWarps; ++w) all = kMin ? min(all, warp_part[w]) : all + warp_part[w];
    if (kMin && all != kNoPriority) atomicMin(target, all);
    if (!kMin && all != 0) atomicAdd(target, all);
  }
  __syncthreads();
}

// Whether this block is the last of the kernel to get here (every thread calls it).
__device__ __forceinline__ bool last_block(unsigned* blocks_done) {
  __shared__ bool is_last;
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    is_last = atomicAdd(blocks_done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (is_last) __threadfence();
  return is_last;
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

// Where the bucket step's arrays are.
template <class Index>
struct NearFarArrays {
  NearFarState* state;
  std::uint64_t* next_priority;  // KernelCtx::next_priority
  std::uint64_t* waiting;
  std::uint8_t* in_pile;
  Index* piles[2];
  Index* candidates;   // the near queue
  std::uint8_t* flags;  // the next frontier's
  std::uint64_t width;  // delta (kNoPriority: undecided)

  // (a select, not an index: an indexed kernel parameter array goes to local memory)
  __device__ Index* pile(unsigned side) const { return side == 0 ? piles[0] : piles[1]; }
};

// The fold of A (step 1), called for each tile of A's compaction (or for A itself): each vertex
// folds its priority (with `fold`) and, with `classify`, becomes a near candidate or joins the pile.
// `sums` (may be null): the non-zero priorities given, counted and summed exactly.
template <class Index>
struct FoldActivated {
  NearFarArrays<Index> a;
  PrioritySums* sums;
  bool fold, classify;
  std::uint64_t floor;  // near_floor() of the state
  unsigned side;
  unsigned long long joined = 0, near_min = kNoPriority, pile_low = kNoPriority;

  // Up to 16 vertices, bit k of `bits` for vertex `first + k`, or for element k of the source.
  template <class Vertex>
  __device__ void take(unsigned bits, const Vertex& vertex) {
    unsigned candidate = 0, piled = 0;
    for (unsigned m = bits; m != 0; m &= m - 1) {
      const unsigned k = static_cast<unsigned>(__ffs(m) - 1);
      const Index v = vertex(k);
      if (fold) {
        const common::Folded f = common::fold_activated(a.next_priority, a.waiting, v);
        joined += f.joined ? 1 : 0;
        if (sums != nullptr && f.given != kNoPriority && f.given != 0) {
          atomicAdd(&sums->given, 1ull);
          if (atomicAdd(&sums->low, f.given) + f.given < f.given) atomicAdd(&sums->high, 1ull);  // (carried)
        }
      }
      if (!classify) continue;
      const common::Classified c = common::classify_activated(a.waiting, a.in_pile, v, floor, a.width);
      if (c.candidate) {
        candidate |= 1u << k;
        near_min = min(near_min, static_cast<unsigned long long>(c.bucket));
      } else {
        pile_low = min(pile_low, static_cast<unsigned long long>(c.bucket));
      }
      if (c.piled) piled |= 1u << k;
    }
    if (!classify) return;  // (the same for the whole block)
    unsigned long long at = block_reserve(static_cast<unsigned>(__popc(candidate)), &a.state->candidates);
    for (unsigned m = candidate; m != 0; m &= m - 1) a.candidates[at++] = vertex(static_cast<unsigned>(__ffs(m) - 1));
    at = block_reserve(static_cast<unsigned>(__popc(piled)), &a.state->pile_count[side]);
    for (unsigned m = piled; m != 0; m &= m - 1) a.pile(side)[at++] = vertex(static_cast<unsigned>(__ffs(m) - 1));
  }
  __device__ void tile(std::uint64_t first, unsigned bits) {
    take(bits, [first](unsigned k) { return static_cast<Index>(first + k); });
  }
  __device__ void end() {
    block_fold_into<false>(joined, &a.state->joined);
    block_fold_into<true>(near_min, &a.state->near_min);
    block_fold_into<true>(pile_low, &a.state->pile_low);
  }
};

template <class Index>
__device__ __forceinline__ FoldActivated<Index> fold_for(const NearFarArrays<Index>& a, PrioritySums* sums, bool fold,
                                                         bool classify) {
  const NearFarState& s = *a.state;
  return FoldActivated<Index>{a, sums, fold, classify, common::near_floor(s), s.pile_side};
}

// Step 1: A's compaction (into `activated`, its count the state's) with the fold. While the auto
// delta is undecided, without the classification (classify_activated_kernel runs it once chosen).
template <class Index>
__global__ void __launch_bounds__(kBlock)
    compact_fold_kernel(std::uint8_t* __restrict__ activated_flags, std::uint64_t n, Index* __restrict__ activated,
                        const NearFarArrays<Index> a, PrioritySums* sums, bool classify,
                        const int* __restrict__ halted) {
  await_previous_kernel();
  if (batch_halted(halted)) return;
  FoldActivated<Index> f = fold_for(a, sums, /*fold=*/true, classify);
  compact_flag_tiles(activated_flags, n, activated, &a.state->activated, nullptr, nullptr, nullptr, f);
  f.end();
}

// Step 1's classification over A, once the auto delta is chosen (the host read the sums back).
template <class Index>
__global__ void __launch_bounds__(kBlock)
    classify_activated_kernel(const Index* __restrict__ activated, const NearFarArrays<Index> a,
                              const int* __restrict__ halted) {
  await_previous_kernel();
  if (batch_halted(halted)) return;
  FoldActivated<Index> f = fold_for(a, nullptr, /*fold=*/false, /*classify=*/true);
  const unsigned long long n = a.state->activated;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * kBlock;
  // (the bound is on the block's first index: every thread runs each round, as take() needs)
  for (unsigned long long base = static_cast<unsigned long long>(blockIdx.x) * kBlock; base < n; base += stride) {
    const unsigned long long i = base + threadIdx.x;
    f.take(i < n ? 1u : 0u, [&](unsigned) { return activated[i]; });
  }
  f.end();
}

// Rounds of kPerRound entries a thread over from[0 .. n): step(v, out) decides each entry and may
// give one to append (out), appended to `to` (length *to_count), one atomic per block and round.
inline constexpr unsigned kPerRound = 4;
template <class Index, class Step>
__device__ __forceinline__ void for_each_in_rounds(const Index* from, unsigned long long n, Index* to,
                                                   unsigned long long* to_count, const Step& step) {
  const unsigned long long round = static_cast<unsigned long long>(gridDim.x) * kBlock * kPerRound;
  for (unsigned long long base = static_cast<unsigned long long>(blockIdx.x) * kBlock * kPerRound; base < n;
       base += round) {
    Index out[kPerRound];
    bool appends[kPerRound];
    unsigned count = 0;
#pragma unroll
    for (unsigned j = 0; j < kPerRound; ++j) {
      const unsigned long long i = base + j * kBlock + threadIdx.x;
      appends[j] = i < n && step(from[i], out[j]);
      count += appends[j] ? 1u : 0u;
    }
    unsigned long long at = block_reserve(count, to_count);
#pragma unroll
    for (unsigned j = 0; j < kPerRound; ++j)
      if (appends[j]) to[at++] = out[j];
  }
}

// A split of the pile in use at `bucket` (step 2 far, or step 3): the bucket's vertices are
// flagged, the rest moves to the other pile.
template <class Index>
__device__ __forceinline__ void split_pile(const NearFarArrays<Index>& a, std::uint64_t bucket) {
  NearFarState* s = a.state;
  const unsigned side = s->pile_side;
  unsigned long long taken = 0, kept_min = kNoPriority;
  for_each_in_rounds(a.pile(side), s->pile_count[side], a.pile(side ^ 1u), &s->pile_count[side ^ 1u],
                     [&](Index v, Index& out) {
                       const common::Split r = common::split_step(a.waiting, a.in_pile, v, bucket, a.width);
                       if (r.step == common::SplitStep::Taken) {
                         a.flags[v] = 1;
                         ++taken;
                       }
                       if (r.step != common::SplitStep::Kept) return false;
                       kept_min = min(kept_min, static_cast<unsigned long long>(r.bucket));
                       out = v;
                       return true;
                     });
  block_fold_into<false>(taken, &s->taken);
  block_fold_into<true>(kept_min, &s->kept_min);
}

// The last block's end of the step: the state for the next superstep; the step counters get the
// bucket and the bucketed vertices.
__device__ __forceinline__ void finish_step(NearFarState* s, NearFarState& done, std::uint64_t bucket,
                                            unsigned long long* bucket_inverted, unsigned long long* bucketed) {
  const common::NearFarOutcome out = common::finish_near_far_step(done, bucket);
  *s = done;
  *bucket_inverted = ~static_cast<unsigned long long>(out.bucket);  // (none: 0)
  *bucketed = out.bucketed_vertices;
}

// Step 2. Near: the candidates in their lowest bucket are flagged, the others join the pile. Far:
// the pile is split at its lower bound. The last block ends the step, or, when a far split took
// nothing, leaves it to split_again_kernel.
template <class Index>
__global__ void __launch_bounds__(kBlock)
    take_bucket_kernel(const NearFarArrays<Index> a, unsigned long long* __restrict__ bucket_inverted,
                       unsigned long long* __restrict__ bucketed, const int* __restrict__ halted) {
  await_previous_kernel();
  if (batch_halted(halted)) return;
  NearFarState* s = a.state;
  if (common::takes_near(*s)) {
    const unsigned side = s->pile_side;
    const std::uint64_t bucket = s->near_min;
    unsigned long long taken = 0, pile_low = kNoPriority;
    for_each_in_rounds(a.candidates, s->candidates, a.pile(side), &s->pile_count[side], [&](Index v, Index& out) {
      const common::NearStep r = common::near_step(a.waiting, a.in_pile, v, bucket, a.width);
      if (r.taken) {
        a.flags[v] = 1;
        ++taken;
        return false;
      }
      pile_low = min(pile_low, static_cast<unsigned long long>(r.bucket));
      out = v;
      return r.piled;
    });
    block_fold_into<false>(taken, &s->taken);
    block_fold_into<true>(pile_low, &s->pile_low);
  } else {
    split_pile(a, common::far_bucket(*s));
  }
  if (!last_block(&s->blocks_done) || threadIdx.x != 0) return;
  NearFarState done = load_through_l2(s);
  done.blocks_done = 0;
  std::uint64_t bucket = done.near_min;
  if (!common::takes_near(done)) {
    bucket = common::far_bucket(done);
    common::end_split(done);
    if (common::split_again(done)) {
      done.retry = 1;
      *s = done;
      return;
    }
  }
  finish_step(s, done, bucket, bucket_inverted, bucketed);
}

// Step 3, only after a far split that took nothing: the pile (the rest of that split) is split at
// its exact lowest bucket, and the last block ends the step.
template <class Index>
__global__ void __launch_bounds__(kBlock)
    split_again_kernel(const NearFarArrays<Index> a, unsigned long long* __restrict__ bucket_inverted,
                       unsigned long long* __restrict__ bucketed, const int* __restrict__ halted) {
  await_previous_kernel();
  if (batch_halted(halted) || a.state->retry == 0) return;
  NearFarState* s = a.state;
  split_pile(a, s->pile_low);
  if (!last_block(&s->blocks_done) || threadIdx.x != 0) return;
  NearFarState done = load_through_l2(s);
  done.blocks_done = 0;
  const std::uint64_t bucket = done.pile_low;
  common::end_split(done);
  finish_step(s, done, bucket, bucket_inverted, bucketed);
}

}  // namespace medusa::gpu::kernels
