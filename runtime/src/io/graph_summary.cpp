#include "edge_sort.h"

#include <medusa/io/graph_summary.h>
#include <medusa/vertex_order.h>

#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

namespace medusa::io {
namespace {

DegreeStats stats_of(const std::vector<EdgeIndex>& degree) {
  DegreeStats stats;
  if (degree.empty()) return stats;
  stats.min = degree[0];
  EdgeIndex total = 0;
  for (std::size_t v = 0; v < degree.size(); ++v) {
    total += degree[v];
    stats.min = std::min(stats.min, degree[v]);
    if (degree[v] > stats.max) {
      stats.max = degree[v];
      stats.max_vertex = static_cast<VertexId>(v);
    }
    stats.zero += degree[v] == 0;
  }
  stats.mean = static_cast<double>(total) / static_cast<double>(degree.size());
  return stats;
}

}  // namespace

GraphSummary summarize(const EdgeListData& data) {
  GraphSummary summary;
  summary.format = data.format;
  summary.vertices = data.vertex_count;
  summary.edges = data.edge_count();
  summary.symmetric = data.symmetric;
  summary.weighted = data.weighted();
  std::vector<EdgeIndex> out(data.vertex_count, 0), in(data.vertex_count, 0);
  for (std::size_t e = 0; e < data.src.size(); ++e) {
    if (data.src[e] >= data.vertex_count || data.dst[e] >= data.vertex_count) {
      MEDUSA_THROW("edge " + std::to_string(e) + " has an endpoint >= vertex count " + std::to_string(data.vertex_count));
    }
    ++out[data.src[e]];
    ++in[data.dst[e]];
    summary.self_loops += data.src[e] == data.dst[e];
  }
  summary.out_degree = stats_of(out);
  summary.in_degree = stats_of(in);
  std::vector<std::uint64_t> total(data.vertex_count);
  for (VertexId v = 0; v < data.vertex_count; ++v) total[v] = out[v] + in[v];
  summary.hub_share = hub_share(std::move(total), summary.edges);
  std::vector<std::uint64_t> keys(data.src.size());
  for (std::size_t e = 0; e < keys.size(); ++e) keys[e] = detail::edge_key(data.src[e], data.dst[e]);
  detail::sort_keys(keys);
  for (std::size_t i = 1; i < keys.size(); ++i) summary.duplicates += keys[i] == keys[i - 1];
  if (summary.weighted) {
    auto [lo, hi] = std::minmax_element(data.weight.begin(), data.weight.end());
    summary.weight_min = *lo;
    summary.weight_max = *hi;
  }
  return summary;
}

std::string describe(const GraphSummary& s) {
  char line[256];
  std::string text;
#define add(...) (std::snprintf(line, sizeof line, __VA_ARGS__), text += line)
  add("format: %s\n", s.format.c_str());
  add("vertices: %u\n", s.vertices);
  add("edges: %llu (directed, as stored)\n", static_cast<unsigned long long>(s.edges));
  add("symmetric: %s\n", s.symmetric ? "yes" : "no");
  add("self loops: %llu\n", static_cast<unsigned long long>(s.self_loops));
  add("duplicate edges: %llu\n", static_cast<unsigned long long>(s.duplicates));
  for (int which = 0; which < 2; ++which) {
    const DegreeStats& d = which == 0 ? s.out_degree : s.in_degree;
    add("%s-degree: min %llu, max %llu (vertex %u), mean %.3f, zero-degree vertices %u\n", which == 0 ? "out" : "in",
        static_cast<unsigned long long>(d.min), static_cast<unsigned long long>(d.max), d.max_vertex, d.mean, d.zero);
  }
  add("hubs: the top 1%% of vertices hold %.1f%% of edge endpoints; one-GPU runs number vertices %s\n",
      100.0 * s.hub_share,
      degree_order_pays(s.vertices, s.hub_share) ? "by degree (VertexOrder::Auto)" : "by ID (VertexOrder::Auto)");
  if (s.weighted) add("weights: min %g, max %g\n", s.weight_min, s.weight_max);
  else add("weights: none\n");
#undef add
  return text;
}

}  // namespace medusa::io
