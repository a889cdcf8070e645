// One reader per file format. Each consumes the whole input and returns the edges as written
// (ReadOptions are applied afterwards by read_graph).
#pragma once

#include "byte_source.h"
#include "line_reader.h"

#include <medusa/io/graph_file.h>

#include <cstdint>
#include <string>

namespace medusa::io::detail {

EdgeListData read_matrix_market(LineReader& reader);
EdgeListData read_snap(LineReader& reader);
EdgeListData read_dimacs(LineReader& reader);
EdgeListData read_metis(LineReader& reader);

// Identifies the input a cache file was made from; zero for plain binary files.
struct SourceStamp {
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  bool operator==(const SourceStamp& o) const { return size == o.size && mtime_ns == o.mtime_ns; }
};

EdgeListData read_binary(ByteSource& source, const std::string& name, SourceStamp* stamp = nullptr);
// Reads only the header's stamp (to decide whether a cache is current); false if unreadable.
bool read_binary_stamp(const std::string& path, SourceStamp& stamp);
void write_binary_file(const std::string& path, const EdgeListData& data, const SourceStamp& stamp);

// Largest vertex count 32-bit ids allow (kInvalidVertex itself is reserved).
constexpr std::uint64_t kMaxVertexCount = 0xFFFFFFFFull;
// Declared counts may be wrong or hostile: never reserve more than this up front.
constexpr std::uint64_t kMaxReserve = 1ull << 22;

inline void reserve_edges(EdgeListData& data, std::uint64_t declared, bool weighted) {
  std::uint64_t n = declared < kMaxReserve ? declared : kMaxReserve;
  data.src.reserve(n);
  data.dst.reserve(n);
  if (weighted) data.weight.reserve(n);
}

}  // namespace medusa::io::detail
