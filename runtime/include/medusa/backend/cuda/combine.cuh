// Combiner(): a segmented reduction over the message buffer. Segment v is
// [in_offsets[v]*m, in_offsets[v+1]*m); the graph-aware buffer already groups every vertex's
// messages, so no sort or grouping pass precedes the reduction.
//
// Two implementations, chosen per session from the average segment length (see
// choose_combiner()):
//  * cub::DeviceSegmentedReduce, one thread block per segment: best for long segments;
//  * a group of G lanes of one warp per segment (G = 4 or 32): CUB's block per segment leaves
//    most threads idle when vertices have tens of messages (the kron/social graphs) or a few
//    (road graphs).
// Both need the operator to be associative and commutative (as CUB's reductions do).
#pragma once

#include <medusa/backend/cuda/check.h>
#include <medusa/backend/cuda/kernels.cuh>
#include <medusa/types.h>

#include <cub/device/device_segmented_reduce.cuh>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace medusa::gpu {

enum class CombinerStrategy { Group4, Warp, CubBlock };

inline const char* combiner_strategy_name(CombinerStrategy s) {
  switch (s) {
    case CombinerStrategy::Group4: return "4 lanes per vertex";
    case CombinerStrategy::Warp: return "one warp per vertex";
    case CombinerStrategy::CubBlock: return "cub::DeviceSegmentedReduce (one block per vertex)";
  }
  return "unknown";
}

// From the average number of message slots per vertex; MEDUSA_COMBINER=group4|warp|cub in the
// environment overrides (for benchmarking and for testing every path).
inline CombinerStrategy choose_combiner(std::uint64_t vertices, std::uint64_t slots) {
  if (const char* env = std::getenv("MEDUSA_COMBINER")) {
    if (std::strcmp(env, "group4") == 0) return CombinerStrategy::Group4;
    if (std::strcmp(env, "warp") == 0) return CombinerStrategy::Warp;
    if (std::strcmp(env, "cub") == 0) return CombinerStrategy::CubBlock;
  }
  const double avg = vertices == 0 ? 0.0 : static_cast<double>(slots) / static_cast<double>(vertices);
  if (avg <= 8.0) return CombinerStrategy::Group4;
  if (avg <= 1024.0) return CombinerStrategy::Warp;
  return CombinerStrategy::CubBlock;
}

