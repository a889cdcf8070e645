// The last block of a kernel to finish its share, found by a counter the kernels that end a
// superstep keep in their state (BatchState, NearFarState: `blocks_done`).
#pragma once

#include <cuda_runtime.h>

namespace medusa::gpu::kernels {

// Called by every thread of every block after its share: true on thread 0 of the last block to get
// here, once every other block's writes are visible to it. `blocks_done` is back at 0 for the next
// such kernel.
__device__ inline bool is_last_block(unsigned* blocks_done) {
  __shared__ bool is_last;
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    is_last = atomicAdd(blocks_done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!is_last || threadIdx.x != 0) return false;
  *blocks_done = 0;
  __threadfence();
  return true;
}

}  // namespace medusa::gpu::kernels
