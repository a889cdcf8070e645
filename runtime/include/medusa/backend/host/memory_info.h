// How much memory the host has, for Init_Device_DS's "needed vs available" check.
#pragma once

#include <cstddef>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#endif

namespace medusa::host {

// Physical memory in bytes, or 0 when unknown.
inline std::size_t physical_memory_bytes() {
#if defined(_SC_PHYS_PAGES) && defined(_SC_PAGESIZE)
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page_size > 0) {
    return static_cast<std::size_t>(pages) * static_cast<std::size_t>(page_size);
  }
#endif
  return 0;
}

}  // namespace medusa::host
