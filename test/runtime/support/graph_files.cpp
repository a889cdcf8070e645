#include "graph_files.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>

namespace medusa_test {

namespace {
bool exists(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
}  // namespace

std::string graph_dir() {
#if defined(MEDUSA_TEST_GRAPH_DIR)
  const std::string dir = MEDUSA_TEST_GRAPH_DIR;
  if (exists(dir)) return dir;
#endif
  return "";
}

std::string shared_graph(const std::string& file) {
  const std::string dir = graph_dir();
  if (dir.empty()) return "";
  const std::string path = dir + "/" + file;
  return exists(path) ? path : "";
}

EdgeList read_matrix_market(const std::string& path) {
  const bool compressed = ends_with(path, ".xz");
  std::unique_ptr<FILE, int (*)(FILE*)> file(
      compressed ? ::popen(("xz -dc '" + path + "'").c_str(), "r") : std::fopen(path.c_str(), "r"),
      compressed ? ::pclose : std::fclose);
  if (!file) throw std::runtime_error("cannot open " + path);

  EdgeList g;
  bool symmetric = false, header_seen = false, size_seen = false;
  char buf[1024];
  while (std::fgets(buf, sizeof buf, file.get())) {
    std::string line(buf);
    if (!header_seen) {
      if (line.rfind("%%MatrixMarket", 0) != 0) throw std::runtime_error(path + ": not Matrix Market");
      symmetric = line.find("symmetric") != std::string::npos;
      header_seen = true;
      continue;
    }
    if (line.empty() || line[0] == '%' || line[0] == '\n') continue;
    if (!size_seen) {
      std::istringstream in(line);
      std::uint64_t rows = 0, cols = 0, nnz = 0;
      in >> rows >> cols >> nnz;
      g.vertex_count = static_cast<std::uint32_t>(rows > cols ? rows : cols);
      g.src.reserve(symmetric ? 2 * nnz : nnz);
      g.dst.reserve(symmetric ? 2 * nnz : nnz);
      size_seen = true;
      continue;
    }
    // strtoull: istringstream per line is several times slower on road-sized files.
    char* end = nullptr;
    const std::uint64_t a = std::strtoull(buf, &end, 10);
    const char* second = end;
    const std::uint64_t b = std::strtoull(second, &end, 10);
    if (end == second || a == 0 || b == 0 || a > g.vertex_count || b > g.vertex_count) {
      throw std::runtime_error(path + ": bad entry: " + line);
    }
    g.src.push_back(static_cast<std::uint32_t>(a - 1));
    g.dst.push_back(static_cast<std::uint32_t>(b - 1));
    if (symmetric && a != b) {
      g.src.push_back(static_cast<std::uint32_t>(b - 1));
      g.dst.push_back(static_cast<std::uint32_t>(a - 1));
    }
  }
  if (!size_seen) throw std::runtime_error(path + ": no size line");
  return g;
}

}  // namespace medusa_test
