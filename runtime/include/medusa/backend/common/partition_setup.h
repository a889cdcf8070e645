// What a partitioned run decides before its engines exist: which partition owns each vertex (read
// from a partition file, or cut and saved), how many hops of replicas, the owned vertices' order,
// and each partition's share of the seeds. PartitionedSession calls these once, in its constructor.
#pragma once

#include <medusa/backend/common/aggregate_steps.h>
#include <medusa/backend/common/multi_hop.h>
#include <medusa/backend/common/partition_view.h>
#include <medusa/backend/common/pull_fusion.h>
#include <medusa/backend/common/replicated_state.h>
#include <medusa/config.h>
#include <medusa/error.h>
#include <medusa/partition/assignment.h>
#include <medusa/partition/plan.h>
#include <medusa/program.h>
#include <medusa/topology.h>
#include <medusa/vertex_order.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace medusa::common {

// Config::partitionFile when it exists, else a new cut (written to the file when one is named).
inline PartitionAssignment assign_partitions(const Topology& t, std::uint32_t parts, const Config& conf) {
  const std::string& file = conf.partitionFile;
  if (!file.empty() && std::ifstream(file).good()) return load_partition(file, t.vertex_count, parts);
  PartitionAssignment a = partition_vertices(t, parts, conf.partitionMethod);
  if (!file.empty()) save_partition(file, a);
  return a;
}

struct ReplicationChoice {
  std::uint32_t hops = 1;
  std::string reason;        // for the verbose report (empty when the user set the hops)
  VertexOrderChoice order;   // of each partition's owned vertices
};

// What the owned vertices' order weighs of the program: its uses and how much its seeds (sorted)
// reach.
template <class Program>
ProgramReach program_reach(const Topology& t, const std::vector<VertexId>& seeds) {
  ProgramReach r;
  r.by_id = Program::uses.reads_by_id || Program::uses.sends_by_id;
  r.frontier = Program::uses.vertex_frontier || Program::uses.edge_frontier;
  r.edges = t.edge_count;
  r.dense_fraction = kFrontierPullFraction;  // (the frontier a pass pulls)
  for (VertexId v : seeds) r.seed_edges += t.out_degree(v);
  return r;
}

// Hops of replicas: Config::replicationHops, else 1 when the program rules out more, else the cost
// model's choice (Exchange::refresh_cost_per_vertex prices a refresh). The owned vertices' order:
// choose_partition_vertex_order for the program and its seeds (sorted).
template <class Program, class Exchange>
ReplicationChoice choose_replication(const Topology& t, const PartitionAssignment& a, const Config& conf,
                                     const std::vector<VertexId>& seeds) {
  constexpr std::uint32_t kMaxAutoHops = 4;
  MEDUSA_REQUIRE(!Program::uses.edge_reads_combined,
                 "gpuCount = " + std::to_string(conf.gpuCount) +
                     ": an ELIST/EDGE functor reads combined_msg() of a head vertex, which "
                     "partitioned runs do not replicate yet; run it with gpuCount = 1");
  ReplicationChoice c;
  const char* obstacle = with_aggregates<Program>(multi_hop_obstacle<Program>());
  if (conf.replicationHops > 1 && obstacle != nullptr)
    MEDUSA_THROW("Config::replicationHops = " + std::to_string(conf.replicationHops) +
                 ": multi-hop replication is not possible because " + obstacle +
                 "; use replicationHops = 1 (or 0 to let Medusa choose)");
  if (conf.replicationHops >= 1) {
    c.hops = conf.replicationHops;
  } else if (obstacle != nullptr) {
    c.reason = std::string("replication hops 1 (multi-hop not possible: ") + obstacle + ")";
  } else {
    const HopChoice h = choose_replication_hops(
        t, a, kMaxAutoHops, conf.replicationMemoryBudget,
        Exchange::refresh_cost_per_vertex(ReplicatedState<Program>::of_program().bytes_per_replica()));
    c.hops = h.hops;
    c.reason = h.describe();
  }
  c.order = choose_partition_vertex_order(t, conf.vertexOrder, program_reach<Program>(t, seeds));
  return c;
}

inline void check_seeds(const std::vector<VertexId>& seeds, std::uint64_t vertex_count) {
  for (VertexId v : seeds)
    MEDUSA_REQUIRE(v < vertex_count, "graph.SetActive(" + std::to_string(v) + "): no such vertex (the graph has " +
                                         std::to_string(vertex_count) + " vertices)");
}

// Seeds for one partition: every local copy (owned or replica) of a seeded vertex.
inline std::vector<VertexId> local_seeds(const std::vector<VertexId>& sorted, const PartitionLayout& l) {
  std::vector<VertexId> out;
  for (VertexId i = 0; i < l.vertex_count(); ++i)
    if (std::binary_search(sorted.begin(), sorted.end(), l.global_id[i])) out.push_back(i);
  return out;
}

// What a program may not do on more than one partition (or over MPI ranks): refused with a reason.
template <class Program>
void check_partitionable(std::uint32_t parts, const Config& conf, bool distributed) {
  // A pulled in-edge pass walks each owned vertex's whole out-row, whose edges' fields live in
  // their tails' partitions.
  MEDUSA_REQUIRE(parts == 1 || !Program::uses.in_edges || Program::edge_fields.empty(),
                 "gpuCount = " + std::to_string(conf.gpuCount) + (distributed ? " over MPI ranks" : "") +
                     ": the program has an ELIST functor over in-edges (InEdgeList) and edge fields, "
                     "which partitions keep only with each edge's tail; run it with gpuCount = 1 in one process");
}

// A partition's local edges hold part of each vertex's out-row: a program that reads neighbour sets
// gets every local vertex's whole row besides (plan.h NeighborRows), from the whole graph `t`.
template <class Program>
void add_rows_read(PartitionLayout& l, const Topology& t) {
  if constexpr (Program::uses.neighbor_sets) add_neighbor_rows(l, t);
}

// The engine of a one-partition run: the user's IDs, or the vertices renumbered by degree
// (vertex_order.h). Neighbour sets need each row sorted by the IDs the engine uses.
template <class Program, class Engine, class GraphType>
std::unique_ptr<Engine> whole_graph_engine(GraphType& graph, const Topology& t, const Config& conf,
                                           VertexOrderChoice& order) {
  // Vertex ids that functors hold in fields (reads and sends by id) are the user's.
  const bool by_id = Program::uses.reads_by_id || Program::uses.sends_by_id;
  order = choose_vertex_order(t, by_id ? VertexOrder::Input : conf.vertexOrder, available_host_bytes());
  if (by_id) order.reason = "input order: the program reads or sends by vertex id";
  constexpr bool sorted_rows = Program::uses.neighbor_sets;
  if (!order.by_degree()) {
    if constexpr (sorted_rows) {  // (the engine copies what it needs: the sorted copy goes when this returns)
      const Topology sorted = t.with_sorted_rows();
      return std::make_unique<Engine>(PartitionView::whole(sorted), graph, graph.initially_active(), conf, 0);
    }
    return std::make_unique<Engine>(PartitionView::whole(t), graph, graph.initially_active(), conf, 0);
  }
  const PartitionLayout renumbered = degree_ordered_layout(t, sorted_rows);
  std::vector<VertexId> seeds(graph.initially_active());
  std::sort(seeds.begin(), seeds.end());
  return std::make_unique<Engine>(PartitionView::of(renumbered), graph, local_seeds(seeds, renumbered), conf, 0);
}

}  // namespace medusa::common
