// Writers for every format we read, chosen by the output's extension.
#include "format_readers.h"

#include <medusa/io/graph_file.h>

#include <charconv>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

namespace medusa::io {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw ::medusa::Error(what, path.c_str(), 0);
}

// Buffered text output with hand-rolled number formatting; checks every write.
class TextWriter {
 public:
  explicit TextWriter(const std::string& path) : path_(path) {
    file_ = std::fopen(path.c_str(), "wb");
    if (!file_) fail(path, std::string("cannot create: ") + std::strerror(errno));
    buffer_.reserve(kFlushAt + 256);
  }
  ~TextWriter() {
    if (file_) std::fclose(file_);
  }
  TextWriter& text(std::string_view s) {
    buffer_.append(s);
    return maybe_flush();
  }
  TextWriter& number(std::uint64_t value) {
    char digits[24];
    auto result = std::to_chars(digits, digits + sizeof digits, value);
    buffer_.append(digits, result.ptr);
    return maybe_flush();
  }
  TextWriter& real(double value) {
    char digits[40];
    auto result = std::to_chars(digits, digits + sizeof digits, value);  // shortest round-trip form
    buffer_.append(digits, result.ptr);
    return maybe_flush();
  }
  void close() {
    flush();
    int status = std::fclose(file_);
    file_ = nullptr;
    if (status != 0) fail(path_, std::string("write failed: ") + std::strerror(errno));
  }

 private:
  static constexpr std::size_t kFlushAt = 4 << 20;
  TextWriter& maybe_flush() {
    if (buffer_.size() >= kFlushAt) flush();
    return *this;
  }
  void flush() {
    if (!buffer_.empty() && std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) {
      fail(path_, std::string("write failed: ") + std::strerror(errno));
    }
    buffer_.clear();
  }
  std::string path_;
  std::FILE* file_ = nullptr;
  std::string buffer_;
};

bool all_integral(const std::vector<double>& weights) {
  for (double w : weights) {
    if (w != std::floor(w) || std::fabs(w) > 9.0e15) return false;
  }
  return true;
}

void write_matrix_market(const std::string& path, const EdgeListData& data) {
  const bool weighted = data.weighted();
  const bool integral = weighted && all_integral(data.weight);
  // A symmetric graph is written as "symmetric" (each pair once, from the lower triangle), which
  // halves the file; the reader restores both directions. The counts of edges below and above the
  // diagonal must agree, else the flag is wrong and we write every edge ("general").
  std::uint64_t lower = 0, upper = 0;
  for (std::size_t e = 0; e < data.src.size(); ++e) {
    lower += data.src[e] > data.dst[e];
    upper += data.src[e] < data.dst[e];
  }
  const bool as_symmetric = data.symmetric && lower == upper;
  const std::uint64_t entries = as_symmetric ? data.edge_count() - upper : data.edge_count();
  TextWriter out(path);
  out.text("%%MatrixMarket matrix coordinate ")
      .text(!weighted ? "pattern" : integral ? "integer" : "real")
      .text(as_symmetric ? " symmetric\n" : " general\n")
      .text("% written by medusa-io; entry (i, j) is the edge i -> j\n");
  out.number(data.vertex_count).text(" ").number(data.vertex_count).text(" ").number(entries).text("\n");
  for (std::size_t e = 0; e < data.src.size(); ++e) {
    if (as_symmetric && data.src[e] < data.dst[e]) continue;
    out.number(data.src[e] + std::uint64_t{1}).text(" ").number(data.dst[e] + std::uint64_t{1});
    if (weighted) {
      out.text(" ");
      if (integral) {
        if (data.weight[e] < 0) out.text("-").number(static_cast<std::uint64_t>(-data.weight[e]));
        else out.number(static_cast<std::uint64_t>(data.weight[e]));
      } else {
        out.real(data.weight[e]);
      }
    }
    out.text("\n");
  }
  out.close();
}

