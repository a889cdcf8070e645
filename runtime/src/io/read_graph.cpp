// Entry points: picks the format (extension, then content), reads through the cache if asked,
// and applies the edge options.
#include "byte_source.h"
#include "edge_sort.h"
#include "format_readers.h"
#include "line_fields.h"
#include "line_reader.h"

#include <medusa/io/graph_file.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <numeric>
#include <sys/stat.h>

namespace medusa::io {
namespace {

using detail::ByteSource;

bool ends_with(const std::string& text, const char* suffix) {
  std::size_t n = std::strlen(suffix);
  if (text.size() < n) return false;
  for (std::size_t i = 0; i < n; ++i) {
    if (std::tolower(static_cast<unsigned char>(text[text.size() - n + i])) != suffix[i]) return false;
  }
  return true;
}

std::string strip_compression_suffix(const std::string& path) {
  if (ends_with(path, ".xz") || ends_with(path, ".gz")) return path.substr(0, path.size() - 3);
  return path;
}

bool starts_with_nocase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) != std::tolower(static_cast<unsigned char>(prefix[i]))) {
      return false;
    }
  }
  return true;
}

// Guesses the format from the first bytes of the (decompressed) content.
Format sniff(std::string_view head, const std::string& name) {
  if (head.empty()) throw ::medusa::Error("empty file (cannot tell its format)", name.c_str(), 1);
  if (head.substr(0, 8) == "MEDUSAEL") return Format::Binary;
  std::size_t line_number = 0;
  while (!head.empty()) {
    std::size_t end = head.find('\n');
    std::string_view line = head.substr(0, end);
    ++line_number;
    head = end == std::string_view::npos ? std::string_view() : head.substr(end + 1);
    if (line_number == 1 && starts_with_nocase(line, "%%MatrixMarket")) return Format::MatrixMarket;
    std::size_t start = 0;
    while (start < line.size() && detail::is_blank(line[start])) ++start;
    line.remove_prefix(start);
    if (line.empty()) continue;
    if (line[0] == '#') return Format::Snap;
    if (line[0] == 'c' && (line.size() == 1 || detail::is_blank(line[1]))) return Format::Dimacs;
    if (line[0] == 'p' && line.size() > 1 && detail::is_blank(line[1])) return Format::Dimacs;
    break;
  }
  throw ::medusa::Error(
      "cannot tell the file's format (expected a known extension .mtx/.txt/.el/.snap/.gr/.graph/.medusa-bin, "
      "a %%MatrixMarket header, DIMACS 'c'/'p sp' lines or SNAP '#' comments); name the format in ReadOptions "
      "or with --format",
      name.c_str(), 0);
}

EdgeListData parse(std::unique_ptr<ByteSource> raw, const std::string& name, Format format,
                   detail::SourceStamp* stamp) {
  std::unique_ptr<ByteSource> source = detail::decompressing(std::move(raw));
  if (format == Format::Auto) {
    std::string head(64 << 10, '\0');
    std::size_t have = 0;
    try {
      while (have < head.size()) {
        std::size_t got = source->read(&head[have], head.size() - have);
        if (got == 0) break;
        have += got;
      }
    } catch (const detail::InputFailure& failure) {
      throw ::medusa::Error(failure.what(), name.c_str(), 1);
    }
    head.resize(have);
    format = sniff(head, name);
    source = detail::prefixed_source(std::move(head), std::move(source));
  }
  if (format == Format::Binary) return detail::read_binary(*source, name, stamp);
  detail::LineReader reader(std::move(source), name);
  switch (format) {
    case Format::MatrixMarket: return detail::read_matrix_market(reader);
    case Format::Snap: return detail::read_snap(reader);
    case Format::Dimacs: return detail::read_dimacs(reader);
    case Format::Metis: return detail::read_metis(reader);
    default: break;
  }
  throw ::medusa::Error("unknown format value", name.c_str(), 0);
}

detail::SourceStamp stamp_of(const std::string& path) {
  struct stat info;
  if (::stat(path.c_str(), &info) != 0) {
    throw ::medusa::Error(std::string("cannot open: ") + std::strerror(errno), path.c_str(), 0);
  }
  detail::SourceStamp stamp;
  stamp.size = static_cast<std::uint64_t>(info.st_size);
  stamp.mtime_ns = static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1000000000 + info.st_mtim.tv_nsec;
  return stamp;
}

