// Where a PartitionedSession's engines come from, once, in its constructor: one engine over the
// whole graph; k partitions laid out here from the user's graph (distributed: rank 0 lays them out
// and sends each rank its own, partition_transfer.h); on the other ranks, what rank 0 sent; or each
// rank's own partition file (Config::partitionFiles: rank_file_setup.h).
#pragma once

#include <medusa/backend/common/partition_setup.h>
#include <medusa/backend/common/partition_transfer.h>
#include <medusa/backend/common/partition_view.h>
#include <medusa/backend/common/rank_file_setup.h>
#include <medusa/backend/common/rank_group.h>
#include <medusa/backend/common/setup_clock.h>
#include <medusa/config.h>
#include <medusa/partition/assignment.h>
#include <medusa/partition/plan.h>
#include <medusa/topology.h>
#include <medusa/vertex_order.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace medusa::common {

// What the set-up found besides the plan, the engines and the owned vertices' order.
struct EngineSetup {
  GraphShape shape;                     // who holds the user's graph; the whole graph's counts
  std::uint32_t hops = 0;               // of replicas (0: one partition, none)
  std::string hop_choice;               // why so many, for the verbose report (empty: the user's or the plan's)
  std::uint64_t graph_bytes = 0;        // this rank's host bytes: the user's graph and the engines' records
  std::uint64_t whole_graph_bytes = 0;  // one process's whole graph when no rank holds it (0: rank 0's graph)
};

// Fills `plan`, `engines` (engines[i] holds partition ranks.ownership().partition(i)) and `order`
// for `parts` partitions. `conf` is the session's; its replicationHops becomes the hops chosen
// before partitions laid out here get their engines (their choice of fused forms depends on it).
// `clock` times the phases of a graph laid out here (the caller times the engines).
template <class Program, class Engine, class Exchange, class GraphType>
EngineSetup set_up_engines(GraphType& graph, Config& conf, RankGroup& ranks, std::uint32_t parts,
                           PartitionPlan& plan, std::vector<std::unique_ptr<Engine>>& engines,
                           VertexOrderChoice& order, SetupClock& clock) {
  using Vertex = typename Program::Vertex;
  using Edge = typename Program::Edge;
  EngineSetup s;
  s.shape = {GraphHolders::EveryRank, graph.vertex_count(), graph.edge_count()};
  if (ranks.distributed() && conf.partitionFiles.empty())
    s.shape = graph_holders(ranks.transport(), graph.vertex_count(), graph.edge_count());
  s.graph_bytes = graph.vertices().size() * sizeof(Vertex) + graph.edges().size() * sizeof(Edge);
  if (!conf.partitionFiles.empty()) {
    s.graph_bytes += rank_file_engines<Program>(ranks.transport(), conf, graph, plan, engines, order);
    s.shape = {GraphHolders::NoRank, plan.global_vertices, plan.global_edges};
    s.whole_graph_bytes = one_process_graph_bytes<GraphType>(plan);
    s.hops = plan.hops;
    return s;
  }
  if (ranks.distributed() && !ranks.reports()) {  // (rank 0 lays out the partitions and sends them)
    s.graph_bytes += receive_engines<Program>(ranks.transport(), conf, plan, engines);
    s.hops = plan.hops;
    return s;
  }
  const Topology& t = graph.topology();
  clock.lap("topology");
  check_seeds(graph.initially_active(), s.shape.vertices);
  s.graph_bytes += resident_bytes(t);
  if (parts == 1) {
    engines.push_back(whole_graph_engine<Program, Engine>(graph, t, conf, order));
    return s;
  }
  std::vector<VertexId> seeds(graph.initially_active());
  std::sort(seeds.begin(), seeds.end());
  const PartitionAssignment a = assign_partitions(t, parts, conf);
  clock.lap("partitioning");
  const ReplicationChoice c = choose_replication<Program, Exchange>(t, a, conf, seeds);
  clock.lap("replication choice");
  s.hops = conf.replicationHops = c.hops;
  s.hop_choice = c.reason;
  order = c.order;
  plan = ranks.distributed()
             ? send_partitions<Program>(ranks.transport(), t, a, s.hops, order.order, graph, seeds,
                                       Program::uses.in_edges)
             : build_partition_plan(
                   t, a, s.hops, order.order, {}, [&](PartitionLayout& l) { add_rows_read<Program>(l, t); },
                   Program::uses.in_edges);
  clock.lap("layouts");
  for (std::uint32_t i = 0; i < ranks.ownership().owned_count(parts); ++i) {  // (i = p in one process)
    const PartitionLayout& l = plan.partitions[ranks.ownership().partition(i)];
    // (slot l.index: partition p on GPU p / partitionsPerGpu)
    engines.push_back(std::make_unique<Engine>(PartitionView::of(l), graph, local_seeds(seeds, l), conf, l.index));
  }
  return s;
}

}  // namespace medusa::common
