// Topology::build: counting sorts by source (forward CSR) and by destination (reverse CSR), both
// stable, so the whole build is O(V + E) even for 64M-edge graphs.
#include <medusa/error.h>
#include <medusa/topology.h>

#include <cstdint>
#include <string>

namespace medusa {

namespace {

void check_ids(VertexId vertex_count, const std::vector<VertexId>& ids, const char* which) {
  const auto n = static_cast<std::int64_t>(ids.size());
  std::int64_t first_bad = n;
  // Parallel scan for the first bad index; the report names the smallest one.
#pragma omp parallel for schedule(static) reduction(min : first_bad) if (n > 65536)
  for (std::int64_t i = 0; i < n; ++i) {
    if (ids[static_cast<std::size_t>(i)] >= vertex_count && i < first_bad) first_bad = i;
  }
  if (first_bad == n) return;
  MEDUSA_THROW("edge " + std::to_string(first_bad) + ": " + which + " vertex id " +
               std::to_string(ids[static_cast<std::size_t>(first_bad)]) +
               " is out of range (the graph has " + std::to_string(vertex_count) +
               " vertices, ids 0.." +
               (vertex_count == 0 ? std::string("none") : std::to_string(vertex_count - 1)) +
               "); add the vertices before building the device data");
}

// offsets[v] = number of keys < v (exclusive prefix sum of the histogram), size V + 1.
std::vector<EdgeIndex> offsets_by_key(VertexId vertex_count, const std::vector<VertexId>& keys) {
  std::vector<EdgeIndex> offsets(static_cast<std::size_t>(vertex_count) + 1, 0);
  for (VertexId k : keys) ++offsets[static_cast<std::size_t>(k) + 1];
  for (std::size_t v = 1; v < offsets.size(); ++v) offsets[v] += offsets[v - 1];
  return offsets;
}

}  // namespace

Topology Topology::build(VertexId vertex_count, const std::vector<VertexId>& src,
                         const std::vector<VertexId>& dst) {
  MEDUSA_REQUIRE(src.size() == dst.size(),
                 "Topology::build: " + std::to_string(src.size()) + " sources but " +
                     std::to_string(dst.size()) + " destinations");
  check_ids(vertex_count, src, "source");
  check_ids(vertex_count, dst, "destination");

  Topology t;
  t.vertex_count = vertex_count;
  t.edge_count = src.size();
  const std::size_t E = src.size();

  // Forward CSR, stable by source: input edge i lands at the next free position of its source.
  t.out_offsets = offsets_by_key(vertex_count, src);
  t.out_dst.resize(E);
  t.edge_src.resize(E);
  t.input_edge.resize(E);
  {
    std::vector<EdgeIndex> next(t.out_offsets.begin(), t.out_offsets.end() - 1);
    for (std::size_t i = 0; i < E; ++i) {
      const EdgeIndex pos = next[src[i]]++;
      t.out_dst[pos] = dst[i];
      t.edge_src[pos] = src[i];
      t.input_edge[pos] = i;
    }
  }

  // Reverse CSR, stable by destination over CSR positions: the in-edges of a vertex appear in
  // CSR order, so one vertex's rIDs are consecutive and ordered by their sources.
  t.in_offsets = offsets_by_key(vertex_count, t.out_dst);
  t.in_src.resize(E);
  t.in_edge.resize(E);
  t.rid.resize(E);
  {
    std::vector<EdgeIndex> next(t.in_offsets.begin(), t.in_offsets.end() - 1);
    for (std::size_t e = 0; e < E; ++e) {
      const EdgeIndex r = next[t.out_dst[e]]++;
      t.in_src[r] = t.edge_src[e];
      t.in_edge[r] = e;
      t.rid[e] = r;
    }
  }
  return t;
}

}  // namespace medusa
