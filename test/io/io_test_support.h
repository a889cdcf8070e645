// Helpers shared by the [io] tests: temporary folders, files, compression, edge comparison.
#pragma once

#include <medusa/io/graph_file.h>

#include <lzma.h>
#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace medusa::io::test {

class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "medusa-io-test-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

inline void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + path);
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

inline std::string xz_compress(const std::string& text) {
  std::string out(lzma_stream_buffer_bound(text.size()), '\0');
  std::size_t written = 0;
  if (lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const std::uint8_t*>(text.data()),
                              text.size(), reinterpret_cast<std::uint8_t*>(out.data()), &written, out.size()) != LZMA_OK) {
    throw std::runtime_error("xz compression failed");
  }
  out.resize(written);
  return out;
}

inline std::string gzip_compress(const std::string& text) {
  z_stream stream{};
  if (deflateInit2(&stream, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) throw std::runtime_error("deflateInit2");
  std::string out(deflateBound(&stream, text.size()) + 32, '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  stream.avail_in = static_cast<uInt>(text.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  if (deflate(&stream, Z_FINISH) != Z_STREAM_END) throw std::runtime_error("deflate");
  out.resize(stream.total_out);
  deflateEnd(&stream);
  return out;
}

using WeightedEdge = std::tuple<VertexId, VertexId, double>;
using Edge = std::pair<VertexId, VertexId>;

inline std::vector<Edge> edges_of(const EdgeListData& data) {
  std::vector<Edge> edges;
  for (std::size_t e = 0; e < data.src.size(); ++e) edges.emplace_back(data.src[e], data.dst[e]);
  return edges;
}

inline std::vector<WeightedEdge> weighted_edges_of(const EdgeListData& data) {
  std::vector<WeightedEdge> edges;
  for (std::size_t e = 0; e < data.src.size(); ++e) edges.emplace_back(data.src[e], data.dst[e], data.weight.at(e));
  return edges;
}

inline EdgeListData parse_text(const std::string& text, Format format, const std::string& name = "input",
                               ReadOptions options = {}) {
  options.format = format;
  return read_graph_from_memory(text.data(), text.size(), name, options);
}

// The full text of the medusa::Error thrown by `action`, or "" if none was thrown.
template <class Action>
std::string error_of(Action&& action) {
  try {
    action();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

inline std::string parse_error(const std::string& text, Format format, const std::string& name) {
  return error_of([&] { parse_text(text, format, name); });
}

}  // namespace medusa::io::test
