// Growing the big arrays of set-up (edge lists, CSR, partition layouts) with their memory mapped
// by every thread. A fresh allocation's pages fault in one at a time on first touch, and
// std::vector touches them all in one thread when it value-initialises: on graphs of hundreds of
// millions of edges that serial first touch was a large part of set-up. The work is in the io
// library (src/io/populated_memory.cpp, built with OpenMP), so programs built by nvcc, whose host
// code has no OpenMP, get it too.
#pragma once

#include <cstddef>
#include <cstring>
#include <type_traits>
#include <vector>

namespace medusa {

// Asks the kernel to map the pages of [data, data + bytes) now, in slices over the OpenMP threads
// (Linux 5.14+ MADV_POPULATE_WRITE). Contents are unchanged. Where the kernel lacks it, or for
// less than 64 MiB, nothing happens and the pages fault in when first written.
void populate_pages(void* data, std::size_t bytes);

// memcpy over the OpenMP threads.
void copy_bytes_in_parallel(void* to, const void* from, std::size_t bytes);

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
  if (n != 0) copy_bytes_in_parallel(to.data(), from, n * sizeof(T));
  return to;
}
template <class T>
std::vector<T> copy_populated(const std::vector<T>& from) {
  return copy_populated(from.data(), from.size());
}

}  // namespace medusa
