// The kernels of the sparse replica refresh (backend/common/sparse_refresh.h says what it does and
// when it is sound): the owner's diff against its shadow of the route, and the scatter of the
// changed replicas into the target's replica range (on another GPU through peer access).
#pragma once

#include <medusa/backend/cuda/check.h>
#include <medusa/backend/cuda/engine/core.cuh>
#include <medusa/backend/cuda/kernels.cuh>
#include <medusa/error.h>
#include <medusa/types.h>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace medusa::gpu {
namespace kernels {

template <std::size_t N>
__device__ __forceinline__ bool same_bytes(const Bytes<N>& a, const Bytes<N>& b) {
  bool same = true;
#pragma unroll
  for (std::size_t k = 0; k < N; ++k) same &= a.b[k] == b.b[k];
  return same;
}

// shadow[i] = src[index[i]] for i < n; the i whose value differed are counted in *count (zero
// before) and, unless `changed` is null (a dense copy follows: only the count is kept, for the
// next choice), appended to `changed`. Each warp reserves its slots with one atomic, so a warp's
// changed replicas stay in ascending order and the scatter's writes to them stay together.
template <std::size_t N>
__global__ void __launch_bounds__(kBlock)
    diff_into_shadow_kernel(Bytes<N>* __restrict__ shadow, const Bytes<N>* __restrict__ src,
                            const VertexId* __restrict__ index, std::uint64_t n, VertexId* __restrict__ changed,
                            unsigned* __restrict__ count) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  const unsigned lane = threadIdx.x % 32;
  // (every lane of a warp takes the same turns: the ballot needs them all)
  for (std::uint64_t first = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x; first < n; first += stride) {
    const std::uint64_t i = first + threadIdx.x;
    bool differs = false;
    if (i < n) {
      const Bytes<N> value = src[index[i]];
      differs = !same_bytes(value, shadow[i]);
      if (differs) shadow[i] = value;
    }
    const unsigned mask = __ballot_sync(0xffffffffu, differs);
    if (mask == 0) continue;
    const unsigned leader = __ffs(mask) - 1;
    unsigned base = 0;
    if (lane == leader) base = atomicAdd(count, static_cast<unsigned>(__popc(mask)));
    base = __shfl_sync(0xffffffffu, base, leader);
    if (differs && changed != nullptr) changed[base + __popc(mask & ((1u << lane) - 1))] = static_cast<VertexId>(i);
  }
}

// replicas[changed[j]] = shadow[changed[j]] for j < *count; adds the bytes written to *moved.
template <std::size_t N>
__global__ void __launch_bounds__(kBlock)
    scatter_changed_kernel(Bytes<N>* __restrict__ replicas, const Bytes<N>* __restrict__ shadow,
                           const VertexId* __restrict__ changed, const unsigned* __restrict__ count,
                           unsigned long long* __restrict__ moved) {
  const std::uint64_t n = *count;
  if (blockIdx.x == 0 && threadIdx.x == 0) atomicAdd(moved, static_cast<unsigned long long>(n * N));
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t j = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; j < n; j += stride) {
    const VertexId i = changed[j];
    replicas[i] = shadow[i];
  }
}

}  // namespace kernels

// Launches by field size (1, 2, 4, 8 or 16 bytes, as the dense gather).
template <class Launch>
void by_field_size(std::size_t size, const Launch& launch) {
  switch (size) {
    case 1: return launch(std::integral_constant<std::size_t, 1>{});
    case 2: return launch(std::integral_constant<std::size_t, 2>{});
    case 4: return launch(std::integral_constant<std::size_t, 4>{});
    case 8: return launch(std::integral_constant<std::size_t, 8>{});
    case 16: return launch(std::integral_constant<std::size_t, 16>{});
    default: break;
  }
  MEDUSA_THROW("replica exchange: vertex fields of " + std::to_string(size) +
               " bytes are not supported yet (1, 2, 4, 8 or 16)");
}

// The diff of one route's field on the owner's stream `s`; *count must be zero before, `changed`
// may be null (count only).
inline void diff_into_shadow(std::size_t size, std::byte* shadow, const std::byte* src, const VertexId* index,
                             std::size_t n, VertexId* changed, unsigned* count, cudaStream_t s) {
  if (n == 0) return;
  by_field_size(size, [&](auto N) {
    using T = kernels::Bytes<decltype(N)::value>;
    kernels::diff_into_shadow_kernel<decltype(N)::value><<<grid_for(n, 4096), kernels::kBlock, 0, s>>>(
        reinterpret_cast<T*>(shadow), reinterpret_cast<const T*>(src), index, n, changed, count);
    MEDUSA_CUDA_CHECK_LAUNCH("diff_into_shadow_kernel (sparse replica refresh)");
  });
}

// The scatter of one route's field on the owner's copy stream `s`, writing the replica range
// `replicas` (on the target's GPU: peer access is on). `expected`: a guess of *count that sizes
// the grid (any count is covered: the loop strides).
inline void scatter_changed(std::size_t size, std::byte* replicas, const std::byte* shadow, const VertexId* changed,
                            const unsigned* count, std::size_t expected, unsigned long long* moved, cudaStream_t s) {
  by_field_size(size, [&](auto N) {
    using T = kernels::Bytes<decltype(N)::value>;
    kernels::scatter_changed_kernel<decltype(N)::value><<<grid_for(expected, 1024), kernels::kBlock, 0, s>>>(
        reinterpret_cast<T*>(replicas), reinterpret_cast<const T*>(shadow), changed, count, moved);
    MEDUSA_CUDA_CHECK_LAUNCH("scatter_changed_kernel (sparse replica refresh)");
  });
}

}  // namespace medusa::gpu
