// Device selection with errors a user can act on.
#include <medusa/backend/cuda/check.h>
#include <medusa/backend/cuda/device.h>

#include <cuda_runtime_api.h>

namespace medusa::gpu {

DeviceInfo select_device(int ordinal) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err == cudaErrorNoDevice || (err == cudaSuccess && count == 0))
    MEDUSA_THROW("the CUDA backend found no GPU (cudaGetDeviceCount: " +
                 std::string(cudaGetErrorName(err)) + "). " + error_advice(cudaErrorNoDevice));
  if (err == cudaErrorInsufficientDriver)
    MEDUSA_THROW("the CUDA backend cannot start: " + error_advice(cudaErrorInsufficientDriver));
  MEDUSA_CUDA_CHECK(err);
  MEDUSA_REQUIRE(ordinal >= 0 && ordinal < count,
                 "GPU " + std::to_string(ordinal) + " requested but only " +
                     std::to_string(count) + " visible (check CUDA_VISIBLE_DEVICES)");
  MEDUSA_CUDA_CHECK(cudaSetDevice(ordinal));
  cudaDeviceProp p{};
  MEDUSA_CUDA_CHECK(cudaGetDeviceProperties(&p, ordinal));
  DeviceInfo d;
  d.ordinal = ordinal;
  d.name = p.name;
  d.sm_count = p.multiProcessorCount;
  d.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
  d.compute_major = p.major;
  d.compute_minor = p.minor;
  d.l2_bytes = static_cast<std::size_t>(p.l2CacheSize);
  d.total_bytes = p.totalGlobalMem;
  for (int i = 0; i < 16; ++i) d.uuid[i] = static_cast<unsigned char>(p.uuid.bytes[i]);
  return d;
}

std::size_t free_device_bytes() {
  std::size_t free_b = 0, total_b = 0;
  MEDUSA_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  return free_b;
}

}  // namespace medusa::gpu