std::string cache_path_for(const std::string& path, const std::string& cache_dir) {
  if (cache_dir.empty()) return path + ".medusa-bin";
  std::size_t slash = path.find_last_of('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  return cache_dir + (cache_dir.back() == '/' ? "" : "/") + base + ".medusa-bin";
}

EdgeListData read_through_cache(const std::string& path, Format format, const std::string& cache_dir) {
  const detail::SourceStamp stamp = stamp_of(path);
  const std::string cache = cache_path_for(path, cache_dir);
  detail::SourceStamp cached;
  if (detail::read_binary_stamp(cache, cached) && cached == stamp) {
    try {
      auto source = detail::open_file_source(cache);
      return detail::read_binary(*source, cache, nullptr);
    } catch (const ::medusa::Error&) {
      // A damaged cache is rebuilt from the source below.
    }
  }
  EdgeListData data = parse(detail::open_file_source(path), path, format, nullptr);
  try {
    detail::write_binary_file(cache, data, stamp);
  } catch (const ::medusa::Error&) {
    // The cache only saves time (the folder may be read-only); the data itself is complete.
  }
  return data;
}

}  // namespace

Format format_from_extension(const std::string& path) {
  const std::string name = strip_compression_suffix(path);
  if (ends_with(name, ".mtx")) return Format::MatrixMarket;
  if (ends_with(name, ".txt") || ends_with(name, ".el") || ends_with(name, ".snap")) return Format::Snap;
  if (ends_with(name, ".gr")) return Format::Dimacs;
  if (ends_with(name, ".graph")) return Format::Metis;
  if (ends_with(name, ".medusa-bin")) return Format::Binary;
  return Format::Auto;
}

const char* format_name(Format format) {
  switch (format) {
    case Format::Auto: return "auto";
    case Format::MatrixMarket: return "matrix-market";
    case Format::Snap: return "snap";
    case Format::Dimacs: return "dimacs";
    case Format::Metis: return "metis";
    case Format::Binary: return "binary";
  }
  return "unknown";
}

void apply_edge_options(EdgeListData& data, const ReadOptions& options) {
  const bool weighted = data.weighted();
  if (options.remove_self_loops) {
    std::size_t kept = 0;
    for (std::size_t e = 0; e < data.src.size(); ++e) {
      if (data.src[e] == data.dst[e]) continue;
      data.src[kept] = data.src[e];
      data.dst[kept] = data.dst[e];
      if (weighted) data.weight[kept] = data.weight[e];
      ++kept;
    }
    data.src.resize(kept);
    data.dst.resize(kept);
    if (weighted) data.weight.resize(kept);
  }
  if (options.symmetrize && !data.symmetric) {
    const std::size_t count = data.src.size();
    for (std::size_t e = 0; e < count; ++e) {
      if (data.src[e] == data.dst[e]) continue;  // a self loop is its own reverse
      data.src.push_back(data.dst[e]);
      data.dst.push_back(data.src[e]);
      if (weighted) data.weight.push_back(data.weight[e]);
    }
    data.symmetric = true;
  }
  if (options.remove_duplicates) {
    std::vector<std::uint64_t> keys(data.src.size());
    for (std::size_t e = 0; e < keys.size(); ++e) keys[e] = detail::edge_key(data.src[e], data.dst[e]);
    if (!weighted) {
      detail::sort_unique(keys);
    } else {
      // Keep the weight of each pair's first occurrence in input order.
      std::vector<std::size_t> order(keys.size());
      std::iota(order.begin(), order.end(), std::size_t{0});
      std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
      std::vector<double> weights;
      std::vector<std::uint64_t> unique_keys;
      for (std::size_t i = 0; i < order.size(); ++i) {
        if (i > 0 && keys[order[i]] == keys[order[i - 1]]) continue;
        unique_keys.push_back(keys[order[i]]);
        weights.push_back(data.weight[order[i]]);
      }
      keys.swap(unique_keys);
      data.weight.swap(weights);
    }
    data.src.resize(keys.size());
    data.dst.resize(keys.size());
    for (std::size_t e = 0; e < keys.size(); ++e) {
      data.src[e] = detail::key_src(keys[e]);
      data.dst[e] = detail::key_dst(keys[e]);
    }
  }
}

EdgeListData read_graph(const std::string& path, const ReadOptions& options) {
  Format format = options.format == Format::Auto ? format_from_extension(path) : options.format;
  EdgeListData data = options.use_cache && format != Format::Binary
                          ? read_through_cache(path, format, options.cache_dir)
                          : parse(detail::open_file_source(path), path, format, nullptr);
  apply_edge_options(data, options);
  return data;
}

EdgeListData read_graph_from_memory(const void* data, std::size_t size, const std::string& name,
                                    const ReadOptions& options) {
  EdgeListData graph = parse(detail::memory_source(data, size), name, options.format, nullptr);
  apply_edge_options(graph, options);
  return graph;
}

void write_binary(const std::string& path, const EdgeListData& data) {
  detail::write_binary_file(path, data, detail::SourceStamp{});
}

}  // namespace medusa::io
