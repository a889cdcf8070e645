// Degree order: one O(V log V) sort of the vertices, then each vertex's out- and in-edge lists are
// copied with their IDs renumbered, in parallel and without sorting edges.
#include <medusa/vertex_order.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <numeric>
#include <vector>

namespace medusa {

namespace {

// Exclusive prefix sums of the renumbered vertices' degrees.
std::vector<EdgeIndex> renumbered_offsets(const std::vector<EdgeIndex>& offsets, const std::vector<VertexId>& order) {
  std::vector<EdgeIndex> out(order.size() + 1, 0);
  for (std::size_t i = 0; i < order.size(); ++i) out[i + 1] = out[i] + (offsets[order[i] + 1] - offsets[order[i]]);
  return out;
}

}  // namespace

std::vector<std::uint64_t> total_degrees(const Topology& t) {
  std::vector<std::uint64_t> d(t.vertex_count);
  const auto V = static_cast<std::int64_t>(t.vertex_count);
#pragma omp parallel for schedule(static)
  for (std::int64_t v = 0; v < V; ++v) d[v] = t.out_degree(static_cast<VertexId>(v)) + t.in_degree(static_cast<VertexId>(v));
  return d;
}

void sort_by_degree(const std::vector<std::uint64_t>& degree, std::vector<VertexId>& ids) {
  // Unique keys (degree, ID): a plain sort is deterministic.
  std::sort(ids.begin(), ids.end(),
            [&](VertexId a, VertexId b) { return degree[a] != degree[b] ? degree[a] > degree[b] : a < b; });
}

double hub_share(const Topology& t, double fraction) { return hub_share(total_degrees(t), t.edge_count, fraction); }

std::uint64_t degree_ordered_layout_bytes(const Topology& t) {
  const std::uint64_t V = t.vertex_count, E = t.edge_count;
  // Topology (two offset arrays, out_dst, edge_src, rid, in_src, in_edge), the layout's input_edge,
  // global IDs and both degrees.
  return 2 * (V + 1) * sizeof(EdgeIndex) + E * (3 * sizeof(VertexId) + 3 * sizeof(EdgeIndex)) +
         V * 3 * sizeof(std::uint32_t);
}

std::uint64_t available_host_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  while (meminfo >> key >> kib) {
    if (key == "MemAvailable:") return kib << 10;
    meminfo.ignore(256, '\n');
  }
  return 0;
}

namespace {

// Auto's rule before the memory check, with its reason: `c` gets Degree when it pays.
void choose_by_hub_share(const Topology& t, const std::string& prefix, VertexOrderChoice& c) {
  if (t.vertex_count < kDegreeOrderMinVertices) {
    c.reason = prefix + "fewer than " + std::to_string(kDegreeOrderMinVertices) + " vertices";
    return;
  }
  c.hub_share = hub_share(t);
  char share[64];
  std::snprintf(share, sizeof share, "the top 1%% of vertices hold %.1f%% of edge endpoints", 100.0 * c.hub_share);
  c.reason = prefix + share;
  if (!degree_order_pays(t.vertex_count, c.hub_share)) {
    c.reason += " (degree order from 20%)";
    return;
  }
  c.order = VertexOrder::Degree;
}

VertexOrderChoice as_requested(VertexOrder requested) {
  VertexOrderChoice c;
  c.requested = requested;
  if (requested != VertexOrder::Auto) {
    c.order = requested;
    c.reason = "requested";
  }
  return c;
}

}  // namespace

VertexOrderChoice choose_vertex_order(const Topology& t, VertexOrder requested, std::uint64_t available_host_bytes) {
  VertexOrderChoice c = as_requested(requested);
  if (requested != VertexOrder::Auto) return c;
  choose_by_hub_share(t, "auto: ", c);
  if (!c.by_degree()) return c;
  const std::uint64_t bytes = degree_ordered_layout_bytes(t);
  if (available_host_bytes != 0 && bytes > available_host_bytes / 2) {
    c.order = VertexOrder::Input;
    c.reason += ", but the renumbered topology (" + std::to_string(bytes >> 20) +
                " MiB) would take more than half the host's available memory";
  }
  return c;
}

VertexOrderChoice choose_partition_vertex_order(const Topology& t, VertexOrder requested, const ProgramReach& program) {
  VertexOrderChoice c = as_requested(requested);
  if (requested != VertexOrder::Auto) return c;
  if (program.by_id) {
    c.reason = "auto: the program reads or sends by vertex id";
    return c;
  }
  if (!program.every_vertex()) {
    c.reason = program.seed_edges == 0
                   ? std::string("auto: a frontier without seeds from the host (its functors' SetActive() start it) "
                                 "is taken for a queue, which degree order slows")
                   : "auto: a frontier from seeds with " + std::to_string(program.seed_edges) + " of " +
                         std::to_string(program.edges) + " out-edges (under E/" +
                         std::to_string(program.dense_fraction) + ") runs as a queue, which degree order slows";
    return c;
  }
  choose_by_hub_share(t, program.frontier ? "auto: a frontier that starts dense; " : "auto: no frontier; ", c);
  return c;
}

