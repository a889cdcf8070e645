// build_local_topology: parallel passes over the local vertices' global rows; no sort. Each local
// in-row is a global in-row with its sources renamed, and an edge's place in it comes from its
// global rID, so the reverse CSR needs one scattered write per edge (in_edge).
#include "local_topology.h"

#include <medusa/populated_vector.h>

#include <cstdint>

namespace medusa::detail {

// Loops over fewer items run on the calling thread: waking the OpenMP team costs more.
constexpr std::int64_t kSerialBelow = 65536;

void build_local_topology(const Topology& t, const std::vector<std::uint8_t>& inner,
                          const std::vector<VertexId>& to_local, PartitionLayout& out) {
  Topology& local = out.topology;
  const std::vector<VertexId>& global_id = out.global_id;
  const auto V = static_cast<VertexId>(global_id.size());
  const auto n = static_cast<std::int64_t>(V);
  const bool parallel = static_cast<std::uint64_t>(n) + t.edge_count > kSerialBelow;  // (rows may be long)
  local.vertex_count = V;

  // Row lengths: each local vertex's out-edges into inner vertices, and inner vertices' in-degrees.
  local.out_offsets.assign(std::size_t{V} + 1, 0);
  local.in_offsets.assign(std::size_t{V} + 1, 0);
#pragma omp parallel for schedule(dynamic, 1024) if (parallel)
  for (std::int64_t u = 0; u < n; ++u) {
    const VertexId g = global_id[u];
    EdgeIndex kept = 0;
    for (EdgeIndex e = t.out_offsets[g]; e < t.out_offsets[g + 1]; ++e) kept += inner[t.out_dst[e]];
    local.out_offsets[u + 1] = kept;
    local.in_offsets[u + 1] = inner[g] ? t.in_degree(g) : 0;
  }
  // The local edges of global source g come after those of every smaller global source: their
  // rank in global CSR order starts at rank_start[g].
  std::vector<EdgeIndex> rank_start(t.vertex_count, 0);
#pragma omp parallel for schedule(static) if (n > kSerialBelow)
  for (std::int64_t u = 0; u < n; ++u) rank_start[global_id[u]] = local.out_offsets[u + 1];
  EdgeIndex rank = 0;
  for (EdgeIndex& r : rank_start) {
    const EdgeIndex kept = r;
    r = rank;
    rank += kept;
  }
  for (VertexId u = 0; u < V; ++u) {
    local.out_offsets[u + 1] += local.out_offsets[u];
    local.in_offsets[u + 1] += local.in_offsets[u];
  }
  const EdgeIndex E = local.out_offsets[V];
  local.edge_count = E;

  // Out-rows, and each edge's place in its target's in-row: the global rID shifted by where the
  // target's in-row starts here (rid_shift, one read per edge instead of two offsets).
  std::vector<EdgeIndex> rid_shift(V);
#pragma omp parallel for schedule(static) if (n > kSerialBelow)
  for (std::int64_t v = 0; v < n; ++v)
    rid_shift[v] = local.in_offsets[v] - t.in_offsets[global_id[v]];  // (wraps; only inner targets use it)
  resize_populated(local.out_dst, E);
  resize_populated(local.edge_src, E);
  resize_populated(local.input_edge, E);
  resize_populated(local.rid, E);
  resize_populated(out.input_edge, E);
  // (raw pointers: the compiler cannot tell that the stores leave the vectors themselves alone)
  const EdgeIndex* global_offsets = t.out_offsets.data();
  const VertexId* global_dst = t.out_dst.data();
  const EdgeIndex* global_rid = t.rid.data();
  const EdgeIndex* global_input = t.input_edge.data();
  const std::uint8_t* is_inner = inner.data();
  const VertexId* local_of = to_local.data();
  const EdgeIndex* shift = rid_shift.data();
  const EdgeIndex* row_start = local.out_offsets.data();
  VertexId* out_dst = local.out_dst.data();
  VertexId* edge_src = local.edge_src.data();
  EdgeIndex* rank_of = local.input_edge.data();
  EdgeIndex* rid = local.rid.data();
  EdgeIndex* user_edge = out.input_edge.data();
#pragma omp parallel for schedule(dynamic, 1024) if (parallel)
  for (std::int64_t u = 0; u < n; ++u) {
    const VertexId g = global_id[u];
    EdgeIndex at = row_start[u], rank_here = rank_start[g];
    for (EdgeIndex e = global_offsets[g]; e < global_offsets[g + 1]; ++e) {
      const VertexId d = global_dst[e];
      if (!is_inner[d]) continue;
      const VertexId d_local = local_of[d];
      out_dst[at] = d_local;
      edge_src[at] = static_cast<VertexId>(u);
      rank_of[at] = rank_here++;
      rid[at] = shift[d_local] + global_rid[e];
      user_edge[at] = global_input[e];
      ++at;
    }
  }
  rid_shift = {};

  // In-rows: the global ones with local names.
  resize_populated(local.in_src, E);
  resize_populated(local.in_edge, E);
#pragma omp parallel for schedule(dynamic, 1024) if (parallel)
  for (std::int64_t v = 0; v < n; ++v) {
    const VertexId g = global_id[v];
    if (!inner[g]) continue;
    EdgeIndex r = local.in_offsets[v];
    for (EdgeIndex R = t.in_offsets[g]; R < t.in_offsets[g + 1]; ++R) local.in_src[r++] = to_local[t.in_src[R]];
  }
  const auto edges = static_cast<std::int64_t>(E);
#pragma omp parallel for schedule(static) if (edges > kSerialBelow)
  for (std::int64_t e = 0; e < edges; ++e) local.in_edge[local.rid[e]] = static_cast<EdgeIndex>(e);
}

}  // namespace medusa::detail
