// Combiner(): one segmented reduction over the message buffer with CUB. Segment v is
// [in_offsets[v]*m, in_offsets[v+1]*m); the graph-aware buffer already groups every vertex's
// messages, so no sort or grouping pass precedes the reduction.
#pragma once

#include <medusa/backend/cuda/check.h>
#include <medusa/types.h>

#include <cub/device/device_segmented_reduce.cuh>

#include <cstddef>
#include <cstdint>

namespace medusa::gpu {

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

// d_out[v] = init op d_in[offsets[v]] op ... op d_in[offsets[v+1]-1], for v < segments.
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
