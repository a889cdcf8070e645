// Growing the big arrays of set-up (edge lists, CSR, partition layouts) with their memory mapped
// by every thread. A fresh allocation's pages fault in one at a time on first touch, and
// std::vector touches them all in one thread when it value-initialises: on graphs of hundreds of
// millions of edges that serial first touch was a large part of set-up.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace medusa {

// Asks the kernel to map the pages of [data, data + bytes) now, in slices over the OpenMP threads
// (Linux 5.14+ MADV_POPULATE_WRITE). Contents are unchanged. Where the kernel lacks it, nothing
// happens and the pages fault in when first written, as without the call.
inline void populate_pages(void* data, std::size_t bytes) {
#if defined(__linux__)
  constexpr int kPopulateWrite = 23;  // MADV_POPULATE_WRITE (older headers lack the name)
  constexpr std::uintptr_t kPage = 4096, kSlice = std::uintptr_t{32} << 20;
  constexpr std::size_t kWorthIt = std::size_t{64} << 20;
  if (data == nullptr || bytes < kWorthIt) return;
  const std::uintptr_t begin = reinterpret_cast<std::uintptr_t>(data) & ~(kPage - 1);
  const std::uintptr_t end = reinterpret_cast<std::uintptr_t>(data) + bytes;
  const auto slices = static_cast<std::int64_t>((end - begin + kSlice - 1) / kSlice);
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t s = 0; s < slices; ++s) {
    const std::uintptr_t from = begin + static_cast<std::uintptr_t>(s) * kSlice;
    (void)::madvise(reinterpret_cast<void*>(from), std::min<std::uintptr_t>(kSlice, end - from), kPopulateWrite);
  }
#else
  (void)data;
  (void)bytes;
#endif
}

// v.resize(n) (new elements value-initialised) with the new storage's pages mapped in parallel
// first.
template <class T>
void resize_populated(std::vector<T>& v, std::size_t n) {
  static_assert(std::is_trivially_copyable_v<T>, "for arrays of plain values");
  if (n > v.capacity()) {
    std::vector<T> grown;
    grown.reserve(n);
    populate_pages(grown.data(), n * sizeof(T));
    grown.resize(v.size());
    if (!v.empty()) std::memcpy(grown.data(), v.data(), v.size() * sizeof(T));
    v.swap(grown);
  }
  v.resize(n);
}

// A copy of from[0, n), its pages mapped and its bytes copied in parallel.
template <class T>
std::vector<T> copy_populated(const T* from, std::size_t n) {
  std::vector<T> to;
  resize_populated(to, n);
  constexpr std::size_t kSlice = (std::size_t{8} << 20) / sizeof(T) + 1;
  const auto slices = static_cast<std::int64_t>((n + kSlice - 1) / kSlice);
#pragma omp parallel for schedule(static) if (slices > 1)
  for (std::int64_t s = 0; s < slices; ++s) {
    const std::size_t begin = static_cast<std::size_t>(s) * kSlice;
    std::memcpy(to.data() + begin, from + begin, std::min(kSlice, n - begin) * sizeof(T));
  }
  return to;
}
template <class T>
std::vector<T> copy_populated(const std::vector<T>& from) {
  return copy_populated(from.data(), from.size());
}

}  // namespace medusa
