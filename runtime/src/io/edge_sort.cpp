#include "edge_sort.h"

#include <algorithm>
#if defined(_OPENMP) && defined(__GLIBCXX__)
#include <parallel/algorithm>
#define MEDUSA_PARALLEL_SORT 1
#endif

namespace medusa::io::detail {

void sort_keys(std::vector<std::uint64_t>& keys) {
#ifdef MEDUSA_PARALLEL_SORT
  // Keys are plain integers, so any correct sort gives the same result whatever the thread count.
  __gnu_parallel::sort(keys.begin(), keys.end());
#else
  std::sort(keys.begin(), keys.end());
#endif
}

void sort_unique(std::vector<std::uint64_t>& keys) {
  sort_keys(keys);
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
}

}  // namespace medusa::io::detail
