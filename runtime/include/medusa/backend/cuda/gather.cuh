// Per-vertex folds over message slots, balanced by degree: the Combiner's segmented reduction and
// the pull-fused pass (common/pull_fusion.h) both fold each vertex's slots
// [offsets[v]*m, offsets[v+1]*m) and differ only in where a slot's value comes from (the Source).
//
// Vertices are binned once per partition by their slot count, so that a vertex with 100,000 slots
// does not serialize one warp while the rest of the GPU idles:
//   small  (<= 16 slots):    4 lanes per vertex, a scan over all vertices that skips the others
//   medium (<= 2048 slots):  one warp per vertex, from a list
//   heavy  (> 2048 slots):   cut into chunks of 4096 slots, one thread block per chunk; a second
//                            kernel folds each vertex's chunk results (a hub of 300,000 in-edges
//                            is 74 blocks, not one block that outlasts the rest of the pass)
// Operators need only be associative and commutative: folds carry a "has a value" flag instead of
// an identity element, and the InitMessageBuffer value is folded in last (out = op(init, acc)).
//
// Where a slot's value comes from: gather_sources.cuh; the bins: degree_bins.cuh.
#pragma once

#include <medusa/backend/cuda/buffer.h>
#include <medusa/backend/cuda/check.h>
#include <medusa/backend/cuda/combine.cuh>
#include <medusa/backend/cuda/degree_bins.cuh>
#include <medusa/backend/cuda/gather_sources.cuh>
#include <medusa/backend/cuda/kernels.cuh>
#include <medusa/types.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

