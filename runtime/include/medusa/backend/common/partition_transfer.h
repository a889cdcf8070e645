// How the ranks of a distributed run get their partitions (docs/multi-gpu.md, "Who loads the
// graph"): rank 0 lays out every partition from its graph and sends each rank, one partition after
// another, the layouts of its own partitions with their initialised vertex and edge fields and
// seeds, and of the others just their sizes and the routes it sends along. The other ranks never
// read their own graph here: they may pass one without edges (the samples do), and then never
// hold the whole graph. Whether a rank passed the whole graph decides only who gets the results
// (graph_holders; distributed_results.h).
#pragma once

#include <medusa/backend/common/field_staging.h>
#include <medusa/backend/common/partition_setup.h>
#include <medusa/backend/common/partition_view.h>
#include <medusa/config.h>
#include <medusa/error.h>
#include <medusa/graph.h>
#include <medusa/partition/assignment.h>
#include <medusa/partition/plan.h>
#include <medusa/program.h>
#include <medusa/topology.h>
#include <medusa/transport/byte_block.h>
#include <medusa/transport/transport.h>
#include <medusa/vertex_order.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace medusa::common {

enum class GraphHolders {
  EveryRank,  // every rank passed the whole graph (one process, or a program that builds it everywhere)
  RankZero,   // the other ranks passed a graph without edges
  NoRank,     // each rank read its own partition file (Config::partitionFiles: rank_file_setup.h)
};

namespace transfer {

constexpr const char* kBlock = "distributed set-up: a block from rank 0";
using transport::put;
inline const std::byte* take(const std::vector<std::byte>& in, std::size_t& at, std::size_t bytes) {
  return transport::take(in, at, bytes, kBlock);
}
template <class T>
T get(const std::vector<std::byte>& in, std::size_t& at) {
  return transport::get<T>(in, at, kBlock);
}

}  // namespace transfer

// Each rank passes its graph's counts; rank 0 decides and tells every rank the whole graph's.
struct GraphShape {
  GraphHolders holders = GraphHolders::EveryRank;
  std::uint64_t vertices = 0, edges = 0;
};
inline GraphShape graph_holders(transport::Transport& t, std::uint64_t vertices, std::uint64_t edges) {
  const std::uint64_t mine[2] = {vertices, edges};
  std::vector<std::byte> block;
  transfer::put(block, mine, 2);
  const auto sizes = t.gather_to_root(block, "set-up (the size of every rank's graph)");
  std::vector<std::vector<std::byte>> answers;
  if (t.rank() == 0) {
    GraphShape s{GraphHolders::EveryRank, vertices, edges};
    bool every = true, zero = edges != 0;
    for (std::uint32_t r = 1; r < sizes.size(); ++r) {
      std::size_t at = 0;
      const auto v = transfer::get<std::uint64_t>(sizes[r], at), e = transfer::get<std::uint64_t>(sizes[r], at);
      every = every && v == vertices && e == edges;
      zero = zero && e == 0;
      MEDUSA_REQUIRE(every || zero,
                     "Init_Device_DS (distributed): rank " + std::to_string(r) + " passed a graph of " +
                         std::to_string(v) + " vertices and " + std::to_string(e) + " edges, rank 0 one of " +
                         std::to_string(vertices) + " and " + std::to_string(edges) +
                         ": pass every rank the same graph, or the whole graph on rank 0 and one without "
                         "edges on the others (they receive their partitions from rank 0)");
    }
    s.holders = every ? GraphHolders::EveryRank : GraphHolders::RankZero;
    std::vector<std::byte> answer;
    const std::uint64_t words[3] = {static_cast<std::uint64_t>(s.holders), vertices, edges};
    transfer::put(answer, words, 3);
    answers.assign(t.ranks(), answer);
  }
  const std::vector<std::byte> answer = t.scatter_from_root(answers, "set-up (the graph's size from rank 0)");
  std::size_t at = 0;
  GraphShape s;
  s.holders = static_cast<GraphHolders>(transfer::get<std::uint64_t>(answer, at));
  s.vertices = transfer::get<std::uint64_t>(answer, at);
  s.edges = transfer::get<std::uint64_t>(answer, at);
  return s;
}

