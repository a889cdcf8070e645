#include "bfs_cpu.h"

#include "../common/sample_cli.h"

#include <cstdio>

std::vector<std::uint32_t> bfs_cpu(std::uint32_t vertex_count, const std::vector<std::uint32_t>& src,
                                   const std::vector<std::uint32_t>& dst, std::uint32_t source) {
  std::vector<std::size_t> first(vertex_count + 1, 0);
  for (std::uint32_t s : src) ++first[s + 1];
  for (std::uint32_t v = 0; v < vertex_count; ++v) first[v + 1] += first[v];
  std::vector<std::size_t> next(first.begin(), first.end() - 1);
  std::vector<std::uint32_t> adjacent(src.size());
  for (std::size_t e = 0; e < src.size(); ++e) adjacent[next[src[e]]++] = dst[e];

  std::vector<std::uint32_t> level(vertex_count, kNotReached), queue;
  queue.reserve(vertex_count);
  level[source] = 0;
  queue.push_back(source);
  for (std::size_t head = 0; head < queue.size(); ++head) {
    const std::uint32_t u = queue[head];
    for (std::size_t i = first[u]; i < first[u + 1]; ++i) {
      if (level[adjacent[i]] == kNotReached) {
        level[adjacent[i]] = level[u] + 1;
        queue.push_back(adjacent[i]);
      }
    }
  }
  return level;
}

int validate_levels(const std::vector<unsigned int>& got, const std::vector<std::uint32_t>& expected) {
  std::size_t mismatches = 0;
  std::vector<std::string> first;
  for (std::size_t v = 0; v < got.size(); ++v) {
    if (got[v] != expected[v] && ++mismatches <= 5)
      first.push_back("vertex " + std::to_string(v) + ": got level " + std::to_string(got[v]) + ", expected " +
                      std::to_string(expected[v]));
  }
  return medusa::samples::report_validation("BFS levels vs queue BFS, exact", mismatches, first);
}

bool write_levels(const std::string& path, const std::vector<unsigned int>& levels) {
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    return false;
  }
  for (std::size_t v = 0; v < levels.size(); ++v) std::fprintf(out, "%zu %u\n", v, levels[v]);
  std::fclose(out);
  return true;
}