namespace medusa::gpu {
namespace kernels {

template <class Msg, class Op>
__device__ __forceinline__ void fold_into(Msg& acc, bool& have, const Msg& x, const Op& op) {
  acc = have ? op(acc, x) : x;
  have = true;
}

// Folds src's slots first, first + stride, ... below end into acc, in that order. With Ahead = 4
// a lane reads four slots before folding them, four loads in flight instead of one: a warp over a
// 2,000-slot vertex is otherwise a chain of 64 dependent round trips, which bounds a pass whose
// few warps cannot hide it (ego-twitter). Where warps are plenty the extra registers cost more
// than they hide (Kronecker scale 22), so DegreeBins picks.
template <int Ahead, class Msg, class Op, class Source>
__device__ __forceinline__ void fold_strided(Msg& acc, bool& have, bool& sent, const Source& src, EdgeIndex first,
                                             EdgeIndex end, EdgeIndex stride, const Op& op) {
  EdgeIndex i = first;
  if constexpr (Ahead == 4) {
    for (; i + 3 * stride < end; i += 4 * stride) {
      const Msg x0 = src(i, sent), x1 = src(i + stride, sent), x2 = src(i + 2 * stride, sent),
                x3 = src(i + 3 * stride, sent);
      fold_into(acc, have, x0, op);
      fold_into(acc, have, x1, op);
      fold_into(acc, have, x2, op);
      fold_into(acc, have, x3, op);
    }
  } else {
    static_assert(Ahead == 1, "Ahead: 1 or 4 loads in flight per lane");
  }
  for (; i < end; i += stride) fold_into(acc, have, src(i, sent), op);
}

// G lanes per vertex. Vertices come from `list` (n of them) or are 0 .. n-1; with no list, those
// with more than max_slots slots are left to the other bins. `block` of `blocks` runs this (its
// kernel's blocks, or a share of gather_bins_kernel's).
template <int G, int Ahead, class Msg, class Op, class Source, class Then>
__device__ __forceinline__ void group_folds(const Source& src, const GatherOut<Msg>& o, const VertexId* list,
                                            std::uint64_t n, EdgeIndex max_slots, const Op& op, const Then& then,
                                            unsigned block, unsigned blocks) {
  static_assert(G >= 1 && G <= 32 && (G & (G - 1)) == 0, "G: a power of two up to 32");
  const unsigned sub = threadIdx.x & (G - 1);
  const std::uint64_t group = (static_cast<std::uint64_t>(block) * blockDim.x + threadIdx.x) / G;
  const std::uint64_t groups = static_cast<std::uint64_t>(blocks) * blockDim.x / G;
  // Loop bound per warp (groups never straddle warps), so every shuffle has its whole warp.
  const std::uint64_t warp_first = group - (threadIdx.x & 31u) / G;
  for (std::uint64_t base = warp_first; base < n; base += groups) {
    const std::uint64_t q = base + (threadIdx.x & 31u) / G;
    bool valid = q < n;
    VertexId v = 0;
    EdgeIndex begin = 0, end = 0;
    if (valid) {
      v = list != nullptr ? list[q] : static_cast<VertexId>(q);
      begin = o.offsets[v] * o.m;
      end = o.offsets[v + 1] * o.m;
      if (list == nullptr && end - begin > max_slots) valid = false, end = begin;
    }
    Msg acc = o.init;
    bool have = false, sent = false;
    if constexpr (stops_at_first_sent<Source>::value) {
      // Rounds of G slots, the same count for the whole group, so that it can vote after each.
      const unsigned group_mask = G == 32 ? 0xffffffffu : ((1u << G) - 1u) << ((threadIdx.x & 31u) & ~(G - 1u));
      for (EdgeIndex base = begin; base < end; base += G) {
        if (base + sub < end) fold_into(acc, have, src(base + sub, sent), op);
        if (__any_sync(group_mask, sent)) break;
      }
    } else {
      fold_strided<Ahead>(acc, have, sent, src, begin + sub, end, G, op);
    }
#pragma unroll
    for (int d = G / 2; d > 0; d >>= 1) {
      const Msg other = shfl_down_any(acc, static_cast<unsigned>(d), G);
      const bool other_has = __shfl_down_sync(0xffffffffu, have ? 1 : 0, d, G) != 0;
      sent = (__shfl_down_sync(0xffffffffu, sent ? 1 : 0, d, G) != 0) || sent;
      if (sub + d < static_cast<unsigned>(G) && other_has) fold_into(acc, have, other, op);
    }
    if (valid && sub == 0) {
      o.combined[v] = have ? op(o.init, acc) : o.init;
      if (o.received != nullptr) o.received[v] = sent ? 1 : 0;
      then(v);
    }
  }
}

template <int G, int Ahead, class Msg, class Op, class Source, class Then>
__global__ void __launch_bounds__(kBlock)
    gather_group_kernel(const __grid_constant__ Source src, const __grid_constant__ GatherOut<Msg> o,
                        const VertexId* __restrict__ list, std::uint64_t n, EdgeIndex max_slots, Op op,
                        const __grid_constant__ Then then) {
  await_previous_kernel();
  medusa::detail::bind_step_state(o.step_state);  // (Continue(), Halt(), Superstep())
  if (o.stopped_batch()) return;
  open_block_aggregates<Source, Then>();
  group_folds<G, Ahead>(src, o, list, n, max_slots, op, then, blockIdx.x, gridDim.x);
  close_block_aggregates<Source, Then>();
}

// Heavy vertex h's total from its chunks' partial results, in chunk order, into o; then then(v).
// `Fresh`: read what other blocks of this launch wrote (past this SM's L1).
template <bool Fresh, class Msg, class Op, class Then>
__device__ __forceinline__ void finish_heavy(const GatherOut<Msg>& o, const HeavyChunks<Msg>& b, std::uint64_t h,
                                             const Op& op, const Then& then) {
  Msg total = o.init;
  bool any = false, any_sent = false;
  for (std::uint32_t q = b.first_chunk[h]; q < b.first_chunk[h + 1]; ++q) {
    const std::uint8_t has = Fresh ? __ldcg(&b.partial_flags[2 * q]) : b.partial_flags[2 * q];
    const std::uint8_t sent = Fresh ? __ldcg(&b.partial_flags[2 * q + 1]) : b.partial_flags[2 * q + 1];
    any_sent = any_sent || sent != 0;
    if (has == 0) continue;
    Msg x;
    if constexpr (Fresh) {
      const volatile unsigned char* from = reinterpret_cast<const volatile unsigned char*>(b.partials + q);
      unsigned char bytes[sizeof(Msg)];
      for (std::size_t k = 0; k < sizeof(Msg); ++k) bytes[k] = from[k];
      std::memcpy(&x, bytes, sizeof(Msg));
    } else {
      x = b.partials[q];
    }
    fold_into(total, any, x, op);
  }
  const VertexId v = b.heavy[h];
  o.combined[v] = any ? op(o.init, total) : o.init;
  if (o.received != nullptr) o.received[v] = any_sent ? 1 : 0;
  then(v);
}

// Heavy vertices, first pass: one block of kBlock threads per chunk of kChunkSlots slots; the
// chunk's fold goes to partials[chunk] with its "has a value" and "sent" flags. With `Finish`, the
// block that completes a vertex's last chunk also folds its total (finish_heavy) and runs then(v):
// no second launch.
template <bool Finish, int Ahead, class Msg, class Op, class Source, class Then>
__device__ __forceinline__ void chunk_folds(const Source& src, const GatherOut<Msg>& o, const HeavyChunks<Msg>& b,
                                            const Op& op, const Then& then, unsigned block, unsigned blocks) {
  constexpr int kWarps = kBlock / 32;
  __shared__ alignas(Msg) unsigned char warp_acc[kWarps * sizeof(Msg)];
  __shared__ int warp_have[kWarps], warp_sent[kWarps];
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x / 32u;
  const VertexId* heavy = b.heavy;
  const std::uint32_t* owner = b.owner;
  const EdgeIndex* chunk_begin = b.chunk_begin;
  Msg* partials = b.partials;
  std::uint8_t* partial_flags = b.partial_flags;
  for (std::uint64_t q = block; q < b.chunks; q += blocks) {
    const VertexId v = heavy[owner[q]];
    const EdgeIndex begin = chunk_begin[q], vertex_end = o.offsets[v + 1] * o.m;
    const EdgeIndex end = begin + DegreeBins::kChunkSlots < vertex_end ? begin + DegreeBins::kChunkSlots : vertex_end;
    Msg acc = o.init;
    bool have = false, sent = false;
    if constexpr (stops_at_first_sent<Source>::value) {
      for (EdgeIndex base = begin; base < end; base += blockDim.x) {  // block-wide rounds and votes
        if (base + threadIdx.x < end) fold_into(acc, have, src(base + threadIdx.x, sent), op);
        if (__syncthreads_or(sent ? 1 : 0)) break;
      }
    } else {
      fold_strided<Ahead>(acc, have, sent, src, begin + threadIdx.x, end, blockDim.x, op);
    }
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) {
      const Msg other = shfl_down_any(acc, static_cast<unsigned>(d), 32);
      const bool other_has = __shfl_down_sync(0xffffffffu, have ? 1 : 0, d) != 0;
      sent = (__shfl_down_sync(0xffffffffu, sent ? 1 : 0, d) != 0) || sent;
      if (lane + d < 32u && other_has) fold_into(acc, have, other, op);
    }
    if (lane == 0) {
      std::memcpy(warp_acc + warp * sizeof(Msg), &acc, sizeof(Msg));
      warp_have[warp] = have;
      warp_sent[warp] = sent;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      Msg total = o.init;
      bool any = false, any_sent = false;
      for (int w = 0; w < kWarps; ++w) {
        any_sent = any_sent || warp_sent[w] != 0;
        if (!warp_have[w]) continue;
        Msg x;
        std::memcpy(&x, warp_acc + w * sizeof(Msg), sizeof(Msg));
        fold_into(total, any, x, op);
      }
      partials[q] = total;
      partial_flags[2 * q] = any ? 1 : 0;
      partial_flags[2 * q + 1] = any_sent ? 1 : 0;
      if constexpr (Finish) {  // (the last of a vertex's chunks to get here finishes it)
        const std::uint32_t h = owner[q];
        __threadfence();
        if (atomicAdd(&b.chunks_done[h], 1u) == b.first_chunk[h + 1] - b.first_chunk[h] - 1) {
          b.chunks_done[h] = 0;  // (for the next launch)
          __threadfence();
          finish_heavy<true>(o, b, h, op, then);
        }
      }
    }
    __syncthreads();  // the shared slots are reused by the next chunk
  }
}

template <int Ahead, class Msg, class Op, class Source>
__global__ void __launch_bounds__(kBlock)
    gather_chunk_kernel(const __grid_constant__ Source src, const __grid_constant__ GatherOut<Msg> o,
                        const __grid_constant__ HeavyChunks<Msg> b, Op op) {
  await_previous_kernel();
  medusa::detail::bind_step_state(o.step_state);  // (Continue(), Halt(), Superstep())
  if (o.stopped_batch()) return;
  open_block_aggregates<Source>();
  chunk_folds<false, Ahead>(src, o, b, op, NoVertexStep{}, blockIdx.x, gridDim.x);
  close_block_aggregates<Source>();
}

// Heavy vertices, second pass: a thread per vertex folds its chunks' partial results.
template <class Msg, class Op, class Then>
__global__ void __launch_bounds__(kBlock)
    gather_chunks_finish_kernel(const __grid_constant__ GatherOut<Msg> o, const __grid_constant__ HeavyChunks<Msg> b,
                                std::uint64_t n, Op op, const __grid_constant__ Then then) {
  await_previous_kernel();
  medusa::detail::bind_step_state(o.step_state);  // (Continue(), Halt(), Superstep())
  if (o.stopped_batch()) return;
  open_block_aggregates<Then>();
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t h = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; h < n;
       h += stride)
    finish_heavy<false>(o, b, h, op, then);
  close_block_aggregates<Then>();
}

