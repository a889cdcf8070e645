// A fixed-size, value-initialised array for the host backend's buffers. Unlike std::vector it has
// no bool specialisation, so a bool message type still gets addressable slots.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>

namespace medusa::host {

template <class T>
class HostArray {
 public:
  // Value-initialised, in parallel for large arrays (each thread maps the pages it first writes).
  void allocate(std::size_t n) {
    if constexpr (std::is_trivially_default_constructible_v<T> && std::is_trivially_copy_assignable_v<T>) {
      data_.reset(n == 0 ? nullptr : new T[n]);
      size_ = n;
      fill(T{});
    } else {
      data_.reset(n == 0 ? nullptr : new T[n]());
      size_ = n;
    }
  }
  bool allocated() const { return data_ != nullptr; }
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * sizeof(T); }
  T& operator[](std::size_t i) { return data_[i]; }
  const T& operator[](std::size_t i) const { return data_[i]; }

  void fill(const T& value) {
    const auto n = static_cast<std::int64_t>(size_);
    T* d = data_.get();
#pragma omp parallel for schedule(static) if (n > 65536)
    for (std::int64_t i = 0; i < n; ++i) d[i] = value;
  }

 private:
  std::unique_ptr<T[]> data_;
  std::size_t size_ = 0;
};

}  // namespace medusa::host
