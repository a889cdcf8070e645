// Combiner(): a segmented reduction over the message buffer. Segment v is
// [in_offsets[v]*m, in_offsets[v+1]*m); the graph-aware buffer already groups every vertex's
// messages, so no sort or grouping pass precedes the reduction.
//
// The default folds each vertex with 4 lanes, a warp or block-sized chunks by its segment length
// (gather.cuh, CombinerStrategy::Auto). Tuning::combiner (MEDUSA_COMBINER) selects one of the
// others for benchmarking and for testing every path:
//  * cub::DeviceSegmentedReduce, one thread block per segment;
//  * a group of G lanes of one warp per segment (G = 4 or 32) for every vertex.
// Both need the operator to be associative and commutative (as CUB's reductions do).
#pragma once

#include <medusa/backend/cuda/check.h>
#include <medusa/backend/cuda/kernels.cuh>
#include <medusa/tuning.h>
#include <medusa/types.h>

#include <cub/device/device_segmented_reduce.cuh>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace medusa::gpu {

inline const char* combiner_strategy_name(CombinerStrategy s) {
  switch (s) {
    case CombinerStrategy::Auto:
      return "by degree: a thread or 4 lanes (<= 16 slots: a thread where they average <= 4) or a warp "
             "(<= 2048) per vertex, a thread block per 4096-slot chunk (more)";
    case CombinerStrategy::Group4: return "4 lanes per vertex";
    case CombinerStrategy::Warp: return "one warp per vertex";
    case CombinerStrategy::Cub: return "cub::DeviceSegmentedReduce (one block per vertex)";
  }
  return "unknown";
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

}  // namespace medusa::gpu
