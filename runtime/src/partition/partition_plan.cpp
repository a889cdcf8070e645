// build_partition_plan and the multi-hop cost model. Everything is a few linear scans over the
// global edges per partition and hop, with O(V) maps per partition, so kron-24/25 plans build in
// seconds on a 16-core host.
#include "local_topology.h"

#include <medusa/backend/common/format_bytes.h>
#include <medusa/error.h>
#include <medusa/partition/plan.h>
#include <medusa/vertex_order.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <utility>
#include <sstream>
#include <string>

namespace medusa {

namespace {

constexpr std::uint32_t kNoHop = 0xffffffffu;
// Loops over fewer items run on the calling thread: waking the OpenMP team costs more.
constexpr std::int64_t kSerialBelow = 65536;

// Hop of every vertex as seen from partition p (kNoHop: not local) and the vertices of each hop.
struct HopLevels {
  std::vector<std::uint32_t> hop;              // V
  std::vector<std::vector<VertexId>> members;  // hops + 1 levels, level 0 = owned (ascending ID)
  std::uint32_t complete = 0;                  // levels 0 .. complete are exact
};

// The vertices v < V with pred(v), ascending: a parallel count per chunk, then each chunk writes its
// share in order.
template <class Pred>
std::vector<VertexId> vertices_where(VertexId V, const Pred& pred) {
  constexpr VertexId kChunk = VertexId{1} << 16;
  const auto chunks = static_cast<std::int64_t>((std::uint64_t{V} + kChunk - 1) / kChunk);
  std::vector<std::size_t> start(static_cast<std::size_t>(chunks) + 1, 0);
#pragma omp parallel for schedule(static) if (chunks > 1)
  for (std::int64_t c = 0; c < chunks; ++c) {
    std::size_t n = 0;
    for (VertexId v = static_cast<VertexId>(c) * kChunk, end = std::min<std::uint64_t>(V, (c + 1) * std::uint64_t{kChunk});
         v < end; ++v)
      n += pred(v);
    start[c + 1] = n;
  }
  for (std::int64_t c = 0; c < chunks; ++c) start[c + 1] += start[c];
  std::vector<VertexId> out(start[chunks]);
#pragma omp parallel for schedule(static) if (chunks > 1)
  for (std::int64_t c = 0; c < chunks; ++c) {
    std::size_t at = start[c];
    for (VertexId v = static_cast<VertexId>(c) * kChunk, end = std::min<std::uint64_t>(V, (c + 1) * std::uint64_t{kChunk});
         v < end; ++v)
      if (pred(v)) out[at++] = v;
  }
  return out;
}

// Stops adding levels once the local vertices + in-edges so far exceed `size_limit` (the cost
// model's budget: more hops could only be larger); `complete` says how many levels were built.
// Level by level in parallel, as a direction-optimising BFS: level h + 1 is found from level h's
// in-edges (top-down: a head found twice is marked twice with the same hop), or, when those are
// more than the out-edges of the vertices not local yet, by those vertices looking for an
// out-edge into level h (bottom-up, each stopping at the first). One scan then collects the level
// in ascending ID; either way it holds the same vertices.
HopLevels hop_levels(const Topology& t, const PartitionAssignment& a, std::uint32_t p,
                     std::uint32_t hops, double size_limit = -1.0) {
  HopLevels l;
  const auto V = static_cast<std::int64_t>(t.vertex_count);
  l.hop.resize(t.vertex_count);
  std::uint32_t* hop = l.hop.data();
#pragma omp parallel for schedule(static) if (V > kSerialBelow)
  for (std::int64_t v = 0; v < V; ++v) hop[v] = a.part_of[v] == p ? 0 : kNoHop;
  l.members.resize(hops + 1);
  l.members[0] = vertices_where(t.vertex_count, [&](VertexId v) { return hop[v] == 0; });
  // Level h + 1: heads of the in-edges of level h that are not local yet.
  double size = static_cast<double>(l.members[0].size());
  EdgeIndex outside_out_edges = t.edge_count;  // out-edges of the vertices not local yet
  for (std::uint32_t h = 0; h < hops; ++h) {
    const std::vector<VertexId>& level = l.members[h];
    const auto n = static_cast<std::int64_t>(level.size());
    EdgeIndex in_edges = 0, out_edges = 0;
#pragma omp parallel for schedule(static) reduction(+ : in_edges, out_edges) if (n > kSerialBelow)
    for (std::int64_t i = 0; i < n; ++i) {
      in_edges += t.in_degree(level[i]);
      out_edges += t.out_degree(level[i]);
    }
    outside_out_edges -= out_edges;
    if (size_limit >= 0.0 && size > size_limit) break;
    if (in_edges <= outside_out_edges) {
#pragma omp parallel for schedule(dynamic, 1024) if (n > kSerialBelow / 64)
      for (std::int64_t i = 0; i < n; ++i) {
        const VertexId u = level[i];
        for (EdgeIndex r = t.in_offsets[u]; r < t.in_offsets[u + 1]; ++r) {
          std::uint32_t* head = hop + t.in_src[r];
          if (__atomic_load_n(head, __ATOMIC_RELAXED) == kNoHop) __atomic_store_n(head, h + 1, __ATOMIC_RELAXED);
        }
      }
    } else {
#pragma omp parallel for schedule(dynamic, 4096) if (V > kSerialBelow)
      for (std::int64_t v = 0; v < V; ++v) {
        if (hop[v] != kNoHop) continue;
        for (EdgeIndex e = t.out_offsets[v]; e < t.out_offsets[v + 1]; ++e) {
          if (__atomic_load_n(hop + t.out_dst[e], __ATOMIC_RELAXED) == h) {
            __atomic_store_n(hop + v, h + 1, __ATOMIC_RELAXED);
            break;
          }
        }
      }
    }
    size += static_cast<double>(in_edges);
    l.members[h + 1] = vertices_where(t.vertex_count, [&](VertexId v) { return hop[v] == h + 1; });
    size += static_cast<double>(l.members[h + 1].size());
    l.complete = h + 1;
  }
  return l;
}

// With owned rows: the targets of the owned vertices' out-edges that are not local yet join hop 1.
void add_row_targets(const Topology& t, HopLevels& l) {
  for (VertexId u : l.members[0])
    for (EdgeIndex e = t.out_offsets[u]; e < t.out_offsets[u + 1]; ++e) {
      const VertexId w = t.out_dst[e];
      if (l.hop[w] == kNoHop) {
        l.hop[w] = 1;
        l.members[1].push_back(w);
      }
    }
}

// PartitionLayout::owned_row_offsets / owned_row_dst: each owned vertex's whole out-row in the
// global CSR order, which is the order the unpartitioned pulled pass folds it in.
void add_owned_rows(const Topology& t, const std::vector<VertexId>& to_local, PartitionLayout& out) {
  const VertexId owned = out.owned_count();
  out.owned_row_offsets.assign(owned + 1, 0);
  for (VertexId i = 0; i < owned; ++i)
    out.owned_row_offsets[i + 1] = out.owned_row_offsets[i] + t.out_degree(out.global_id[i]);
  out.owned_row_dst.resize(out.owned_row_offsets[owned]);
#pragma omp parallel for schedule(dynamic, 1024)
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(owned); ++i) {
    const VertexId u = out.global_id[i];
    EdgeIndex at = out.owned_row_offsets[i];
    for (EdgeIndex e = t.out_offsets[u]; e < t.out_offsets[u + 1]; ++e) out.owned_row_dst[at++] = to_local[t.out_dst[e]];
  }
}

// Each partition's owned vertices in local order: ascending ID, or by degree (vertex_order.h).
std::vector<std::vector<VertexId>> owned_lists(const Topology& t, const PartitionAssignment& a, VertexOrder order) {
  std::vector<std::vector<VertexId>> owned(a.parts);
  for (VertexId v = 0; v < t.vertex_count; ++v) owned[a.part_of[v]].push_back(v);
  if (order == VertexOrder::Degree) {
    const std::vector<std::uint64_t> degree = total_degrees(t);
    for (std::vector<VertexId>& list : owned) sort_by_degree(degree, list);
  }
  return owned;
}

// Each vertex's local ID in its owner partition.
std::vector<VertexId> owned_rank(const Topology& t, const std::vector<std::vector<VertexId>>& owned) {
  std::vector<VertexId> rank(t.vertex_count);
  for (const std::vector<VertexId>& list : owned)
    for (VertexId i = 0; i < list.size(); ++i) rank[list[i]] = i;
  return rank;
}

// Ascending vertex IDs grouped by owner partition (a stable counting sort), each group in its
// owner's local order (`rank`): ascending ID, or by degree. In degree order the replicas of the
// owner's hubs, which most of the gather's in-edges read, then sit together at the front of their
// group as the hubs do in the owner, and each route copies from ascending owner ranks.
std::vector<VertexId> grouped_by_owner(const std::vector<VertexId>& ascending, const PartitionAssignment& a,
                                       const std::vector<VertexId>& rank, VertexOrder owned_order) {
  std::vector<std::size_t> next(a.parts + 1, 0);
  for (VertexId v : ascending) ++next[a.part_of[v] + 1];
  for (std::uint32_t q = 0; q < a.parts; ++q) next[q + 1] += next[q];
  const std::vector<std::size_t> group_begin(next.begin(), next.end() - 1);
  std::vector<VertexId> out(ascending.size());
  for (VertexId v : ascending) out[next[a.part_of[v]]++] = v;
  if (owned_order != VertexOrder::Degree) return out;  // (ascending ID is the owner's order)
  for (std::uint32_t q = 0; q < a.parts; ++q)
    std::sort(out.begin() + static_cast<std::ptrdiff_t>(group_begin[q]),
              out.begin() + static_cast<std::ptrdiff_t>(next[q]), [&](VertexId x, VertexId y) { return rank[x] < rank[y]; });
  return out;
}

void check_assignment(const Topology& t, const PartitionAssignment& a) {
  MEDUSA_REQUIRE(a.parts >= 1, "partition plan: at least one partition is needed");
  MEDUSA_REQUIRE(a.part_of.size() == t.vertex_count,
                 "partition plan: the assignment covers " + std::to_string(a.part_of.size()) +
                     " vertices but the graph has " + std::to_string(t.vertex_count));
  for (VertexId v = 0; v < t.vertex_count; ++v)
    MEDUSA_REQUIRE(a.part_of[v] < a.parts, "partition plan: vertex " + std::to_string(v) +
                                               " is assigned to partition " +
                                               std::to_string(a.part_of[v]) + " of " +
                                               std::to_string(a.parts));
}

// Sizes and routes only, for a partition another rank holds: the routes this rank sends along keep
// their owner_local lists, the others just their ranges (the exchanges number routes alike).
void keep_sizes_and_routes(PartitionLayout& out, const Topology& t, const HopLevels& l, std::uint32_t hops,
                           const std::vector<bool>& held) {
  out.held = false;
  out.topology.vertex_count = static_cast<VertexId>(out.global_id.size());
  EdgeIndex edges = 0;
  for (std::uint32_t h = 0; h < hops; ++h)
    for (VertexId u : l.members[h]) edges += t.in_degree(u);
  out.topology.edge_count = edges;
  out.global_id = {};
  for (ReplicaRoute& r : out.replicas)
    if (!held[r.owner]) r.owner_local = {};
}

PartitionLayout build_layout(const Topology& t, const PartitionAssignment& a, std::uint32_t p,
                             std::uint32_t hops, const std::vector<VertexId>& owned, VertexOrder owned_order,
                             const std::vector<VertexId>& rank, const std::vector<bool>& held, bool owned_rows) {
  HopLevels l = hop_levels(t, a, p, hops);
  l.members[0] = owned;  // (the same vertices, in local order)
  if (owned_rows) add_row_targets(t, l);
  PartitionLayout out;
  out.index = p;

  // Local order: owned (ascending ID or by degree), then each hop grouped by owner, in the owner's order.
  if (owned_rows) std::sort(l.members[1].begin(), l.members[1].end());  // (row targets came last)
  out.hop_begin.push_back(0);
  for (std::uint32_t h = 0; h <= hops; ++h) {
    std::vector<VertexId>& m = l.members[h];
    if (h > 0) m = grouped_by_owner(m, a, rank, owned_order);
    const auto begin = static_cast<VertexId>(out.global_id.size());
    out.global_id.insert(out.global_id.end(), m.begin(), m.end());
    out.hop_begin.push_back(static_cast<VertexId>(out.global_id.size()));
    // Routes: runs of one owner.
    for (std::size_t i = 0; h > 0 && i < m.size();) {
      ReplicaRoute route;
      route.owner = a.part_of[m[i]];
      route.begin = begin + static_cast<VertexId>(i);
      while (i < m.size() && a.part_of[m[i]] == route.owner) route.owner_local.push_back(rank[m[i++]]);
      route.end = begin + static_cast<VertexId>(i);
      out.replicas.push_back(std::move(route));
    }
  }
  if (!held[p]) {
    keep_sizes_and_routes(out, t, l, hops, held);
    return out;
  }
  const auto local_v = static_cast<VertexId>(out.global_id.size());
  std::vector<VertexId> to_local(t.vertex_count, kInvalidVertex);
#pragma omp parallel for schedule(static) if (local_v > kSerialBelow)
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(local_v); ++i)
    to_local[out.global_id[i]] = static_cast<VertexId>(i);

