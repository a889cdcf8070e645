// The binary cache: a fixed little-endian header, the format name, then the arrays.
//
//   offset  size  field
//        0     8  magic "MEDUSAEL"
//        8     4  version (1)
//       12     4  flags: bit 0 weighted, bit 1 symmetric
//       16     8  vertex count (< 2^32)
//       24     8  edge count
//       32     8  source size in bytes   } identify the text file a cache was made from;
//       40     8  source mtime in ns     } both 0 for a plain binary file
//       48     4  format name length (<= 64)
//       52     4  reserved (0)
//       56     8  checksum of the arrays
//       64        format name, zero-padded to a multiple of 8
//                 src  u32[E], dst u32[E], zero padding to 8, weight f64[E] if weighted
#include "format_readers.h"

#include <medusa/error.h>
#include <medusa/populated_vector.h>

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>

namespace medusa::io::detail {
namespace {

constexpr char kMagic[8] = {'M', 'E', 'D', 'U', 'S', 'A', 'E', 'L'};
constexpr std::uint32_t kVersion = 1;
constexpr std::uint32_t kWeighted = 1, kSymmetric = 2;
constexpr std::uint32_t kMaxFormatName = 64;
constexpr std::size_t kHeaderSize = 64;
// Arrays are read in slices so that a corrupt edge count cannot make us allocate it all at once.
constexpr std::size_t kSliceBytes = 64u << 20;

struct Header {
  std::uint32_t version = kVersion;
  std::uint32_t flags = 0;
  std::uint64_t vertex_count = 0;
  std::uint64_t edge_count = 0;
  SourceStamp stamp;
  std::uint32_t format_length = 0;
  std::uint64_t checksum = 0;
};

template <class T>
void put(unsigned char* at, T value) {
  std::memcpy(at, &value, sizeof value);  // the format is little-endian, as are our targets
}
template <class T>
T get(const unsigned char* at) {
  T value;
  std::memcpy(&value, at, sizeof value);
  return value;
}

// Word-at-a-time multiplicative hash: catches flipped bits and swapped arrays, fast enough to be
// negligible next to the disk.
class Checksum {
 public:
  void add(const void* data, std::size_t bytes) {
    const unsigned char* p = static_cast<const unsigned char*>(data);
    std::size_t words = bytes / 8;
    for (std::size_t i = 0; i < words; ++i) mix(get<std::uint64_t>(p + 8 * i));
    std::uint64_t tail = 0;
    std::memcpy(&tail, p + 8 * words, bytes % 8);
    mix(tail ^ (bytes % 8));
  }
  std::uint64_t value() const { return state_; }

