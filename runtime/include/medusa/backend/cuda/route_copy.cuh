// One kernel for every array a replica route moves (fields and SetActive flags): element i of each
// array is read at the owner's local ID index[i] and written at position i of its destination,
// which is either the route's pack (the staged copies follow) or, on one GPU, the target's replica
// range itself (no copy follows). One launch per route instead of one per array, plus one copy.
// Scattered the other way (element i written at index[i]), the same kernel fills the whole-graph
// mirrors of reads by id from each owner's values (engine/by_id_outbox.cuh).
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

namespace medusa::gpu {
namespace kernels {

// The arrays of one launch (passed by value: a kernel argument).
struct RouteArrays {
  static constexpr int kMax = 8;
  const std::byte* from[kMax];  // the owner's arrays, by owner-local ID
  std::byte* to[kMax];          // by position in the route
  std::uint32_t size[kMax];     // element bytes: 1, 2, 4, 8 or 16
  int count = 0;
};

template <std::size_t N>
__device__ __forceinline__ void copy_element(std::byte* to, const std::byte* from) {
  *reinterpret_cast<Bytes<N>*>(to) = *reinterpret_cast<const Bytes<N>*>(from);
}

// Element `to_at` of array k of `a` = element `from_at` of its source, for every array.
__device__ __forceinline__ void copy_elements(const RouteArrays& a, std::uint64_t to_at, std::uint64_t from_at) {
  for (int k = 0; k < a.count; ++k) {
    const std::uint32_t s = a.size[k];
    std::byte* to = a.to[k] + to_at * s;
    const std::byte* from = a.from[k] + from_at * s;
    switch (s) {
      case 1: copy_element<1>(to, from); break;
      case 2: copy_element<2>(to, from); break;
      case 4: copy_element<4>(to, from); break;
      case 8: copy_element<8>(to, from); break;
      default: copy_element<16>(to, from); break;
    }
  }
}

// kScatter false: element i from index[i] (a route's gather); true: element i to index[i].
template <class Index, bool kScatter>
__global__ void __launch_bounds__(kBlock)
    route_arrays_kernel(RouteArrays a, const Index* __restrict__ index, std::uint64_t n) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    if constexpr (kScatter) copy_elements(a, index[i], i);
    else copy_elements(a, i, index[i]);
  }
}

}  // namespace kernels

// Element sizes the kernel copies (copy_elements).
inline bool route_copies_size(std::size_t size) {
  return size == 1 || size == 2 || size == 4 || size == 8 || size == 16;
}

// Collects the arrays of one route for route_arrays_kernel on `s`; launch() issues them (more than
// RouteArrays::kMax arrays take several launches). Gathers (to[i] = from[index[i]]) unless
// `scatter` (to[index[i]] = from[i]), on at most `max_blocks` blocks.
class RouteCopy {
 public:
  RouteCopy(const VertexId* index, std::size_t n, cudaStream_t s, bool scatter = false, unsigned max_blocks = 4096)
      : index_(index), n_(n), s_(s), scatter_(scatter), max_blocks_(max_blocks) {}

  void add(std::byte* to, const std::byte* from, std::size_t size) {
    if (!route_copies_size(size))
      MEDUSA_THROW("replica exchange: vertex fields of " + std::to_string(size) +
                   " bytes are not supported yet (1, 2, 4, 8 or 16)");
    if (a_.count == kernels::RouteArrays::kMax) launch();
    a_.to[a_.count] = to;
    a_.from[a_.count] = from;
    a_.size[a_.count] = static_cast<std::uint32_t>(size);
    ++a_.count;
  }
  void launch() {
    if (a_.count != 0 && n_ != 0) {
      const unsigned grid = grid_for(n_, max_blocks_);
      if (scatter_) {
        kernels::route_arrays_kernel<VertexId, true><<<grid, kernels::kBlock, 0, s_>>>(a_, index_, n_);
        MEDUSA_CUDA_CHECK_LAUNCH("route_arrays_kernel (scatter into a by-id mirror)");
      } else {
        kernels::route_arrays_kernel<VertexId, false><<<grid, kernels::kBlock, 0, s_>>>(a_, index_, n_);
        MEDUSA_CUDA_CHECK_LAUNCH("route_arrays_kernel (replica exchange)");
      }
    }
    a_.count = 0;
  }

 private:
  const VertexId* index_;
  std::size_t n_;
  cudaStream_t s_;
  bool scatter_;
  unsigned max_blocks_;
  kernels::RouteArrays a_{};
};

}  // namespace medusa::gpu