  std::vector<std::uint8_t> inner(t.vertex_count);
#pragma omp parallel for schedule(static) if (t.vertex_count > kSerialBelow)
  for (std::int64_t v = 0; v < static_cast<std::int64_t>(t.vertex_count); ++v) inner[v] = l.hop[v] < hops;
  detail::build_local_topology(t, inner, to_local, out);

  out.out_degree.resize(local_v);
  out.in_degree.resize(local_v);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(local_v); ++i) {
    out.out_degree[i] = static_cast<std::uint32_t>(t.out_degree(out.global_id[i]));
    out.in_degree[i] = static_cast<std::uint32_t>(t.in_degree(out.global_id[i]));
  }
  if (owned_rows) add_owned_rows(t, to_local, out);
  return out;
}

}  // namespace

PartitionPlan build_partition_plan(const Topology& t, const PartitionAssignment& a, std::uint32_t hops,
                                   VertexOrder owned_order, const std::vector<bool>& held,
                                   const std::function<void(PartitionLayout&)>& built, bool owned_rows) {
  check_assignment(t, a);
  MEDUSA_REQUIRE(hops >= 1, "partition plan: replicas need at least one hop");
  MEDUSA_REQUIRE(hops == 1 || !owned_rows, "partition plan: owned out-rows need one hop of replicas");
  MEDUSA_REQUIRE(owned_order != VertexOrder::Auto, "partition plan: the owned vertices' order must be Input or Degree");
  PartitionPlan plan;
  plan.parts = a.parts;
  plan.hops = hops;
  plan.method = a.method;
  plan.global_vertices = t.vertex_count;
  plan.global_edges = t.edge_count;
  plan.owned_order = owned_order;
  const std::vector<std::vector<VertexId>> owned = owned_lists(t, a, owned_order);
  const std::vector<VertexId> rank = owned_rank(t, owned);
  MEDUSA_REQUIRE(held.empty() || held.size() == a.parts,
                 "partition plan: " + std::to_string(held.size()) + " held flags for " + std::to_string(a.parts) +
                     " partitions");
  const std::vector<bool> held_here = held.empty() ? std::vector<bool>(a.parts, true) : held;
  plan.partitions.resize(a.parts);
  // One partition at a time: the scans and Topology::build inside use every thread.
  for (std::uint32_t p = 0; p < a.parts; ++p) {
    plan.partitions[p] = build_layout(t, a, p, hops, owned[p], owned_order, rank, held_here, owned_rows);
    if (built) built(plan.partitions[p]);
  }
  return plan;
}