void write_snap(const std::string& path, const EdgeListData& data) {
  TextWriter out(path);
  out.text(data.symmetric ? "# Directed graph with every edge in both directions (symmetric)\n" : "# Directed graph\n");
  // The reader takes "Nodes:" as the vertex count, which keeps isolated vertices at the end.
  out.text("# Nodes: ").number(data.vertex_count).text(" Edges: ").number(data.edge_count()).text("\n");
  out.text(data.weighted() ? "# FromNodeId\tToNodeId\tWeight\n" : "# FromNodeId\tToNodeId\n");
  for (std::size_t e = 0; e < data.src.size(); ++e) {
    out.number(data.src[e]).text("\t").number(data.dst[e]);
    if (data.weighted()) out.text("\t").real(data.weight[e]);
    out.text("\n");
  }
  out.close();
}

void write_dimacs(const std::string& path, const EdgeListData& data) {
  for (double w : data.weight) {
    if (w < 0 || w != std::floor(w)) fail(path, "DIMACS arc lengths must be non-negative integers; nothing written");
  }
  TextWriter out(path);
  out.text("c written by medusa-io").text(data.weighted() ? "\n" : " (unit arc lengths: the graph has no weights)\n");
  out.text("p sp ").number(data.vertex_count).text(" ").number(data.edge_count()).text("\n");
  for (std::size_t e = 0; e < data.src.size(); ++e) {
    out.text("a ").number(data.src[e] + std::uint64_t{1}).text(" ").number(data.dst[e] + std::uint64_t{1}).text(" ");
    out.number(data.weighted() ? static_cast<std::uint64_t>(data.weight[e]) : 1).text("\n");
  }
  out.close();
}

void write_metis(const std::string& path, const EdgeListData& data) {
  if (!data.symmetric) fail(path, "METIS files hold undirected graphs: symmetrize the graph first; nothing written");
  for (double w : data.weight) {
    if (w < 1 || w != std::floor(w)) fail(path, "METIS edge weights must be positive integers; nothing written");
  }
  for (std::size_t e = 0; e < data.src.size(); ++e) {
    if (data.src[e] == data.dst[e]) fail(path, "METIS files cannot hold self loops: remove them first; nothing written");
  }
  if (data.edge_count() % 2 != 0) fail(path, "a symmetric graph must have an even number of directed edges; nothing written");
  // Group edges by source (counting sort keeps input order within a vertex).
  const std::size_t n = data.vertex_count;
  std::vector<EdgeIndex> offsets(n + 1, 0);
  for (VertexId s : data.src) ++offsets[s + 1];
  for (std::size_t v = 0; v < n; ++v) offsets[v + 1] += offsets[v];
  std::vector<EdgeIndex> order(data.src.size());
  std::vector<EdgeIndex> next(offsets.begin(), offsets.end() - 1);
  for (EdgeIndex e = 0; e < data.src.size(); ++e) order[next[data.src[e]]++] = e;

  TextWriter out(path);
  out.text("% written by medusa-io\n");
  out.number(n).text(" ").number(data.edge_count() / 2);
  if (data.weighted()) out.text(" 1");
  out.text("\n");
  for (std::size_t v = 0; v < n; ++v) {
    for (EdgeIndex i = offsets[v]; i < offsets[v + 1]; ++i) {
      if (i > offsets[v]) out.text(" ");
      out.number(data.dst[order[i]] + std::uint64_t{1});
      if (data.weighted()) out.text(" ").number(static_cast<std::uint64_t>(data.weight[order[i]]));
    }
    out.text("\n");
  }
  out.close();
}

}  // namespace

void write_graph(const std::string& path, const EdgeListData& data) {
  if (path.size() > 3 && (path.compare(path.size() - 3, 3, ".xz") == 0 || path.compare(path.size() - 3, 3, ".gz") == 0)) {
    fail(path, "compressed output is not supported (write the plain file and compress it with xz or gzip)");
  }
  switch (format_from_extension(path)) {
    case Format::Binary: return write_binary(path, data);
    case Format::MatrixMarket: return write_matrix_market(path, data);
    case Format::Snap: return write_snap(path, data);
    case Format::Dimacs: return write_dimacs(path, data);
    case Format::Metis: return write_metis(path, data);
    case Format::Auto: break;
  }
  fail(path, "unknown output format (expected an extension .medusa-bin, .mtx, .txt, .el, .snap, .gr or .graph)");
}

}  // namespace medusa::io
