// How a partitioned run lays the graph out: per partition, its owned vertices, the replicas of the
// head vertices it needs (the paper's section 4.3), the local edges and the routes replicas are
// refreshed along. Built once on the host from a vertex assignment; both backends consume it.
//
// Local vertex order in a partition: owned vertices (ascending global ID, or by descending in + out
// degree with VertexOrder::Degree: vertex_order.h), then hop-1 replicas,
// hop-2 replicas, ... (each hop grouped by owner, in the owner's order of its owned vertices: the
// hubs' replicas first in degree order). Local edges are the in-edges
// of every local vertex of hop < hops, so with one hop exactly the in-edges of the owned vertices:
// every edge lives in its tail's partition and messages never cross partitions. Edges are in local
// CSR order (by local head), so the edges of the vertices below a hop boundary form a prefix.
#pragma once

#include <medusa/config.h>
#include <medusa/partition/assignment.h>
#include <medusa/topology.h>
#include <medusa/types.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace medusa {

// Programs that read neighbour sets (neighbor_sets.h), on k partitions: the whole out-neighbour row
// of every local vertex, sorted by global ID. A partition's local edges are the in-edges of its
// owned vertices, so they hold only part of any vertex's row; these rows are what neighbors(),
// tail_neighbors() and head_neighbors() read there, and two of them intersect in one ID space.
struct NeighborRows {
  std::vector<EdgeIndex> offsets;  // local vertices + 1; empty: the program reads no neighbour sets
  std::vector<VertexId> ids;       // global IDs, ascending within each row (repeated edges repeat)
};

// Local vertices [begin, end) of one partition copy the owner partition's local vertices
// owner_local[0 .. end - begin).
struct ReplicaRoute {
  std::uint32_t owner = 0;
  VertexId begin = 0, end = 0;
  std::vector<VertexId> owner_local;
};

struct PartitionLayout {
  std::uint32_t index = 0;
  // False in a distributed run for another rank's partition: only its sizes (topology's counts,
  // hop_begin) and its routes are kept, the owner_local lists only of the routes this rank sends.
  bool held = true;
  Topology topology;                      // local IDs
  std::vector<VertexId> global_id;        // local vertex -> global vertex
  std::vector<VertexId> hop_begin;        // hops + 2 entries: local vertices of hop h are
                                          // [hop_begin[h], hop_begin[h + 1]); hop 0 = owned
  std::vector<std::uint32_t> out_degree;  // global out-degree of each local vertex
  std::vector<std::uint32_t> in_degree;   // global in-degree of each local vertex
  std::vector<EdgeIndex> input_edge;      // local CSR position -> the edge's index in the user's graph
  std::vector<ReplicaRoute> replicas;     // one route per (hop, owner) group
  // Plans built with owned_rows (for functors over in-edges, in_edges.h): every out-edge of each
  // owned vertex, in the unpartitioned graph's order, as the target's local ID. Targets neither
  // owned nor a head of a local edge are extra hop-1 replicas, refreshed as the others. Else empty.
  std::vector<EdgeIndex> owned_row_offsets;  // owned_count() + 1
  std::vector<VertexId> owned_row_dst;
  NeighborRows neighbor_rows;             // (add_neighbor_rows)
  std::uint64_t neighbor_row_bytes = 0;   // of neighbor_rows, kept where only sizes are (held = false)

  VertexId owned_count() const { return hop_begin[1]; }
  VertexId vertex_count() const { return topology.vertex_count; }
  // Local vertices whose hop is at most h.
  VertexId vertices_within(std::uint32_t h) const {
    return hop_begin[std::min<std::size_t>(h + 1, hop_begin.size() - 1)];
  }
  // Host bytes of this layout's arrays (local CSR, ID maps, degrees, routes).
  std::uint64_t resident_bytes() const;
};