PartitionLayout sizes_and_routes(const PartitionLayout& full, const std::vector<bool>& held) {
  PartitionLayout out;
  out.index = full.index;
  out.held = false;
  out.topology.vertex_count = full.vertex_count();
  out.topology.edge_count = full.topology.edge_count;
  out.hop_begin = full.hop_begin;
  out.replicas = full.replicas;
  out.neighbor_row_bytes = full.neighbor_row_bytes;
  for (ReplicaRoute& r : out.replicas)
    if (!held[r.owner]) r.owner_local = {};
  return out;
}

double PartitionPlan::replication_factor() const {
  std::uint64_t local = 0;
  for (const PartitionLayout& l : partitions) local += l.vertex_count();
  return global_vertices == 0 ? 1.0 : static_cast<double>(local) / global_vertices;
}

double PartitionPlan::edge_factor() const {
  std::uint64_t local = 0;
  for (const PartitionLayout& l : partitions) local += l.topology.edge_count;
  return global_edges == 0 ? 1.0 : static_cast<double>(local) / global_edges;
}

std::uint64_t PartitionPlan::replica_count() const {
  std::uint64_t n = 0;
  for (const PartitionLayout& l : partitions) n += l.vertex_count() - l.owned_count();
  return n;
}

namespace {
template <class T>
std::uint64_t bytes_of(const std::vector<T>& v) {
  return static_cast<std::uint64_t>(v.capacity()) * sizeof(T);
}
}  // namespace

