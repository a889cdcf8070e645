// Formatting of CUDA errors for MEDUSA_CUDA_CHECK.
#include <medusa/backend/cuda/check.h>

#include <errno.h>  // program_invocation_short_name (glibc)

namespace medusa::gpu {
namespace {

// The running program's file name, or "" where the C library does not tell.
std::string program_name() {
#ifdef __GLIBC__
  return program_invocation_short_name;
#else
  return "";
#endif
}

// Users of medusa_add_program() already have a host build of the program; users who compile the
// translated sources themselves need the macro. The advice names both.
std::string host_backend_advice() {
  const std::string name = program_name();
  return "run the host-backend build of this program (medusa_add_program() makes it as " +
         (name.empty() ? std::string("<name>") : name) +
         "_host) or compile its translated .medusa.cpp with -DMEDUSA_BACKEND_HOST";
}

}  // namespace

std::string error_advice(cudaError_t err) {
  switch (err) {
    case cudaErrorNoDevice:
      return "No CUDA-capable GPU is visible to this process: check nvidia-smi and "
             "CUDA_VISIBLE_DEVICES; on a machine without a GPU, " +
             host_backend_advice() + ".";
    case cudaErrorInsufficientDriver:
      return "No usable NVIDIA driver. If this machine has no GPU, " + host_backend_advice() +
             "; if it has one, its driver is older than the CUDA runtime this program was built "
             "with (CUDA " +
             std::to_string(CUDART_VERSION / 1000) + "." +
             std::to_string(CUDART_VERSION % 1000 / 10) + "): update the driver.";
    case cudaErrorMemoryAllocation:
      return "The GPU ran out of memory: use a smaller graph, fewer fields, a smaller "
             "Config::messagesPerEdge, or more GPUs (Config::gpuCount).";
    case cudaErrorNoKernelImageForDevice:
    case cudaErrorUnsupportedPtxVersion:
      return "The program was not compiled for this GPU's architecture: rebuild with "
             "CMAKE_CUDA_ARCHITECTURES set to this GPU's compute capability (90 for H100/H200).";
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
      return "A kernel accessed memory out of bounds (often a functor indexing past "
             "edge_count() or a message list); run under compute-sanitizer to find it. The CUDA "
             "context is unusable after this error.";
    case cudaErrorLaunchOutOfResources:
      return "A functor uses too many registers for the launch configuration; simplify it.";
    default:
      return "";
  }
}

std::string format_cuda_error(cudaError_t err, const char* call) {
  std::string msg = std::string(call) + " failed: " + cudaGetErrorName(err) + " (" +
                    cudaGetErrorString(err) + ").";
  const std::string advice = error_advice(err);
  if (!advice.empty()) msg += " " + advice;
  return msg;
}

void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line) {
  throw Error(format_cuda_error(err, call), file, line);
}

}  // namespace medusa::gpu
