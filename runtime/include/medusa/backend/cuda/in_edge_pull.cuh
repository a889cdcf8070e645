// The pulled pass of an in-edge ELIST functor and its Combiner() on the GPU (common/in_edge_pull.h):
// one thread per receiving vertex on sparse graphs, one warp per vertex (lanes striding over its
// out-edges, then folded in lane order) from kWarpPullDegree edges per vertex on.
#pragma once

#include <medusa/backend/common/in_edge_pull.h>
#include <medusa/backend/cuda/block_aggregates.cuh>
#include <medusa/backend/cuda/dependent_launch.cuh>
#include <medusa/device_api.h>

#include <cstdint>
#include <cstring>

namespace medusa::gpu {

inline constexpr std::uint64_t kWarpPullDegree = 8;  // average out-degree from which a warp pulls a vertex

namespace kernels {

template <class Msg, class VA, class EA, class Work, class Op>
__global__ void in_edge_pull_kernel(const __grid_constant__ KernelCtx<Msg> c, const __grid_constant__ VA va,
                                    const __grid_constant__ EA ea, const __grid_constant__ Work work, const Op op,
                                    const Msg fill, Msg* __restrict__ combined, std::uint8_t* __restrict__ received) {
  await_previous_kernel();
  medusa::detail::bind_step_state(c.step_state);  // (Continue(), Halt(), Superstep())
  open_block_aggregates<Work>();
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t u = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; u < c.vertex_count;
       u += stride) {
    bool sent = false;
    combined[u] = common::pull_in_edges_of(c, va, ea, work, op, fill, static_cast<VertexId>(u), sent);
    if (received != nullptr) received[u] = sent ? 1 : 0;
  }
  close_block_aggregates<Work>();
}

template <class Msg>
__device__ inline Msg shuffle_down_message(Msg x, unsigned int delta) {
  static_assert(sizeof(Msg) % sizeof(int) == 0, "in-edge pull: messages of whole words");
  int words[sizeof(Msg) / sizeof(int)];
  std::memcpy(words, &x, sizeof(Msg));
  for (int& w : words) w = __shfl_down_sync(0xffffffffu, w, delta);
  std::memcpy(&x, words, sizeof(Msg));
  return x;
}

// One warp per vertex u: lane l folds out-edges l, l + 32, ...; the lanes' folds are then folded
// pairwise (lane order), and u's value is op(fill, that).
template <class Msg, class VA, class EA, class Work, class Op>
__global__ void in_edge_pull_warp_kernel(const __grid_constant__ KernelCtx<Msg> c, const __grid_constant__ VA va,
                                         const __grid_constant__ EA ea, const __grid_constant__ Work work,
                                         const Op op, const Msg fill, Msg* __restrict__ combined,
                                         std::uint8_t* __restrict__ received) {
  await_previous_kernel();
  medusa::detail::bind_step_state(c.step_state);  // (Continue(), Halt(), Superstep())
  open_block_aggregates<Work>();
  const unsigned int lane = threadIdx.x % 32u;
  const std::uint64_t warps = static_cast<std::uint64_t>(gridDim.x) * blockDim.x / 32u;
  for (std::uint64_t u = (static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32u;
       u < c.vertex_count; u += warps) {
    Msg acc = fill;
    bool has = false, sent = false;
    for (EdgeIndex e = c.out_offsets[u] + lane; e < c.out_offsets[u + 1]; e += 32) {
      const VertexId w = c.out_dst[e];
      const Msg x = common::fold_sends(c, fill, sent, [&](const KernelCtx<Msg>& local) {
        work(local, va, ea, w, e, static_cast<VertexId>(u));
      });
      acc = has ? op(acc, x) : x;
      has = true;
    }
    for (unsigned int delta = 1; delta < 32u; delta *= 2) {
      const Msg other = shuffle_down_message(acc, delta);
      const bool other_has = __shfl_down_sync(0xffffffffu, has ? 1 : 0, delta) != 0 && lane + delta < 32u;
      if (lane % (2 * delta) == 0 && other_has) acc = has ? op(acc, other) : other, has = true;
    }
    const bool any_sent = __any_sync(0xffffffffu, sent);
    if (lane == 0) {
      combined[u] = has ? op(fill, acc) : fill;
      if (received != nullptr) received[u] = any_sent ? 1 : 0;
    }
  }
  close_block_aggregates<Work>();
}

}  // namespace kernels
}  // namespace medusa::gpu