std::uint64_t resident_bytes(const Topology& t) {
  return bytes_of(t.out_offsets) + bytes_of(t.out_dst) + bytes_of(t.edge_src) + bytes_of(t.rid) +
         bytes_of(t.in_offsets) + bytes_of(t.in_src) + bytes_of(t.in_edge) + bytes_of(t.input_edge);
}

std::uint64_t topology_bytes(VertexId vertices, EdgeIndex edges) {
  const std::uint64_t offsets = 2 * (std::uint64_t{vertices} + 1) * sizeof(EdgeIndex);  // out_offsets, in_offsets
  return offsets + edges * (3 * sizeof(VertexId) + 3 * sizeof(EdgeIndex));  // out_dst, edge_src, in_src; rid, in_edge, input_edge
}

std::uint64_t PartitionLayout::resident_bytes() const {
  std::uint64_t n = medusa::resident_bytes(topology);
  n += bytes_of(global_id) + bytes_of(hop_begin) + bytes_of(out_degree) + bytes_of(in_degree) + bytes_of(input_edge);
  n += bytes_of(owned_row_offsets) + bytes_of(owned_row_dst);
  for (const ReplicaRoute& r : replicas) n += sizeof r + bytes_of(r.owner_local);
  return n + bytes_of(neighbor_rows.offsets) + bytes_of(neighbor_rows.ids);
}