std::string VertexOrderChoice::describe() const {
  return std::string("vertex order: ") + (by_degree() ? "by descending degree" : "input IDs") + " (" + reason + ")";
}

PartitionLayout degree_ordered_layout(const Topology& t, bool sorted_rows) {
  const VertexId V = t.vertex_count;
  const EdgeIndex E = t.edge_count;
  PartitionLayout l;
  l.index = 0;
  l.hop_begin = {0, V, V};

  l.global_id.resize(V);
  std::iota(l.global_id.begin(), l.global_id.end(), VertexId{0});
  sort_by_degree(total_degrees(t), l.global_id);
  std::vector<VertexId> local(V);
  for (VertexId i = 0; i < V; ++i) local[l.global_id[i]] = i;

  Topology& lt = l.topology;
  lt.vertex_count = V;
  lt.edge_count = E;
  lt.out_offsets = renumbered_offsets(t.out_offsets, l.global_id);
  lt.in_offsets = renumbered_offsets(t.in_offsets, l.global_id);
  // Zero-filling gigabytes is bound by page faults: one array per thread.
  std::vector<VertexId>* const id_arrays[] = {&lt.out_dst, &lt.edge_src, &lt.in_src};
  std::vector<EdgeIndex>* const position_arrays[] = {&l.input_edge, &lt.rid, &lt.in_edge};
#pragma omp parallel for schedule(static, 1)
  for (int k = 0; k < 6; ++k) {
    if (k < 3) id_arrays[k]->resize(E);
    else position_arrays[k - 3]->resize(E);
  }
  l.out_degree.resize(V);
  l.in_degree.resize(V);

  // Pass 1, by input ID: each edge's local CSR position, kept in lt.rid until pass 3. Rows are
  // written in order (sorted_rows: in the order of their renumbered heads); only the renumbered
  // row's offset is a random read.
  const auto n = static_cast<std::int64_t>(V);
#pragma omp parallel
  {
    std::vector<EdgeIndex> row;
#pragma omp for schedule(dynamic, 4096)
    for (std::int64_t v = 0; v < n; ++v) {
      const auto u = static_cast<VertexId>(v);
      const EdgeIndex out_base = lt.out_offsets[local[u]], begin = t.out_offsets[u], end = t.out_offsets[u + 1];
      if (!sorted_rows) {
        for (EdgeIndex e = begin; e < end; ++e) lt.rid[e] = out_base + (e - begin);
        continue;
      }
      row.resize(end - begin);
      std::iota(row.begin(), row.end(), begin);
      std::stable_sort(row.begin(), row.end(),
                       [&](EdgeIndex a, EdgeIndex b) { return local[t.out_dst[a]] < local[t.out_dst[b]]; });
      for (std::size_t k = 0; k < row.size(); ++k) lt.rid[row[k]] = out_base + k;
    }
  }
  // Pass 2, by local ID: copy each row renumbered. In-edges stay in the input order's order (by
  // the source's input ID), so combiners fold messages in the same order.
#pragma omp parallel for schedule(dynamic, 4096)
  for (std::int64_t i = 0; i < n; ++i) {
    const VertexId u = l.global_id[i];
    const EdgeIndex out_begin = t.out_offsets[u], out_count = t.out_degree(u), lo = lt.out_offsets[i];
    for (EdgeIndex k = 0; k < out_count; ++k) {
      const EdgeIndex to = sorted_rows ? lt.rid[out_begin + k] : lo + k;
      lt.out_dst[to] = local[t.out_dst[out_begin + k]];
      lt.edge_src[to] = static_cast<VertexId>(i);
      l.input_edge[to] = t.input_edge[out_begin + k];
    }
    const EdgeIndex in_begin = t.in_offsets[u], in_count = t.in_degree(u), li = lt.in_offsets[i];
    for (EdgeIndex k = 0; k < in_count; ++k) {
      lt.in_src[li + k] = local[t.in_src[in_begin + k]];
      lt.in_edge[li + k] = lt.rid[t.in_edge[in_begin + k]];  // still the position map of pass 1
    }
    l.out_degree[i] = static_cast<std::uint32_t>(out_count);
    l.in_degree[i] = static_cast<std::uint32_t>(in_count);
  }
  // Pass 3: rID is the inverse of in_edge.
  const auto m = static_cast<std::int64_t>(E);
#pragma omp parallel for schedule(static)
  for (std::int64_t r = 0; r < m; ++r) lt.rid[lt.in_edge[r]] = static_cast<EdgeIndex>(r);
  return l;
}

}  // namespace medusa
