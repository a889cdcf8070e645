// The pulled pass of an in-edge ELIST functor and its Combiner() on the GPU (common/in_edge_pull.h):
// one thread per receiving vertex.
#pragma once

#include <medusa/backend/common/in_edge_pull.h>
#include <medusa/backend/cuda/dependent_launch.cuh>
#include <medusa/device_api.h>

#include <cstdint>

namespace medusa::gpu::kernels {

template <class Msg, class VA, class EA, class Work, class Op>
__global__ void in_edge_pull_kernel(const __grid_constant__ KernelCtx<Msg> c, const __grid_constant__ VA va,
                                    const __grid_constant__ EA ea, const __grid_constant__ Work work, const Op op, const Msg fill, Msg* __restrict__ combined,
                                    std::uint8_t* __restrict__ received) {
  await_previous_kernel();
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t u = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; u < c.vertex_count;
       u += stride) {
    bool sent = false;
    combined[u] = common::pull_in_edges_of(c, va, ea, work, op, fill, static_cast<VertexId>(u), sent);
    if (received != nullptr) received[u] = sent ? 1 : 0;
  }
}

}  // namespace medusa::gpu::kernels
