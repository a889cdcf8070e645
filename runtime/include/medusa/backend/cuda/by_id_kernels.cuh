// The kernel of sends by vertex id among the partitions of one process, on the devices
// (engine/by_id_outbox.cuh): an owner's fold of every partition's outbox slots of its vertices.
// Another GPU's arrays are reached through peer access. (The mirrors of reads by id are filled by
// route_copy.cuh's kernel, scattering.)
#pragma once

#include <medusa/backend/cuda/kernels.cuh>
#include <medusa/by_id.h>
#include <medusa/types.h>

#include <cuda_runtime.h>

#include <cstdint>

namespace medusa::gpu::kernels {

// For each owned vertex l (global ID g): the flagged slots g of the senders' outboxes, folded in
// sender order, then into sent[l], which counts as received (received may be null); every slot read
// is emptied (identity, flag cleared). Each global ID has one owner, so no other kernel touches
// slot g meanwhile. The host path folds in the same order (common/by_id_exchange.h).
template <class Msg>
__global__ void __launch_bounds__(kBlock)
    deliver_sends_by_id_kernel(Msg* __restrict__ sent, std::uint8_t* __restrict__ received,
                               const VertexId* __restrict__ global_id, std::uint64_t owned, Msg* const* outboxes,
                               std::uint8_t* const* flags, std::uint32_t senders, int op, Msg identity) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t l = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; l < owned; l += stride) {
    const std::uint64_t g = global_id[l];
    bool any = false;
    Msg folded{};
    for (std::uint32_t j = 0; j < senders; ++j) {
      if (flags[j][g] == 0) continue;
      const Msg v = outboxes[j][g];
      folded = any ? medusa::detail::apply_builtin(op, folded, v) : v;
      any = true;
      outboxes[j][g] = identity;
      flags[j][g] = 0;
    }
    if (!any) continue;
    sent[l] = medusa::detail::apply_builtin(op, sent[l], folded);
    if (received != nullptr) received[l] = 1;
  }
}

}  // namespace medusa::gpu::kernels
