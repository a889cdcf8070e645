// gpmetis-format partition files: one partition number per line, line i = vertex i. Reading goes
// through medusa_io's byte source and line reader (plain, .gz, .xz; file:line in every error).
#include <medusa/error.h>
#include <medusa/partition/assignment.h>

#include "../io/byte_source.h"
#include "../io/line_reader.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>

#include <unistd.h>

namespace medusa {

void save_partition(const std::string& path, const PartitionAssignment& a) {
  for (std::size_t v = 0; v < a.part_of.size(); ++v) {
    MEDUSA_REQUIRE(a.part_of[v] < a.parts, "save_partition: vertex " + std::to_string(v) + " is in part " +
                                               std::to_string(a.part_of[v]) + " of " + std::to_string(a.parts));
  }
  // Temporary name unique per process, in the target's folder so rename() stays atomic.
  const std::string temp = path + ".tmp." + std::to_string(static_cast<long>(::getpid()));
  std::FILE* file = std::fopen(temp.c_str(), "wb");
  if (!file) throw Error(std::string("cannot write partition file: ") + std::strerror(errno), path.c_str(), 0);
  std::string buffer;
  buffer.reserve(1 << 20);
  bool ok = true;
  char digits[16];
  for (std::uint32_t p : a.part_of) {
    int n = 0;
    do {
      digits[n++] = static_cast<char>('0' + p % 10);
      p /= 10;
    } while (p);
    while (n) buffer.push_back(digits[--n]);
    buffer.push_back('\n');
    if (buffer.size() >= (1 << 20) - 16) {
      ok = ok && std::fwrite(buffer.data(), 1, buffer.size(), file) == buffer.size();
      buffer.clear();
    }
  }
  ok = ok && std::fwrite(buffer.data(), 1, buffer.size(), file) == buffer.size();
  const int saved_errno = errno;
  ok = (std::fclose(file) == 0) && ok;
  if (!ok || std::rename(temp.c_str(), path.c_str()) != 0) {
    const std::string reason = std::strerror(ok ? errno : saved_errno);
    std::remove(temp.c_str());
    throw Error("cannot write partition file: " + reason, path.c_str(), 0);
  }
}

PartitionAssignment load_partition(const std::string& path, VertexId vertex_count, std::uint32_t parts) {
  if (parts == 0) throw Error("load_partition: the number of parts must be at least 1", path.c_str(), 0);
  PartitionAssignment a;
  a.parts = parts;
  a.method = "file " + path;
  a.part_of.reserve(vertex_count);
  try {
    io::detail::LineReader reader(io::detail::decompressing(io::detail::open_file_source(path)), path);
    std::string_view line;
    while (reader.next(line)) {
      // Surrounding blanks are tolerated; anything else must be one unsigned decimal number.
      std::size_t b = 0, e = line.size();
      while (b < e && (line[b] == ' ' || line[b] == '\t')) ++b;
      while (e > b && (line[e - 1] == ' ' || line[e - 1] == '\t')) --e;
      if (b == e) reader.fail("empty line; expected a partition number (0.." + std::to_string(parts - 1) + ")");
      std::uint64_t value = 0;
      for (std::size_t i = b; i < e; ++i) {
        const char c = line[i];
        if (c < '0' || c > '9')
          reader.fail("expected a partition number (0.." + std::to_string(parts - 1) + "), got " +
                      io::detail::quote(line.substr(b, e - b)));
        value = value * 10 + static_cast<std::uint64_t>(c - '0');
        if (value >= parts) {
          // Keep scanning for non-digits first so "12x" reads as malformed, not out of range.
          bool digits_only = true;
          for (std::size_t j = i + 1; j < e; ++j) digits_only = digits_only && line[j] >= '0' && line[j] <= '9';
          if (!digits_only)
            reader.fail("expected a partition number (0.." + std::to_string(parts - 1) + "), got " +
                        io::detail::quote(line.substr(b, e - b)));
          reader.fail("partition " + std::string(line.substr(b, e - b)) + " is out of range: the run has " +
                      std::to_string(parts) + " parts (0.." + std::to_string(parts - 1) + ")");
        }
      }
      if (a.part_of.size() == vertex_count)
        reader.fail("more lines than the graph's " + std::to_string(vertex_count) +
                    " vertices (line i holds the partition of vertex i - 1)");
      a.part_of.push_back(static_cast<std::uint32_t>(value));
    }
    if (a.part_of.size() != vertex_count)
      reader.fail("the file has " + std::to_string(a.part_of.size()) + " lines, but the graph has " +
                  std::to_string(vertex_count) + " vertices (one line per vertex)");
  } catch (const io::detail::InputFailure& failure) {
    // Damage found while sniffing the compression, before any line was read.
    throw Error(failure.what(), path.c_str(), 0);
  }
  return a;
}

}  // namespace medusa
