// Checked CUDA calls. Every runtime call in the CUDA backend goes through MEDUSA_CUDA_CHECK, every
// kernel launch is followed by MEDUSA_CUDA_CHECK_LAUNCH(); a failure throws medusa::Error with the
// call site, the call text, the CUDA error name and description and what the user can do about it.
// Plain C++ (only the CUDA runtime API header), so host-only code and tests can use it too.
#pragma once

#include <medusa/error.h>

#include <cuda_runtime_api.h>

#include <string>

// (Namespace `gpu`, not `cuda`: user code says `using namespace medusa;`, and a `medusa::cuda`
// would then make CCCL's `::cuda` ambiguous in nvcc's generated host stubs.)
namespace medusa::gpu {

// What a user can do about an error, or "" when there is no general advice.
std::string error_advice(cudaError_t err);

// "<call> failed: <cudaErrorName> (<description>). <advice>"; exposed for tests.
std::string format_cuda_error(cudaError_t err, const char* call);

// Throws medusa::Error located at file:line. Out of line so the macro stays small at call sites.
[[noreturn]] void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line);

}  // namespace medusa::gpu

#define MEDUSA_CUDA_CHECK(call)                                                    \
  do {                                                                             \
    const cudaError_t medusa_cuda_err_ = (call);                                   \
    if (medusa_cuda_err_ != cudaSuccess)                                           \
      ::medusa::gpu::throw_cuda_error(medusa_cuda_err_, #call, __FILE__, __LINE__); \
  } while (0)

// After a <<<...>>> launch: reports bad launch configurations (and earlier asynchronous faults)
// at the launch site instead of at the next unrelated call.
#define MEDUSA_CUDA_CHECK_LAUNCH(kernel_name)                                          \
  do {                                                                                 \
    const cudaError_t medusa_cuda_err_ = cudaGetLastError();                           \
    if (medusa_cuda_err_ != cudaSuccess)                                               \
      ::medusa::gpu::throw_cuda_error(medusa_cuda_err_, "launch of " kernel_name, __FILE__, \
                                       __LINE__);                                      \
  } while (0)