// The steps of the set-up, as a timeout names them.
inline constexpr const char* kPlanStep = "set-up (the partition plan from rank 0)";
inline constexpr const char* kPartitionStep = "set-up (a partition from rank 0)";

// What every rank needs of the plan besides the layouts (rank 0 sends it first).
inline std::vector<std::byte> pack_plan_header(const PartitionPlan& p) {
  std::vector<std::byte> out;
  const std::uint64_t words[6] = {p.parts, p.hops, static_cast<std::uint64_t>(p.owned_order), p.global_vertices,
                                  p.global_edges, p.method.size()};
  transfer::put(out, words, 6);
  transfer::put(out, p.method.data(), p.method.size());
  return out;
}
inline PartitionPlan unpack_plan_header(const std::vector<std::byte>& in) {
  std::size_t at = 0;
  PartitionPlan p;
  p.parts = static_cast<std::uint32_t>(transfer::get<std::uint64_t>(in, at));
  p.hops = static_cast<std::uint32_t>(transfer::get<std::uint64_t>(in, at));
  p.owned_order = static_cast<VertexOrder>(transfer::get<std::uint64_t>(in, at));
  p.global_vertices = static_cast<VertexId>(transfer::get<std::uint64_t>(in, at));
  p.global_edges = transfer::get<std::uint64_t>(in, at);
  const auto length = transfer::get<std::uint64_t>(in, at);
  const auto* chars = reinterpret_cast<const char*>(transfer::take(in, at, length));
  p.method.assign(chars, chars + length);
  p.partitions.resize(p.parts);
  return p;
}

// A partition a rank runs, as received: its layout, the fields its engine uploads (vertex
// records in local order, edge records in local CSR order) and its seeds (local IDs).
template <class Vertex, class Edge>
struct ReceivedRecords {
  Graph<Vertex, Edge> records;  // (no topology: only vertices() and edges() are used)
  std::vector<VertexId> seeds;
};

// Rank 0's block for the rank that runs partition `l`: the layout, the seeds, then each uploaded
// field of the local vertices and edges (the fields a program neither reads nor writes stay home).
template <class Program, class GraphType>
std::vector<std::byte> pack_partition(const PartitionLayout& l, const GraphType& graph,
                                      const std::vector<VertexId>& sorted_seeds) {
  std::vector<std::byte> out;
  write_layout(out, l);
  const std::vector<VertexId> seeds = local_seeds(sorted_seeds, l);
  const std::uint64_t count = seeds.size();
  transfer::put(out, &count, 1);
  transfer::put(out, seeds.data(), seeds.size());
  for (const FieldSpec& f : Program::vertex_fields) {
    if (!needs_upload(f)) continue;
    const std::size_t at = out.size();
    out.resize(at + f.size * l.vertex_count());
    gather_field(graph.vertices().data(), l.vertex_count(), f, out.data() + at, l.global_id.data());
  }
  for (const FieldSpec& f : Program::edge_fields) {
    if (!needs_upload(f)) continue;
    const std::size_t at = out.size();
    out.resize(at + f.size * l.topology.edge_count);
    gather_field(graph.edges().data(), l.topology.edge_count, f, out.data() + at, l.input_edge.data());
  }
  return out;
}

// The inverse, on the rank that runs the partition: fills `l` and `got`.
template <class Program, class Vertex, class Edge>
void unpack_partition(const std::vector<std::byte>& in, std::size_t& at, const PartitionLayout& l,
                      ReceivedRecords<Vertex, Edge>& got) {
  got.seeds.resize(transfer::get<std::uint64_t>(in, at));
  if (!got.seeds.empty())
    std::memcpy(got.seeds.data(), transfer::take(in, at, got.seeds.size() * sizeof(VertexId)),
                got.seeds.size() * sizeof(VertexId));
  got.records = Graph<Vertex, Edge>(l.vertex_count());
  got.records.edges().resize(l.topology.edge_count);
  for (const FieldSpec& f : Program::vertex_fields)
    if (needs_upload(f))
      scatter_field(transfer::take(in, at, f.size * l.vertex_count()), f, got.records.vertices().data(),
                    l.vertex_count());
  for (const FieldSpec& f : Program::edge_fields)
    if (needs_upload(f))
      scatter_field(transfer::take(in, at, f.size * l.topology.edge_count), f, got.records.edges().data(),
                    l.topology.edge_count);
}