// gather_bins_kernel's blocks per SM: a whole SM's threads (2,048 on sm_80 and sm_90). The VERTEX
// step that also computes the next message took 40 registers without the bound (6 blocks per SM)
// and 30 with it, without spills; without the bound the prefetch lost (docs/tuning.md,
// "Measurements behind the defaults").
inline constexpr int kBinsBlocksPerSm = 2048 / kBlock;

// Every bin in one launch, for graphs whose passes are too short to pay four launches in a chain
// (DegreeBins::one_launch): blocks [0, chunk_blocks) fold the heavy chunks, each vertex finished by
// the block of its last chunk; the next `medium_blocks` the medium bin with a warp each; the rest
// the small bin with Gs lanes a vertex. The longest blocks go first, as blocks start in order:
// last, ego-twitter's heavy chunks (16 slots a thread) ran after every other block had started
// (docs/tuning.md, "Measurements behind the defaults").
template <int Gs, int Ahead, class Msg, class Op, class Source, class Then>
__global__ void __launch_bounds__(kBlock, kBinsBlocksPerSm)
    gather_bins_kernel(const __grid_constant__ Source src, const __grid_constant__ GatherOut<Msg> o,
                       std::uint64_t vertices, const VertexId* __restrict__ medium, std::uint64_t medium_count,
                       const __grid_constant__ HeavyChunks<Msg> b, unsigned chunk_blocks, unsigned medium_blocks,
                       Op op, const __grid_constant__ Then then) {
  await_previous_kernel();
  medusa::detail::bind_step_state(o.step_state);  // (Continue(), Halt(), Superstep())
  if (o.stopped_batch()) return;
  open_block_aggregates<Source, Then>();
  const unsigned block = blockIdx.x;
  if (block < chunk_blocks) {
    chunk_folds<true, Ahead>(src, o, b, op, then, block, chunk_blocks);
  } else if (block < chunk_blocks + medium_blocks) {
    group_folds<32, Ahead>(src, o, medium, medium_count, 0, op, then, block - chunk_blocks, medium_blocks);
  } else {
    group_folds<Gs, 1>(src, o, nullptr, vertices, DegreeBins::kSmallSlots, op, then,
                       block - chunk_blocks - medium_blocks, gridDim.x - chunk_blocks - medium_blocks);
  }
  close_block_aggregates<Source, Then>();
}

}  // namespace kernels

