// Formatting of CUDA errors for MEDUSA_CUDA_CHECK.
#include <medusa/backend/cuda/check.h>

namespace medusa::gpu {

std::string error_advice(cudaError_t err) {
  switch (err) {
    case cudaErrorNoDevice:
      return "No CUDA-capable GPU is visible to this process: check nvidia-smi, "
             "CUDA_VISIBLE_DEVICES, or build the program for the host backend "
             "(-DMEDUSA_BACKEND_HOST).";
    case cudaErrorInsufficientDriver:
      return "No usable NVIDIA driver: either none is installed (no GPU on this machine; build "
             "for the host backend with -DMEDUSA_BACKEND_HOST) or it is older than the CUDA "
             "runtime this program was built with (CUDA " +
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
