// The Combiner's last step in a program that sends by vertex id (medusa/by_id.h): each vertex's
// combined value takes in what was sent to it by id.
#pragma once

#include <medusa/backend/cuda/check.h>
#include <medusa/backend/cuda/kernels.cuh>
#include <medusa/by_id.h>
#include <medusa/types.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

namespace medusa::gpu {
namespace kernels {

template <class Msg, class Op>
__global__ void __launch_bounds__(kBlock)
    fold_sent_by_id_kernel(Msg* __restrict__ combined, const Msg* __restrict__ sent, std::uint64_t n, Op op) {
  await_previous_kernel();
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t v = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < n; v += stride)
    combined[v] = op(combined[v], sent[v]);
}

// A partitioned run: the sends delivered to this partition (local IDs, each once), folded into its
// slots with the built-in operator `op`; the vertices count as received (flags may be null).
template <class Msg>
__global__ void __launch_bounds__(kBlock)
    fold_delivered_kernel(Msg* __restrict__ sent, std::uint8_t* __restrict__ received, const VertexId* __restrict__ ids,
                          const Msg* __restrict__ values, std::uint64_t n, int op) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    sent[ids[i]] = medusa::detail::apply_builtin(op, sent[ids[i]], values[i]);
    if (received != nullptr) received[ids[i]] = 1;
  }
}

}  // namespace kernels

// combined[v] = op(combined[v], sent[v]) for v < n, on `stream`.
template <class Msg, class Op>
void fold_sent_by_id(Msg* combined, const Msg* sent, std::uint64_t n, const Op& op, cudaStream_t stream) {
  if (n == 0) return;
  const unsigned grid = static_cast<unsigned>(std::min<std::uint64_t>((n + kernels::kBlock - 1) / kernels::kBlock, 65535));
  kernels::fold_sent_by_id_kernel<Msg, Op><<<grid, kernels::kBlock, 0, stream>>>(combined, sent, n, op);
  MEDUSA_CUDA_CHECK_LAUNCH("fold_sent_by_id_kernel");
}

}  // namespace medusa::gpu
