// A stream of bytes from a file or memory, decompressing xz and gzip transparently.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

namespace medusa::io::detail {

// Thrown by byte sources for damaged input; readers rethrow it as medusa::Error with file:line.
struct InputFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Fills up to `capacity` bytes; returns 0 only at the end of the stream.
  virtual std::size_t read(char* destination, std::size_t capacity) = 0;
  // Bytes left to read when known without reading them (plain files, memory), else kUnknownSize.
  static constexpr std::uint64_t kUnknownSize = ~std::uint64_t{0};
  virtual std::uint64_t remaining() const { return kUnknownSize; }
};

enum class Compression { None, Xz, Gzip };

// Opens a file; throws medusa::Error("path:0: ...") if it cannot be opened.
std::unique_ptr<ByteSource> open_file_source(const std::string& path);
// A view of caller-owned memory (it must outlive the source).
std::unique_ptr<ByteSource> memory_source(const void* data, std::size_t size);
// Returns `prefix`, then the rest of `inner` (to put back bytes read while peeking).
std::unique_ptr<ByteSource> prefixed_source(std::string prefix, std::unique_ptr<ByteSource> inner);
// Wraps `raw` in a decompressor when its first bytes are an xz or gzip magic number.
std::unique_ptr<ByteSource> decompressing(std::unique_ptr<ByteSource> raw,
                                          Compression* detected = nullptr);

}  // namespace medusa::io::detail