// out[v] for every vertex of `bins`, then then(v): four launches on `stream` (small, medium,
// heavy chunks, heavy totals), or one (DegreeBins::one_launch).
template <class Msg, class Op, class Source, class Then = NoVertexStep>
void gather_binned(const Source& src, const GatherOut<Msg>& out, const DegreeBins& bins,
                   const Op& op, unsigned max_blocks, cudaStream_t stream, const Then& then = {}) {
  const auto grid = [&](std::uint64_t threads) {
    const std::uint64_t blocks = (threads + kernels::kBlock - 1) / kernels::kBlock;
    return static_cast<unsigned>(blocks < max_blocks ? (blocks == 0 ? 1 : blocks) : max_blocks);
  };
  if (bins.one_launch()) {  // (a small graph: few medium warps, so four loads in flight)
    const auto one = [&](auto lanes) {
      constexpr int G = decltype(lanes)::value;
      const unsigned small = bins.vertices() != 0 ? grid(bins.vertices() * G) : 0;
      const unsigned medium = bins.medium_count() != 0 ? grid(bins.medium_count() * 32) : 0;
      const unsigned chunks =
          static_cast<unsigned>(bins.chunk_count() < max_blocks ? bins.chunk_count() : max_blocks);
      if (small + medium + chunks == 0) return;  // (no vertices)
      launch_kernel<kernels::gather_bins_kernel<G, 4, Msg, Op, Source, Then>>(
          small + medium + chunks, kernels::kBlock, stream, src, out, bins.vertices(), bins.medium(),
          bins.medium_count(), bins.heavy_chunks<Msg>(), chunks, medium, op, then);
      MEDUSA_CUDA_CHECK_LAUNCH("gather_bins_kernel");
    };
    if (bins.small_lanes() == 1) one(std::integral_constant<int, 1>{});
    else one(std::integral_constant<int, 4>{});
    return;
  }
  const auto small_bin = [&](auto lanes) {
    constexpr int G = decltype(lanes)::value;
    launch_kernel<kernels::gather_group_kernel<G, 1, Msg, Op, Source, Then>>(
        grid(bins.vertices() * G), kernels::kBlock, stream, src, out, nullptr, bins.vertices(),
        DegreeBins::kSmallSlots, op, then);
    MEDUSA_CUDA_CHECK_LAUNCH("gather_group_kernel (small-degree bin)");
  };
  if (bins.vertices() != 0 && bins.small_lanes() == 1) small_bin(std::integral_constant<int, 1>{});
  else if (bins.vertices() != 0) small_bin(std::integral_constant<int, 4>{});
  const auto long_bins = [&](auto ahead) {
    constexpr int A = decltype(ahead)::value;
    if (bins.medium_count() != 0) {
      launch_kernel<kernels::gather_group_kernel<32, A, Msg, Op, Source, Then>>(
          grid(bins.medium_count() * 32), kernels::kBlock, stream, src, out, bins.medium(), bins.medium_count(), 0,
          op, then);
      MEDUSA_CUDA_CHECK_LAUNCH("gather_group_kernel<32> (medium-degree bin)");
    }
    if (bins.heavy_count() != 0) {
      const unsigned blocks = static_cast<unsigned>(bins.chunk_count() < max_blocks ? bins.chunk_count() : max_blocks);
      const HeavyChunks<Msg> heavy = bins.heavy_chunks<Msg>();
      launch_kernel<kernels::gather_chunk_kernel<A, Msg, Op, Source>>(blocks, kernels::kBlock, stream, src, out,
                                                                      heavy, op);
      MEDUSA_CUDA_CHECK_LAUNCH("gather_chunk_kernel (high-degree bin)");
      launch_kernel<kernels::gather_chunks_finish_kernel<Msg, Op, Then>>(
          grid(bins.heavy_count()), kernels::kBlock, stream, out, heavy, bins.heavy_count(), op, then);
      MEDUSA_CUDA_CHECK_LAUNCH("gather_chunks_finish_kernel (high-degree bin)");
    }
  };
  if (bins.loads_ahead()) long_bins(std::integral_constant<int, 4>{});
  else long_bins(std::integral_constant<int, 1>{});
}

// The same with G lanes for every vertex (MEDUSA_COMBINER=group4|warp: one strategy for all).
template <int G, class Msg, class Op, class Source, class Then = NoVertexStep>
void gather_uniform(const Source& src, const GatherOut<Msg>& out, std::uint64_t vertices,
                    const Op& op, unsigned max_blocks, cudaStream_t stream, const Then& then = {}) {
  if (vertices == 0) return;
  const std::uint64_t blocks = (vertices * G + kernels::kBlock - 1) / kernels::kBlock;
  const unsigned grid = static_cast<unsigned>(blocks < max_blocks ? blocks : max_blocks);
  launch_kernel<kernels::gather_group_kernel<G, 1, Msg, Op, Source, Then>>(grid, kernels::kBlock, stream, src, out,
                                                                            nullptr, vertices, ~EdgeIndex{0}, op, then);
  MEDUSA_CUDA_CHECK_LAUNCH("gather_group_kernel");
}

}  // namespace medusa::gpu
