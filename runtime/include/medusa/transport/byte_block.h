// Values and arrays in a block of bytes, for what rank 0 sends the other ranks at set-up (layouts,
// fields, the plan's header). Every rank runs the same build, so values go as they are in memory;
// an array goes as its length, then its elements. Reading past a block's end throws medusa::Error
// naming `what` the block is.
#pragma once

#include <medusa/error.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace medusa::transport {

template <class T>
void put(std::vector<std::byte>& out, const T* data, std::size_t count) {
  static_assert(std::is_trivially_copyable_v<T>);
  const std::size_t at = out.size();
  out.resize(at + count * sizeof(T));
  if (count != 0) std::memcpy(out.data() + at, data, count * sizeof(T));
}
template <class T>
void put_array(std::vector<std::byte>& out, const std::vector<T>& values) {
  const auto n = static_cast<std::uint64_t>(values.size());
  put(out, &n, 1);
  put(out, values.data(), values.size());
}

// The next `bytes` bytes of `in` from `at`, which moves past them.
inline const std::byte* take(const std::vector<std::byte>& in, std::size_t& at, std::size_t bytes,
                             const char* what) {
  MEDUSA_REQUIRE(bytes <= in.size() - std::min(at, in.size()),
                 std::string(what) + ": the block of " + std::to_string(in.size()) + " bytes ends early");
  const std::byte* p = in.data() + at;
  at += bytes;
  return p;
}
template <class T>
T get(const std::vector<std::byte>& in, std::size_t& at, const char* what) {
  T value;
  std::memcpy(&value, take(in, at, sizeof(T), what), sizeof(T));
  return value;
}
template <class T>
std::vector<T> get_array(const std::vector<std::byte>& in, std::size_t& at, const char* what) {
  const auto n = get<std::uint64_t>(in, at, what);
  MEDUSA_REQUIRE(n <= (in.size() - at) / sizeof(T),
                 std::string(what) + ": an array of " + std::to_string(n) + " elements is longer than its block");
  std::vector<T> values(n);
  if (n != 0) std::memcpy(values.data(), take(in, at, n * sizeof(T), what), n * sizeof(T));
  return values;
}

}  // namespace medusa::transport