std::uint64_t PartitionPlan::resident_bytes() const {
  std::uint64_t n = 0;
  for (const PartitionLayout& l : partitions) n += l.resident_bytes();
  return n;
}

std::uint64_t PartitionPlan::neighbor_row_bytes() const {
  std::uint64_t n = 0;
  for (const PartitionLayout& l : partitions) n += l.neighbor_row_bytes;
  return n;
}

std::string PartitionPlan::describe() const {
  std::ostringstream os;
  os << parts << " partitions (" << method << "), owned vertices "
     << (owned_order == VertexOrder::Degree ? "by descending degree" : "in ascending ID") << ", " << hops
     << "-hop replicas: replication factor "
     << replication_factor() << " (" << replica_count() << " replicas), edge factor " << edge_factor();
  for (const PartitionLayout& l : partitions) {
    os << "\n    partition " << l.index << ": " << l.owned_count() << " owned + "
       << (l.vertex_count() - l.owned_count()) << " replica vertices, " << l.topology.edge_count
       << " edges";
    if (l.neighbor_row_bytes > 0) os << ", neighbour rows " << common::format_bytes(l.neighbor_row_bytes);
  }
  if (neighbor_row_bytes() > 0)
    os << "\n    neighbour rows (every local vertex's whole sorted out-row, for neighbour sets): "
       << common::format_bytes(neighbor_row_bytes()) << " over all partitions";
  return os.str();
}

