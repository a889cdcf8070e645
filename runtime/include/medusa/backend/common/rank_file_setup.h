// The set-up of a distributed run from per-rank partition files (Config::partitionFiles,
// partition/rank_files.h): each rank reads its own file, checks with the others that every file
// comes from one medusa-part run, and builds the engine of its partition over the records of the
// user's Graph on that rank, which holds every vertex (the fields the program set by vertex ID) and
// the partition's local edges in the file's order (the samples load them with
// samples::load_edges). No rank reads the whole graph. Dump_Result then sends every rank's written
// vertex fields to rank 0 (distributed_results.h).
#pragma once

#include <medusa/backend/common/distributed_results.h>
#include <medusa/backend/common/partition_setup.h>
#include <medusa/backend/common/partition_view.h>
#include <medusa/config.h>
#include <medusa/error.h>
#include <medusa/graph.h>
#include <medusa/partition/plan.h>
#include <medusa/partition/rank_files.h>
#include <medusa/transport/byte_block.h>
#include <medusa/transport/transport.h>
#include <medusa/vertex_order.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace medusa::common {

inline constexpr const char* kRankFilesStep = "set-up (every rank's partition file)";

// What a program must not do when run from partition files: refused with the reason. (`conf`: the
// session's, whose gpuCount is the partitions over every rank.)
template <class Program>
void check_rank_file_run(const Config& conf, std::uint32_t ranks) {
  const std::string what = "Config::partitionFiles (" + conf.partitionFiles + ")";
  MEDUSA_REQUIRE(conf.distributed && ranks >= 2,
                 what + ": partition files are read by the ranks of an MPI job: run it with mpirun -np N "
                        "(N >= 2, as many ranks as files) and Config::distributed (samples: --distributed)");
  MEDUSA_REQUIRE(conf.gpuCount == static_cast<int>(ranks),
                 what + ": the files hold one partition per rank; Config::gpuCount asks for " +
                     std::to_string(conf.gpuCount) + " partitions over " + std::to_string(ranks) +
                     " ranks (leave it at 1, or set it to the number of ranks)");
  MEDUSA_REQUIRE(conf.replicationHops <= 1, what + ": the files hold one hop of replicas, and Config::"
                                                   "replicationHops asks for " +
                                                   std::to_string(conf.replicationHops));
  MEDUSA_REQUIRE(conf.vertexOrder != VertexOrder::Degree,
                 what + ": the files keep each partition's vertices in ascending ID order; "
                        "Config::vertexOrder = Degree needs the graph (run without partition files)");
  MEDUSA_REQUIRE(!Program::uses.edge_reads_combined,
                 what + ": an ELIST/EDGE functor reads combined_msg() of a head vertex, which partitioned "
                        "runs do not replicate yet");
  MEDUSA_REQUIRE(WrittenFields<Program>().edge.empty(),
                 what + ": the program writes edge fields, and no rank holds the whole graph's edges to "
                        "receive them in Dump_Result; run it without partition files");
  // (last: for such a program it always throws, and nvcc warns of unreachable checks after it)
  MEDUSA_REQUIRE(!Program::uses.neighbor_sets,
                 what + ": the program reads neighbour sets (neighbors(), tail_neighbors(), head_neighbors()), "
                        "and the files hold no vertex's whole out-edge row; run it without partition files "
                        "(rank 0 lays out the partitions)");
}

// Rank 0 compares every rank's file ids with its own: files of another graph or another
// partitioning are an error naming the rank and the file.
inline void check_same_partitioning(transport::Transport& t, const RankFile& mine, const std::string& prefix) {
  std::vector<std::byte> block;
  const std::uint64_t ids[2] = {mine.header.graph_id, mine.header.partitioning_id};
  transport::put(block, ids, 2);
  const auto blocks = t.gather_to_root(block, kRankFilesStep);
  for (std::uint32_t r = 1; r < blocks.size(); ++r) {
    std::size_t at = 0;
    const auto graph = transport::get<std::uint64_t>(blocks[r], at, kRankFilesStep);
    const auto partitioning = transport::get<std::uint64_t>(blocks[r], at, kRankFilesStep);
    if (graph == ids[0] && partitioning == ids[1]) continue;
    MEDUSA_THROW("rank " + std::to_string(r) + "'s partition file " + rank_file_name(prefix, r, t.ranks()) +
                 (graph != ids[0] ? " was made from another graph" : " is of another partitioning of the graph") +
                 " than rank 0's " + mine.path + ": make every rank's file in one run of medusa-part --rank-files");
  }
}