 private:
  void mix(std::uint64_t word) {
    state_ = (state_ ^ word) * 0x100000001B3ull;
    state_ ^= state_ >> 29;
  }
  std::uint64_t state_ = 0xCBF29CE484222325ull;
};

std::uint64_t checksum_of(const EdgeListData& data) {
  Checksum sum;
  sum.add(data.src.data(), data.src.size() * sizeof(VertexId));
  sum.add(data.dst.data(), data.dst.size() * sizeof(VertexId));
  sum.add(data.weight.data(), data.weight.size() * sizeof(double));
  return sum.value();
}

std::size_t padding_to_8(std::size_t bytes) { return (8 - bytes % 8) % 8; }

[[noreturn]] void fail(const std::string& name, const std::string& what) {
  throw ::medusa::Error(what, name.c_str(), 0);
}

// Reads exactly `bytes` bytes or reports where the file ended.
void read_exact(ByteSource& source, const std::string& name, void* destination, std::size_t bytes,
                const char* what) {
  char* out = static_cast<char*>(destination);
  std::size_t have = 0;
  while (have < bytes) {
    std::size_t got;
    try {
      got = source.read(out + have, bytes - have);
    } catch (const InputFailure& failure) {
      fail(name, failure.what());
    }
    if (got == 0) {
      fail(name, std::string("file ends inside the ") + what + " (expected " + std::to_string(bytes) +
                     " bytes, got " + std::to_string(have) + ")");
    }
    have += got;
  }
}

template <class T>
void read_array(ByteSource& source, const std::string& name, std::vector<T>& out, std::uint64_t count,
                const char* what) {
  out.clear();
  // The size was checked against the header when the source knows it; else grow slice by slice.
  if (source.remaining() != ByteSource::kUnknownSize) {
    out.reserve(count);
    populate_pages(out.data(), count * sizeof(T));
  }
  const std::uint64_t slice = kSliceBytes / sizeof(T);
  while (out.size() < count) {
    std::size_t start = out.size();
    std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(slice, count - start));
    out.resize(start + n);
    read_exact(source, name, out.data() + start, n * sizeof(T), what);
  }
}

Header parse_header(const unsigned char* bytes, const std::string& name) {
  if (std::memcmp(bytes, kMagic, sizeof kMagic) != 0) fail(name, "not a medusa binary graph (expected magic 'MEDUSAEL')");
  Header header;
  header.version = get<std::uint32_t>(bytes + 8);
  if (header.version != kVersion) {
    fail(name, "unsupported binary graph version (expected " + std::to_string(kVersion) + ", got " +
                   std::to_string(header.version) + ")");
  }
  header.flags = get<std::uint32_t>(bytes + 12);
  if (header.flags & ~(kWeighted | kSymmetric)) fail(name, "unknown flags in binary graph header (expected bits 0-1 only, got " + std::to_string(header.flags) + ")");
  header.vertex_count = get<std::uint64_t>(bytes + 16);
  if (header.vertex_count > kMaxVertexCount) {
    fail(name, "vertex count too large for 32-bit ids (expected at most " + std::to_string(kMaxVertexCount) + ", got " +
                   std::to_string(header.vertex_count) + ")");
  }
  header.edge_count = get<std::uint64_t>(bytes + 24);
  if (header.edge_count > (1ull << 40)) fail(name, "implausible edge count " + std::to_string(header.edge_count) + " (expected at most 2^40)");
  header.stamp.size = get<std::uint64_t>(bytes + 32);
  header.stamp.mtime_ns = get<std::int64_t>(bytes + 40);
  header.format_length = get<std::uint32_t>(bytes + 48);
  if (header.format_length > kMaxFormatName) {
    fail(name, "format name too long (expected at most " + std::to_string(kMaxFormatName) + " bytes, got " +
                   std::to_string(header.format_length) + ")");
  }
  if (get<std::uint32_t>(bytes + 52) != 0) fail(name, "reserved header field is not zero");
  header.checksum = get<std::uint64_t>(bytes + 56);
  return header;
}

}  // namespace

EdgeListData read_binary(ByteSource& source, const std::string& name, SourceStamp* stamp) {
  unsigned char bytes[kHeaderSize];
  read_exact(source, name, bytes, kHeaderSize, "header");
  Header header = parse_header(bytes, name);
  if (stamp) *stamp = header.stamp;

  EdgeListData data;
  std::string format(header.format_length + padding_to_8(header.format_length), '\0');
  read_exact(source, name, format.data(), format.size(), "format name");
  format.resize(header.format_length);
  data.format = format.empty() ? "binary" : format;
  data.vertex_count = static_cast<VertexId>(header.vertex_count);
  data.symmetric = header.flags & kSymmetric;
  const std::uint64_t edges = header.edge_count;
  const std::uint64_t id_bytes = edges * 2 * sizeof(VertexId);
  const std::uint64_t expected = id_bytes + ((header.flags & kWeighted) ? padding_to_8(id_bytes) + edges * sizeof(double) : 0);
  const std::uint64_t available = source.remaining();
  if (available != ByteSource::kUnknownSize && available != expected) {
    fail(name, std::string(available < expected ? "file is shorter" : "file is longer") +
                   " than its header says (expected " + std::to_string(expected) + " bytes of arrays, got " +
                   std::to_string(available) + ")");
  }
  read_array(source, name, data.src, edges, "source array");
  read_array(source, name, data.dst, edges, "target array");
  if (header.flags & kWeighted) {
    char pad[8];
    read_exact(source, name, pad, padding_to_8(edges * 2 * sizeof(VertexId)), "padding");
    read_array(source, name, data.weight, edges, "weight array");
  }
  char extra;
  std::size_t trailing;
  try {
    trailing = source.read(&extra, 1);
  } catch (const InputFailure& failure) {
    fail(name, failure.what());
  }
  if (trailing != 0) fail(name, "bytes after the last array (expected the file to end)");
  if (checksum_of(data) != header.checksum) fail(name, "checksum mismatch: the arrays are corrupt");

  // The first edge with an endpoint out of range, found in parallel.
  const auto n = static_cast<std::int64_t>(edges);
  std::int64_t first_bad = n;
#pragma omp parallel for schedule(static) reduction(min : first_bad)
  for (std::int64_t e = 0; e < n; ++e) {
    if ((data.src[e] >= header.vertex_count || data.dst[e] >= header.vertex_count) && e < first_bad) first_bad = e;
  }
  if (first_bad < n) {
    const auto e = static_cast<std::size_t>(first_bad);
    fail(name, "edge " + std::to_string(e) + " has an endpoint out of range (expected ids below " +
                   std::to_string(header.vertex_count) + ", got " + std::to_string(data.src[e]) + " -> " +
                   std::to_string(data.dst[e]) + ")");
  }
  for (double w : data.weight) {
    if (!(w == w)) fail(name, "NaN edge weight (expected numbers)");
  }
  return data;
}

