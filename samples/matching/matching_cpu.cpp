#include "matching_cpu.h"

#include <algorithm>
#include <utility>

namespace {
constexpr unsigned int kUnmatched = 0xffffffffu;
}

bool two_colour(std::uint32_t vertex_count, const std::vector<std::uint32_t>& src,
                const std::vector<std::uint32_t>& dst, std::vector<unsigned int>& side) {
  std::vector<std::vector<std::uint32_t>> adjacent(vertex_count);
  for (std::size_t e = 0; e < src.size(); ++e) {
    adjacent[src[e]].push_back(dst[e]);
    adjacent[dst[e]].push_back(src[e]);
  }
  std::vector<int> colour(vertex_count, -1);
  std::vector<std::uint32_t> queue;
  for (std::uint32_t root = 0; root < vertex_count; ++root) {
    if (colour[root] != -1) continue;
    colour[root] = 1;
    queue.assign(1, root);
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const std::uint32_t u = queue[head];
      for (std::uint32_t w : adjacent[u]) {
        if (colour[w] == -1) {
          colour[w] = 1 - colour[u];
          queue.push_back(w);
        } else if (colour[w] == colour[u]) {
          return false;
        }
      }
    }
  }
  side.assign(colour.begin(), colour.end());
  return true;
}

std::vector<std::string> check_maximal_matching(std::uint32_t vertex_count, const std::vector<std::uint32_t>& src,
                                                const std::vector<std::uint32_t>& dst,
                                                const std::vector<unsigned int>& match) {
  std::vector<std::string> problems;
  auto report = [&](const std::string& text) {
    if (problems.size() < 5) problems.push_back(text);
    else if (problems.size() == 5) problems.push_back("...");
  };
  std::vector<std::pair<std::uint32_t, std::uint32_t>> edge_set;
  edge_set.reserve(src.size());
  for (std::size_t e = 0; e < src.size(); ++e) edge_set.emplace_back(src[e], dst[e]);
  std::sort(edge_set.begin(), edge_set.end());
  for (std::uint32_t v = 0; v < vertex_count; ++v) {
    const unsigned int m = match[v];
    if (m == kUnmatched) continue;
    if (m >= vertex_count || match[m] != v) {
      report("vertex " + std::to_string(v) + " is matched to " + std::to_string(m) + ", which does not point back");
    } else if (!std::binary_search(edge_set.begin(), edge_set.end(), std::make_pair(v, m))) {
      report("vertex " + std::to_string(v) + " is matched to " + std::to_string(m) + ", which is no neighbour");
    }
  }
  for (std::size_t e = 0; e < src.size(); ++e) {
    if (match[src[e]] == kUnmatched && match[dst[e]] == kUnmatched)
      report("edge " + std::to_string(src[e]) + " -> " + std::to_string(dst[e]) + " has both ends unmatched");
  }
  return problems;
}
