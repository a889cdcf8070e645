// CUDA error checking for the baselines: print file:line and the CUDA message, exit 1.
#pragma once

#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#define CHECK(call)                                                                              \
  do {                                                                                           \
    const cudaError_t err_ = (call);                                                             \
    if (err_ != cudaSuccess) {                                                                   \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_)); \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)

// Device buffer of n elements of T (freed at exit of scope).
template <class T>
struct DeviceArray {
  T* p = nullptr;
  std::size_t n = 0;
  explicit DeviceArray(std::size_t count) : n(count) { CHECK(cudaMalloc(&p, (count ? count : 1) * sizeof(T))); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() { cudaFree(p); }
  std::size_t bytes() const { return n * sizeof(T); }
  void upload(const T* host) { CHECK(cudaMemcpy(p, host, bytes(), cudaMemcpyHostToDevice)); }
  void download(T* host) const { CHECK(cudaMemcpy(host, p, bytes(), cudaMemcpyDeviceToHost)); }
};
