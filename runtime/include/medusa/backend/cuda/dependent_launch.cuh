// Programmatic dependent launch (compute capability 9.0+): a kernel issued by launch_kernel is
// scheduled onto the SMs while the kernel before it on the stream still runs, and waits at its
// first statement until that kernel has ended and its writes are visible. A batched superstep of a
// road network is two kernels of a few microseconds each; without this, each also waits for its
// launch after the one before has ended.
//
// The contract: every kernel passed to launch_kernel begins with kernels::await_previous_kernel().
// A kernel that touched memory before it would race with the kernel before it.
#pragma once

#include <medusa/tuning.h>

#include <cuda_runtime.h>

#include <utility>

namespace medusa::gpu {

namespace kernels {

// Waits for the kernel before this one on the stream (its end and its writes), then lets the next
// kernel be scheduled. Wait first: a kernel that let the next one start before its own wait would
// let a whole chain of launches occupy the SMs, each waiting on the one before.
// A no-op for a kernel launched without the attribute, and below compute capability 9.0.
__device__ __forceinline__ void await_previous_kernel() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

}  // namespace kernels

// Launches Kernel<<<grid, block, 0, s>>>(args...), overlapping its start with the kernel before
// it when Kernel's code has the wait (compiled for compute capability 9.0+) and
// MEDUSA_DEPENDENT_LAUNCH is not `off` (read once per kernel; tuning.h). Check it with
// MEDUSA_CUDA_CHECK_LAUNCH, as a <<<...>>> launch.
template <auto Kernel, class... Args>
void launch_kernel(unsigned grid, unsigned block, cudaStream_t s, Args&&... args) {
  static const bool overlaps = [] {
    cudaFuncAttributes a{};
    const bool waits = cudaFuncGetAttributes(&a, Kernel) == cudaSuccess && a.ptxVersion >= 90;
    cudaGetLastError();  // (a failure here shows again at the launch)
    return waits && dependent_launch_from_env();
  }();
  cudaLaunchAttribute overlap{};
  overlap.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  overlap.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(grid);
  config.blockDim = dim3(block);
  config.stream = s;
  config.attrs = overlaps ? &overlap : nullptr;
  config.numAttrs = overlaps ? 1 : 0;
  cudaLaunchKernelEx(&config, Kernel, std::forward<Args>(args)...);
}

}  // namespace medusa::gpu