HopChoice choose_replication_hops(const Topology& t, const PartitionAssignment& a,
                                  std::uint32_t max_hops, double memory_budget,
                                  double refresh_cost_per_vertex) {
  check_assignment(t, a);
  max_hops = std::max<std::uint32_t>(1, max_hops);
  // Per partition and hop count h: local edges of the vertices within hop < k for k = 1..h (what
  // stage h - k of a round processes) and the replicas a refresh copies.
  struct PerPart {
    std::vector<std::uint64_t> edges_within;  // [k] = in-edges of hops < k, k = 1..max_hops
    std::vector<std::uint64_t> vertices_within;  // [k] = vertices of hop <= k
    std::uint32_t complete = 0;                  // hops counted exactly
  };
  std::vector<PerPart> per(a.parts);
  const double size_limit = memory_budget * (static_cast<double>(t.vertex_count) + static_cast<double>(t.edge_count));
  for (std::int64_t p = 0; p < static_cast<std::int64_t>(a.parts); ++p) {  // (hop_levels uses every thread)
    HopLevels l = hop_levels(t, a, static_cast<std::uint32_t>(p), max_hops, size_limit);
    PerPart& pp = per[p];
    pp.complete = l.complete;
    pp.edges_within.assign(max_hops + 1, 0);
    pp.vertices_within.assign(max_hops + 1, 0);
    std::uint64_t e = 0, v = 0;
    for (std::uint32_t h = 0; h <= max_hops; ++h) {
      v += l.members[h].size();
      pp.vertices_within[h] = v;
      if (h < max_hops) {
        for (VertexId u : l.members[h]) e += t.in_degree(u);
        pp.edges_within[h + 1] = e;
      }
    }
  }
  // A refresh also costs a synchronization of every GPU, worth about this many edge visits.
  constexpr double kRefreshLatency = 2.0e5;
  HopChoice choice;
  double best = 0.0;
  const double global_size = static_cast<double>(t.vertex_count) + static_cast<double>(t.edge_count);
  for (std::uint32_t h = 1; h <= max_hops; ++h) {
    HopEstimate est;
    est.hops = h;
    std::uint64_t local_v = 0, local_e = 0;
    double round = 0.0, slowest_refresh = 0.0;
    for (std::uint32_t s = 0; s < h; ++s) {  // stage s processes the in-edges of hops < h - s
      std::uint64_t slowest = 0;
      for (const PerPart& pp : per) slowest = std::max(slowest, pp.edges_within[h - s]);
      round += static_cast<double>(slowest);
    }
    for (const PerPart& pp : per) {
      const std::uint64_t replicas = pp.vertices_within[h] - pp.vertices_within[0];
      est.replicas += replicas;
      local_v += pp.vertices_within[h];
      local_e += pp.edges_within[h];
      slowest_refresh = std::max(slowest_refresh, static_cast<double>(replicas));
    }
    round += slowest_refresh * refresh_cost_per_vertex + (a.parts > 1 ? kRefreshLatency : 0.0);
    est.cost_per_superstep = round / h;
    est.vertex_factor = t.vertex_count == 0 ? 1.0 : static_cast<double>(local_v) / t.vertex_count;
    est.edge_factor = t.edge_count == 0 ? 1.0 : static_cast<double>(local_e) / t.edge_count;
    bool counted = true;  // a partition stopped counting before h hops: over budget
    for (const PerPart& pp : per) counted = counted && pp.complete >= h;
    est.within_budget = h == 1 || global_size == 0 ||
                        (counted && (static_cast<double>(local_v) + static_cast<double>(local_e)) /
                                            global_size <= memory_budget);
    if (est.within_budget && (h == 1 || est.cost_per_superstep < best)) {
      best = est.cost_per_superstep;
      choice.hops = h;
    }
    choice.estimates.push_back(est);
  }
  return choice;
}

std::string HopChoice::describe() const {
  std::ostringstream os;
  os << "replication hops " << hops << " (cost model:";
  for (const HopEstimate& e : estimates) {
    char buf[160];
    std::snprintf(buf, sizeof buf, " h=%u cost %.3g/superstep, %.2fx vertices, %.2fx edges%s;", e.hops,
                  e.cost_per_superstep, e.vertex_factor, e.edge_factor,
                  e.within_budget ? "" : " over budget");
    os << buf;
  }
  os << ")";
  return os.str();
}

}  // namespace medusa