bool read_binary_stamp(const std::string& path, SourceStamp& stamp) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) return false;
  unsigned char bytes[kHeaderSize];
  bool ok = std::fread(bytes, 1, kHeaderSize, file) == kHeaderSize;
  std::fclose(file);
  if (!ok) return false;
  try {
    stamp = parse_header(bytes, path).stamp;
  } catch (const ::medusa::Error&) {
    return false;
  }
  return true;
}

void write_binary_file(const std::string& path, const EdgeListData& data, const SourceStamp& stamp) {
  const std::uint64_t edges = data.src.size();
  if (data.dst.size() != edges || (!data.weight.empty() && data.weight.size() != edges)) {
    fail(path, "edge arrays differ in length; nothing written");
  }
  if (data.format.size() > kMaxFormatName) fail(path, "format name longer than 64 bytes; nothing written");
  unsigned char header[kHeaderSize] = {};
  std::memcpy(header, kMagic, sizeof kMagic);
  put<std::uint32_t>(header + 8, kVersion);
  put<std::uint32_t>(header + 12, (data.weight.empty() ? 0 : kWeighted) | (data.symmetric ? kSymmetric : 0));
  put<std::uint64_t>(header + 16, data.vertex_count);
  put<std::uint64_t>(header + 24, edges);
  put<std::uint64_t>(header + 32, stamp.size);
  put<std::int64_t>(header + 40, stamp.mtime_ns);
  put<std::uint32_t>(header + 48, static_cast<std::uint32_t>(data.format.size()));
  put<std::uint64_t>(header + 56, checksum_of(data));

  // Write beside the target and rename, so readers never see a half-written file.
  const std::string temporary = path + ".tmp" + std::to_string(::getpid());
  std::FILE* file = std::fopen(temporary.c_str(), "wb");
  if (!file) fail(path, std::string("cannot create: ") + std::strerror(errno));
  const char zeros[8] = {};
  bool ok = std::fwrite(header, 1, kHeaderSize, file) == kHeaderSize;
  ok = ok && std::fwrite(data.format.data(), 1, data.format.size(), file) == data.format.size();
  std::size_t pad = padding_to_8(data.format.size());
  ok = ok && std::fwrite(zeros, 1, pad, file) == pad;
  ok = ok && std::fwrite(data.src.data(), sizeof(VertexId), edges, file) == edges;
  ok = ok && std::fwrite(data.dst.data(), sizeof(VertexId), edges, file) == edges;
  if (!data.weight.empty()) {
    pad = padding_to_8(edges * 2 * sizeof(VertexId));
    ok = ok && std::fwrite(zeros, 1, pad, file) == pad;
    ok = ok && std::fwrite(data.weight.data(), sizeof(double), edges, file) == edges;
  }
  int saved_errno = errno;
  ok = (std::fclose(file) == 0) && ok;
  if (!ok) {
    std::remove(temporary.c_str());
    fail(path, std::string("write failed: ") + std::strerror(saved_errno ? saved_errno : errno));
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    saved_errno = errno;
    std::remove(temporary.c_str());
    fail(path, std::string("cannot rename the finished file into place: ") + std::strerror(saved_errno));
  }
}

}  // namespace medusa::io::detail