struct PartitionPlan {
  std::uint32_t parts = 1;
  std::uint32_t hops = 1;
  VertexOrder owned_order = VertexOrder::Input;  // of each partition's owned vertices
  std::string method;  // how vertices were assigned
  VertexId global_vertices = 0;
  EdgeIndex global_edges = 0;
  std::vector<PartitionLayout> partitions;

  // Local vertices summed over partitions / V (1.0: no replicas).
  double replication_factor() const;
  // Local edges summed over partitions / E (> 1 only with hops > 1).
  double edge_factor() const;
  // Replica vertices refreshed per round (sum of route lengths).
  std::uint64_t replica_count() const;
  // Host bytes of the layouts held here (resident_bytes of each).
  std::uint64_t resident_bytes() const;
  // Bytes of every partition's neighbour rows (0 unless the program reads neighbour sets).
  std::uint64_t neighbor_row_bytes() const;
  std::string describe() const;
};

// Host bytes of a topology's arrays.
std::uint64_t resident_bytes(const Topology& t);
// The same of a topology of `vertices` and `edges` once built (for a graph no process builds).
std::uint64_t topology_bytes(VertexId vertices, EdgeIndex edges);

// Builds the layouts for `hops` >= 1 hops of replicas. Throws medusa::Error if the assignment does
// not cover the topology. With `held` (one flag per partition; empty: all), the partitions not
// held get only their sizes and routes (PartitionLayout::held): a rank of a distributed run keeps
// the local graphs of its own partitions only, and the routes it sends along.
// `built`, when given, sees each layout as it is made (partition 0, 1, ...), before the next: rank 0
// of a distributed run sends it to its rank there and keeps only what it holds. `owned_rows` adds
// PartitionLayout::owned_row_offsets / owned_row_dst and their replicas (one hop only).
PartitionPlan build_partition_plan(const Topology& t, const PartitionAssignment& a, std::uint32_t hops,
                                   VertexOrder owned_order = VertexOrder::Input,
                                   const std::vector<bool>& held = {},
                                   const std::function<void(PartitionLayout&)>& built = {},
                                   bool owned_rows = false);

// What a rank that does not hold `full` keeps of it (PartitionLayout::held = false): its sizes and
// routes, the owner_local lists only of the routes whose owner partition is held (`held`, one flag
// per partition). The same as build_partition_plan gives with those flags.
PartitionLayout sizes_and_routes(const PartitionLayout& full, const std::vector<bool>& held);

// A layout as bytes and back, for rank 0 to send each rank its partitions (appended to `out`;
// read_layout starts at `at` and moves it past the layout). Throws medusa::Error on a short block.
void write_layout(std::vector<std::byte>& out, const PartitionLayout& l);
PartitionLayout read_layout(const std::vector<std::byte>& in, std::size_t& at);

// Fills l.neighbor_rows from the whole graph `t` (l held): each local vertex's out-row, sorted.
void add_neighbor_rows(PartitionLayout& l, const Topology& t);

// The multi-hop cost model (paper appendix A.3): per round of h supersteps a partitioned run pays
// one replica refresh and h supersteps over the local (replicated) graph. Estimates the time per
// superstep for h = 1 .. max_hops from the replica counts and local sizes, and picks the cheapest h
// whose memory (local vertices + edges over V + E) stays within `memory_budget`.
struct HopEstimate {
  std::uint32_t hops = 1;
  double vertex_factor = 1.0, edge_factor = 1.0;  // local / global, summed over partitions
  std::uint64_t replicas = 0;                     // refreshed per round
  double cost_per_superstep = 0.0;                // model units: edge visits
  bool within_budget = true;
};
struct HopChoice {
  std::uint32_t hops = 1;
  std::vector<HopEstimate> estimates;
  std::string describe() const;
};
// refresh_cost_per_vertex: cost of refreshing one replica in edge-visit units (the transfer of its
// fields relative to processing one edge).
HopChoice choose_replication_hops(const Topology& t, const PartitionAssignment& a, std::uint32_t max_hops,
                                  double memory_budget, double refresh_cost_per_vertex);

}  // namespace medusa
