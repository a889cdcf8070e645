// The GPU a Session runs on: selection, properties the launch code needs, free memory.
#pragma once

#include <cstddef>
#include <string>

namespace medusa::gpu {

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int sm_count = 0;
  int max_threads_per_sm = 0;
  int compute_major = 0, compute_minor = 0;
  std::size_t l2_bytes = 0;
  std::size_t total_bytes = 0;
  unsigned char uuid[16] = {};  // (the GPU memory ledger's key: backend/cuda/admission.h)
};

// Makes `ordinal` the current device and returns its properties. Throws medusa::Error with an
// actionable message when there is no GPU, the driver is too old, or the ordinal is out of range.
DeviceInfo select_device(int ordinal = 0);

// Free bytes on the current device (cudaMemGetInfo).
std::size_t free_device_bytes();

}  // namespace medusa::gpu
