// populate_pages and copy_bytes_in_parallel (medusa/populated_vector.h).
#include <medusa/populated_vector.h>

#include <algorithm>
#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace medusa {

void populate_pages(void* data, std::size_t bytes) {
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

void copy_bytes_in_parallel(void* to, const void* from, std::size_t bytes) {
  constexpr std::size_t kSlice = std::size_t{8} << 20;
  const auto slices = static_cast<std::int64_t>((bytes + kSlice - 1) / kSlice);
  auto* out = static_cast<unsigned char*>(to);
  const auto* in = static_cast<const unsigned char*>(from);
#pragma omp parallel for schedule(static) if (slices > 1)
  for (std::int64_t s = 0; s < slices; ++s) {
    const std::size_t begin = static_cast<std::size_t>(s) * kSlice;
    std::memcpy(out + begin, in + begin, std::min(kSlice, bytes - begin));
  }
}

}  // namespace medusa