namespace kernels {

// __shfl_down_sync for any trivially copyable T, 4 bytes at a time (the built-in overloads cover
// only arithmetic types).
template <class T>
__device__ __forceinline__ T shfl_down_any(const T& v, unsigned delta, int width) {
  constexpr int kWords = static_cast<int>((sizeof(T) + 3) / 4);
  int w[kWords];
  std::memcpy(w, &v, sizeof(T));
#pragma unroll
  for (int k = 0; k < kWords; ++k) w[k] = __shfl_down_sync(0xffffffffu, w[k], delta, width);
  T r;
  std::memcpy(&r, w, sizeof(T));
  return r;
}

// out[v] = init op (the slots of segment v), one group of G lanes per segment. The group
// reduction carries a "has a value" flag instead of needing an identity element.
template <int G, class Msg, class Op>
__global__ void __launch_bounds__(kBlock)
    group_segmented_reduce_kernel(const Msg* __restrict__ in, Msg* __restrict__ out,
                                  const EdgeIndex* __restrict__ offsets, std::uint64_t segments,
                                  std::uint32_t m, Op op, Msg init) {
  static_assert(G >= 1 && G <= 32 && (G & (G - 1)) == 0, "G: a power of two up to 32");
  const unsigned sub = threadIdx.x & (G - 1);
  const std::uint64_t group = (static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / G;
  const std::uint64_t groups = static_cast<std::uint64_t>(gridDim.x) * blockDim.x / G;
  // The bound is per group, and groups never straddle warps, so every shuffle has its whole warp
  // (a warp's groups may differ in trip count only when `segments` is not a multiple of 32/G;
  // hence the loop runs to the warp's last group).
  const std::uint64_t warp_first = group - (threadIdx.x & 31u) / G;
  for (std::uint64_t base = warp_first; base < segments; base += groups) {
    const std::uint64_t v = base + (threadIdx.x & 31u) / G;
    const bool valid = v < segments;
    EdgeIndex begin = 0, end = 0;
    if (valid) {
      begin = offsets[v] * m;
      end = offsets[v + 1] * m;
    }
    Msg acc = init;
    bool have = false;
    for (EdgeIndex i = begin + sub; i < end; i += G) {
      const Msg x = in[i];
      acc = have ? op(acc, x) : x;
      have = true;
    }
#pragma unroll
    for (int o = G / 2; o > 0; o >>= 1) {
      const Msg other = shfl_down_any(acc, static_cast<unsigned>(o), G);
      const bool other_has = __shfl_down_sync(0xffffffffu, have ? 1 : 0, o, G) != 0;
      if (sub + o < static_cast<unsigned>(G) && other_has) {
        acc = have ? op(acc, other) : other;
        have = true;
      }
    }
    if (valid && sub == 0) out[v] = have ? op(init, acc) : init;
  }
}

}  // namespace kernels

// Bytes of CUB temporary storage one reduction with Op over `segments` segments needs
// (host-only query; nothing is launched or allocated).
template <class Msg, class Op>
std::size_t segmented_reduce_temp_bytes(std::uint64_t segments, const Op& op) {
  if (segments == 0) return 0;
  std::size_t bytes = 0;
  MEDUSA_CUDA_CHECK(cub::DeviceSegmentedReduce::Reduce(
      nullptr, bytes, static_cast<const Msg*>(nullptr), static_cast<Msg*>(nullptr),
      static_cast<std::int64_t>(segments), static_cast<const EdgeIndex*>(nullptr),
      static_cast<const EdgeIndex*>(nullptr) + 1, op, Msg{}, cudaStream_t{}));
  return bytes;
}

// d_out[v] = init op d_in[offsets[v]] op ... op d_in[offsets[v+1]-1], for v < segments, with
// CUB. `d_offsets` are slot offsets (already multiplied by m).
template <class Msg, class Op>
void segmented_reduce(void* d_temp, std::size_t temp_bytes, const Msg* d_in, Msg* d_out,
                      std::uint64_t segments, const EdgeIndex* d_offsets, const Op& op,
                      const Msg& init, cudaStream_t stream) {
  if (segments == 0) return;
  MEDUSA_CUDA_CHECK(cub::DeviceSegmentedReduce::Reduce(
      d_temp, temp_bytes, d_in, d_out, static_cast<std::int64_t>(segments), d_offsets,
      d_offsets + 1, op, init, stream));
}

// The same with G lanes per segment; `d_offsets` are in_offsets (vertex offsets), scaled by m
// in the kernel, so no scaled copy is needed.
template <int G, class Msg, class Op>
void group_segmented_reduce(const Msg* d_in, Msg* d_out, std::uint64_t segments,
                            const EdgeIndex* d_offsets, std::uint32_t m, const Op& op,
                            const Msg& init, unsigned max_blocks, cudaStream_t stream) {
  if (segments == 0) return;
  const std::uint64_t threads = segments * G;
  const std::uint64_t blocks = (threads + kernels::kBlock - 1) / kernels::kBlock;
  const unsigned grid = static_cast<unsigned>(blocks < max_blocks ? blocks : max_blocks);
  kernels::group_segmented_reduce_kernel<G, Msg, Op>
      <<<grid, kernels::kBlock, 0, stream>>>(d_in, d_out, d_offsets, segments, m, op, init);
  MEDUSA_CUDA_CHECK_LAUNCH("group_segmented_reduce_kernel (Combiner)");
}

}  // namespace medusa::gpu
