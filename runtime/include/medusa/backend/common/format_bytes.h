// Human-readable byte counts for reports and memory errors ("512 B", "1.5 KiB", "3.2 GiB").
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>

namespace medusa::common {

inline std::string format_bytes(std::size_t bytes) {
  static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024.0 && unit < 4) {
    value /= 1024.0;
    ++unit;
  }
  char buf[32];
  if (unit == 0) {
    std::snprintf(buf, sizeof buf, "%zu B", bytes);
  } else {
    std::snprintf(buf, sizeof buf, "%.1f %s", value, units[unit]);
  }
  return buf;
}

}  // namespace medusa::common
