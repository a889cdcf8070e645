// Topology::build: counting sorts by source (forward CSR) and by destination (reverse CSR), both
// stable, so the whole build is O(V + E) even for 64M-edge graphs.
#include <medusa/error.h>
#include <medusa/topology.h>

#include <algorithm>
#include <cstdint>
#include <string>

#if defined(_OPENMP)
#include <omp.h>
#endif

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

// Stable counting sort by key, parallel over contiguous chunks of the input: each chunk counts its
// keys, the counts become per-chunk start positions, and each chunk then places its items in input
// order. Calls place(i, position) once per item; fills `offsets` (V + 1, exclusive prefix sum).
template <class Place>
void stable_counting_sort(const VertexId* keys, std::size_t n, VertexId vertex_count,
                          std::vector<EdgeIndex>& offsets, const Place& place) {
  const std::size_t V = vertex_count;
  std::size_t chunks = 1;
#if defined(_OPENMP)
  // One V-sized histogram per chunk: only as many chunks as the edges pay for.
  if (n >= (std::size_t{1} << 16)) {
    const std::size_t affordable = n / (V > 4096 ? V : 4096);
    const auto threads = static_cast<std::size_t>(omp_get_max_threads());
    chunks = std::max<std::size_t>(1, std::min(threads, affordable));
  }
#endif
  const auto T = static_cast<std::int64_t>(chunks);
  auto chunk_begin = [n, chunks](std::int64_t t) { return n * static_cast<std::size_t>(t) / chunks; };
  std::vector<EdgeIndex> start(chunks * V, 0);  // start[t * V + k]

#pragma omp parallel for schedule(static, 1) if (T > 1)
  for (std::int64_t t = 0; t < T; ++t) {
    EdgeIndex* count = start.data() + static_cast<std::size_t>(t) * V;
    for (std::size_t i = chunk_begin(t), end = chunk_begin(t + 1); i < end; ++i) ++count[keys[i]];
  }

  offsets.assign(V + 1, 0);
  for (std::size_t t = 0; t < chunks; ++t) {
    const EdgeIndex* count = start.data() + t * V;
    for (std::size_t k = 0; k < V; ++k) offsets[k + 1] += count[k];
  }
  for (std::size_t k = 0; k < V; ++k) offsets[k + 1] += offsets[k];

  const auto keys_count = static_cast<std::int64_t>(V);
#pragma omp parallel for schedule(static) if (T > 1)
  for (std::int64_t k = 0; k < keys_count; ++k) {
    EdgeIndex run = offsets[static_cast<std::size_t>(k)];
    for (std::size_t t = 0; t < chunks; ++t) {
      EdgeIndex& slot = start[t * V + static_cast<std::size_t>(k)];
      const EdgeIndex c = slot;
      slot = run;
      run += c;
    }
  }

#pragma omp parallel for schedule(static, 1) if (T > 1)
  for (std::int64_t t = 0; t < T; ++t) {
    EdgeIndex* next = start.data() + static_cast<std::size_t>(t) * V;
    for (std::size_t i = chunk_begin(t), end = chunk_begin(t + 1); i < end; ++i) {
      place(i, next[keys[i]]++);
    }
  }
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

  // Forward CSR, stable by source: input edge i lands after the earlier edges of its source.
  t.out_dst.resize(E);
  t.edge_src.resize(E);
  t.input_edge.resize(E);
  stable_counting_sort(src.data(), E, vertex_count, t.out_offsets,
                       [&](std::size_t i, EdgeIndex pos) {
                         t.out_dst[pos] = dst[i];
                         t.edge_src[pos] = src[i];
                         t.input_edge[pos] = i;
                       });

  // Reverse CSR, stable by destination over CSR positions: the in-edges of a vertex appear in
  // CSR order, so one vertex's rIDs are consecutive and ordered by their sources.
  t.in_src.resize(E);
  t.in_edge.resize(E);
  t.rid.resize(E);
  stable_counting_sort(t.out_dst.data(), E, vertex_count, t.in_offsets,
                       [&](std::size_t e, EdgeIndex r) {
                         t.in_src[r] = t.edge_src[e];
                         t.in_edge[r] = e;
                         t.rid[e] = r;
                       });
  return t;
}

Topology Topology::with_sorted_rows() const {
  // Rows sorted in place, then rebuilt: the stable build keeps each row's new order, and
  // input_edge is composed through the permutation.
  std::vector<EdgeIndex> order(edge_count);
  for (EdgeIndex e = 0; e < edge_count; ++e) order[e] = e;
  const auto V = static_cast<std::int64_t>(vertex_count);
#pragma omp parallel for schedule(dynamic, 1024)
  for (std::int64_t v = 0; v < V; ++v) {
    const auto begin = order.begin() + static_cast<std::ptrdiff_t>(out_offsets[v]);
    const auto end = order.begin() + static_cast<std::ptrdiff_t>(out_offsets[v + 1]);
    if (!std::is_sorted(begin, end, [&](EdgeIndex a, EdgeIndex b) { return out_dst[a] < out_dst[b]; }))
      std::stable_sort(begin, end, [&](EdgeIndex a, EdgeIndex b) { return out_dst[a] < out_dst[b]; });
  }
  std::vector<VertexId> src(edge_count), dst(edge_count);
  for (EdgeIndex i = 0; i < edge_count; ++i) {
    src[i] = edge_src[order[i]];
    dst[i] = out_dst[order[i]];
  }
  Topology sorted = build(vertex_count, src, dst);
  for (EdgeIndex& e : sorted.input_edge) e = input_edge[order[e]];
  return sorted;
}

}  // namespace medusa