// Rank 0: the plan over its graph `t`, sending every other rank the plan's header, then each
// partition as it is laid out; rank 0 keeps the layouts of its own partitions, and of the others
// their sizes and routes.
template <class Program, class GraphType>
PartitionPlan send_partitions(transport::Transport& tr, const Topology& t, const PartitionAssignment& a,
                              std::uint32_t hops, VertexOrder order, const GraphType& graph,
                              const std::vector<VertexId>& sorted_seeds, bool owned_rows) {
  const transport::PartitionOwnership own = tr.ownership();
  PartitionPlan header;
  header.parts = a.parts;
  header.hops = hops;
  header.owned_order = order;
  header.method = a.method;
  header.global_vertices = t.vertex_count;
  header.global_edges = t.edge_count;
  tr.scatter_from_root(std::vector<std::vector<std::byte>>(tr.ranks(), pack_plan_header(header)), kPlanStep);
  // held_by[r][p]: rank r runs partition p
  std::vector<std::vector<bool>> held_by(tr.ranks(), std::vector<bool>(a.parts));
  for (std::uint32_t p = 0; p < a.parts; ++p) held_by[own.rank_of(p)][p] = true;
  return build_partition_plan(t, a, hops, order, {}, [&](PartitionLayout& l) {
    add_rows_read<Program>(l, t);
    std::vector<std::vector<std::byte>> blocks(tr.ranks());
    for (std::uint32_t r = 1; r < tr.ranks(); ++r) {
      if (own.rank_of(l.index) == r) blocks[r] = pack_partition<Program>(l, graph, sorted_seeds);
      else write_layout(blocks[r], sizes_and_routes(l, held_by[r]));
    }
    tr.scatter_from_root(blocks, kPartitionStep);
    if (!own.owns(l.index)) l = sizes_and_routes(l, held_by[0]);
  }, owned_rows);
}

// Another rank: the plan from rank 0, and the fields and seeds of its own partitions (in local
// engine order) in `received`.
template <class Program, class Vertex, class Edge>
PartitionPlan receive_partitions(transport::Transport& tr, std::vector<ReceivedRecords<Vertex, Edge>>& received) {
  PartitionPlan plan = unpack_plan_header(tr.scatter_from_root({}, kPlanStep));
  for (std::uint32_t p = 0; p < plan.parts; ++p) {
    const std::vector<std::byte> block = tr.scatter_from_root({}, kPartitionStep);
    std::size_t at = 0;
    plan.partitions[p] = read_layout(block, at);
    const PartitionLayout& l = plan.partitions[p];
    MEDUSA_REQUIRE(l.index == p && l.held == tr.ownership().owns(p),
                   "distributed set-up: rank 0 sent partition " + std::to_string(l.index) + " in place of " +
                       std::to_string(p));
    if (l.held) unpack_partition<Program>(block, at, l, received.emplace_back());
  }
  return plan;
}

// Another rank: the plan from rank 0, and the engines of its own partitions over the fields
// received (engines hold their own copies). Returns the bytes those fields took on the host.
template <class Program, class Engine>
std::uint64_t receive_engines(transport::Transport& tr, const Config& conf, PartitionPlan& plan,
                              std::vector<std::unique_ptr<Engine>>& engines) {
  using Vertex = typename Program::Vertex;
  using Edge = typename Program::Edge;
  std::vector<ReceivedRecords<Vertex, Edge>> received;
  plan = receive_partitions<Program>(tr, received);
  Config engine_conf = conf;
  engine_conf.replicationHops = plan.hops;  // (the engines' choice of fused forms depends on it)
  std::uint64_t bytes = 0;
  for (std::uint32_t i = 0; i < received.size(); ++i) {
    const PartitionLayout& l = plan.partitions[tr.ownership().partition(i)];
    PartitionView view = PartitionView::of(l);
    view.records_local = true;
    bytes += received[i].records.vertices().size() * sizeof(Vertex) + received[i].records.edges().size() * sizeof(Edge);
    engines.push_back(std::make_unique<Engine>(view, received[i].records, received[i].seeds, engine_conf, l.index));
  }
  return bytes;
}

}  // namespace medusa::common