// This rank's plan from its file, the engine of its partition and the owned vertices' order. Returns the host bytes of the
// records the engine was built from.
template <class Program, class Engine, class GraphType>
std::uint64_t rank_file_engines(transport::Transport& t, const Config& conf, const GraphType& graph,
                                PartitionPlan& plan, std::vector<std::unique_ptr<Engine>>& engines,
                                VertexOrderChoice& order) {
  const std::uint32_t rank = t.rank();
  check_rank_file_run<Program>(conf, t.ranks());
  RankFile file = read_rank_file(conf.partitionFiles, rank, t.ranks(), RankFilePart::Plan);
  check_same_partitioning(t, file, conf.partitionFiles);
  plan = std::move(file.plan);
  order.requested = conf.vertexOrder;
  order.order = plan.owned_order;
  order.reason = "the partition files' order";
  const PartitionLayout& l = plan.partitions[rank];
  MEDUSA_REQUIRE(!Program::uses.in_edges || !l.owned_row_offsets.empty(),
                 "Config::partitionFiles (" + conf.partitionFiles + "): rank " + std::to_string(rank) + "'s file " +
                     file.path + " holds no whole out-rows, which the program's ELIST functor over in-edges "
                     "(InEdgeList) needs: make the files with medusa-part --rank-files ... --in-edges");
  MEDUSA_REQUIRE(graph.vertex_count() == plan.global_vertices && graph.edge_count() == l.topology.edge_count,
                 "Init_Device_DS: rank " + std::to_string(rank) + "'s graph has " +
                     std::to_string(graph.vertex_count()) + " vertices and " + std::to_string(graph.edge_count()) +
                     " edges, but its partition file " + file.path + " wants every vertex of the graph (" +
                     std::to_string(plan.global_vertices) + ") and the partition's " +
                     std::to_string(l.topology.edge_count) +
                     " local edges: build the Graph from the file's edges (read_rank_file with "
                     "RankFilePart::Edges; samples::load_edges does)");
  std::vector<VertexId> seeds(graph.initially_active());
  check_seeds(seeds, plan.global_vertices);
  std::sort(seeds.begin(), seeds.end());
  // The partition's records in local order: vertices by global ID, the edges as the file lists them.
  GraphType records(l.vertex_count());
  for (VertexId i = 0; i < l.vertex_count(); ++i) records.vertices()[i] = graph.vertices()[l.global_id[i]];
  records.edges() = graph.edges();
  Config engine_conf = conf;
  engine_conf.gpuCount = static_cast<int>(plan.parts);
  engine_conf.replicationHops = plan.hops;  // (the engines' choice of fused forms depends on it)
  PartitionView view = PartitionView::of(l);
  view.records_local = true;
  engines.push_back(std::make_unique<Engine>(view, records, local_seeds(seeds, l), engine_conf, l.index));
  using Vertex = typename GraphType::vertex_type;
  using Edge = typename GraphType::edge_type;
  return records.vertices().size() * sizeof(Vertex) + records.edges().size() * sizeof(Edge);
}

// What one process holds of the whole graph (its records and topology), for the verbose report's
// shares: no rank holds it here.
template <class GraphType>
std::uint64_t one_process_graph_bytes(const PartitionPlan& plan) {
  return plan.global_vertices * sizeof(typename GraphType::vertex_type) +
         plan.global_edges * sizeof(typename GraphType::edge_type) +
         topology_bytes(plan.global_vertices, plan.global_edges);
}

}  // namespace medusa::common
