// RAII owners for device memory, pinned host memory and streams. Move-only; freeing never throws
// (errors on release are ignored: the context may already be gone at exit).
#pragma once

#include <medusa/backend/cuda/check.h>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

namespace medusa::gpu {

// count elements of T in device memory; `data()` is a device pointer (d_ in callers' names).
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) { allocate(count); }
  ~DeviceBuffer() { release(); }
  DeviceBuffer(DeviceBuffer&& o) noexcept : d_(std::exchange(o.d_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      release();
      d_ = std::exchange(o.d_, nullptr);
      n_ = std::exchange(o.n_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  void allocate(std::size_t count) {
    release();
    if (count == 0) return;
    MEDUSA_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&d_), count * sizeof(T)));
    n_ = count;
  }
  T* data() const { return d_; }
  std::size_t size() const { return n_; }
  std::size_t bytes() const { return n_ * sizeof(T); }

  void upload(const T* host, std::size_t count, cudaStream_t s) {
    if (count == 0) return;
    MEDUSA_REQUIRE(count <= n_, "internal: upload larger than the device buffer");
    MEDUSA_CUDA_CHECK(cudaMemcpyAsync(d_, host, count * sizeof(T), cudaMemcpyHostToDevice, s));
  }
  void download(T* host, std::size_t count, cudaStream_t s) const {
    if (count == 0) return;
    MEDUSA_REQUIRE(count <= n_, "internal: download larger than the device buffer");
    MEDUSA_CUDA_CHECK(cudaMemcpyAsync(host, d_, count * sizeof(T), cudaMemcpyDeviceToHost, s));
  }
  void zero(cudaStream_t s) {
    if (n_ != 0) MEDUSA_CUDA_CHECK(cudaMemsetAsync(d_, 0, n_ * sizeof(T), s));
  }

 private:
  void release() noexcept {
    if (d_ != nullptr) cudaFree(d_);
    d_ = nullptr;
    n_ = 0;
  }
  T* d_ = nullptr;
  std::size_t n_ = 0;
};

// Page-locked host memory, so small per-superstep copies are truly asynchronous.
template <class T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::size_t count) {
    if (count == 0) return;
    MEDUSA_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&h_), count * sizeof(T)));
    n_ = count;
  }
  ~PinnedBuffer() {
    if (h_ != nullptr) cudaFreeHost(h_);
  }
  PinnedBuffer(PinnedBuffer&& o) noexcept : h_(std::exchange(o.h_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
    if (this != &o) {
      if (h_ != nullptr) cudaFreeHost(h_);
      h_ = std::exchange(o.h_, nullptr);
      n_ = std::exchange(o.n_, 0);
    }
    return *this;
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  T* data() const { return h_; }
  T& operator[](std::size_t i) const { return h_[i]; }

 private:
  T* h_ = nullptr;
  std::size_t n_ = 0;
};

// A non-blocking stream owned by one Session (no implicit sync with the legacy default stream).
class Stream {
 public:
  Stream() { MEDUSA_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~Stream() {
    if (s_ != nullptr) cudaStreamDestroy(s_);
  }
  Stream(Stream&& o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
  Stream& operator=(Stream&& o) noexcept {
    if (this != &o) {
      if (s_ != nullptr) cudaStreamDestroy(s_);
      s_ = std::exchange(o.s_, nullptr);
    }
    return *this;
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return s_; }
  void sync() const { MEDUSA_CUDA_CHECK(cudaStreamSynchronize(s_)); }

 private:
  cudaStream_t s_ = nullptr;
};

// A partition engine's stream: its own, or, for the partitions that share a GPU, the one they all
// use (while any of them lives). (It was needed while functors voted through one StepState per
// GPU; each partition now has its own, in its counters, so separate streams would be correct too:
// kept until measured.)
class EngineStream {
 public:
  EngineStream(bool shared, int ordinal) : s_(shared ? shared_on(ordinal) : std::make_shared<Stream>()) {}
  cudaStream_t get() const { return s_->get(); }
  void sync() const { s_->sync(); }

 private:
  static std::shared_ptr<Stream> shared_on(int ordinal) {
    static std::mutex mutex;
    static std::map<int, std::weak_ptr<Stream>> streams;
    const std::lock_guard<std::mutex> lock(mutex);
    std::shared_ptr<Stream> s = streams[ordinal].lock();
    if (s == nullptr) streams[ordinal] = s = std::make_shared<Stream>();  // (on the current device)
    return s;
  }
  std::shared_ptr<Stream> s_;
};

// An event created on the current device.
class Event {
 public:
  explicit Event(bool timing = false) {
    MEDUSA_CUDA_CHECK(cudaEventCreateWithFlags(&e_, timing ? cudaEventDefault : cudaEventDisableTiming));
  }
  ~Event() {
    if (e_) cudaEventDestroy(e_);
  }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  cudaEvent_t get() const { return e_; }

 private:
  cudaEvent_t e_ = nullptr;
};

}  // namespace medusa::gpu
