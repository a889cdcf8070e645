// Stream compaction of a flag array into an index queue (the host counterpart of cub::DeviceSelect).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace medusa::host {

// out = the indices i with flags[i] != 0, in increasing order. With clear_flags, the flags are
// zeroed on the way (frontier promotion reads and resets them in one pass).
template <class Index>
void compact_flags(std::uint8_t* flags, std::size_t n, std::vector<Index>& out, bool clear_flags) {
  out.clear();
  if (n == 0) return;
  int threads = 1;
#if defined(_OPENMP)
  if (n > 65536) threads = omp_get_max_threads();
#endif
  if (threads <= 1) {
    for (std::size_t i = 0; i < n; ++i) {
      if (flags[i]) out.push_back(static_cast<Index>(i));
    }
    if (clear_flags) std::memset(flags, 0, n);
    return;
  }
  // Two passes over equal static blocks: count per block, then write at the block's offset.
  std::vector<std::size_t> counts(static_cast<std::size_t>(threads) + 1, 0);
  const std::size_t block = (n + static_cast<std::size_t>(threads) - 1) / static_cast<std::size_t>(threads);
#pragma omp parallel num_threads(threads)
  {
#if defined(_OPENMP)
    const auto t = static_cast<std::size_t>(omp_get_thread_num());
#else
    const std::size_t t = 0;
#endif
    const std::size_t begin = t * block < n ? t * block : n;
    const std::size_t end = begin + block < n ? begin + block : n;
    std::size_t c = 0;
    for (std::size_t i = begin; i < end; ++i) c += flags[i] != 0;
    counts[t + 1] = c;
#pragma omp barrier
#pragma omp single
    {
      for (std::size_t k = 1; k < counts.size(); ++k) counts[k] += counts[k - 1];
      out.resize(counts.back());
    }
    std::size_t pos = counts[t];
    for (std::size_t i = begin; i < end; ++i) {
      if (flags[i]) out[pos++] = static_cast<Index>(i);
    }
    if (clear_flags && end > begin) std::memset(flags + begin, 0, end - begin);
  }
}

}  // namespace medusa::host
