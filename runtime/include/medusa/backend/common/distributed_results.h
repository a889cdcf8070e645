// Dump_Result of a distributed run: each rank downloads the written (kDownload) fields of the
// vertices its partitions own and of the edges they hold, and sends those values on: to every
// other rank when every rank holds the graph (one all-gather), so each rank's graph ends up with
// the whole result, as in one process; to rank 0 alone when only rank 0 holds it
// (partition_transfer.h: graph_holders), or when no rank does (partition files). A rank holds the layouts of its own partitions only
// (PartitionLayout::held), so each block says where its values go. Block of a rank: for each
// partition it owns (ascending), the owned vertices' global IDs (when a vertex field is written)
// and the edges' input indices (when an edge field is), then each written vertex field of the
// owned vertices, then each written edge field of the partition's edges. The counts are in every
// rank's plan.
#pragma once

#include <medusa/backend/common/field_staging.h>
#include <medusa/backend/common/partition_transfer.h>
#include <medusa/partition/plan.h>
#include <medusa/program.h>
#include <medusa/transport/transport.h>

#include <cstddef>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace medusa::common {

template <class Program>
struct WrittenFields {
  std::vector<FieldSpec> vertex, edge;
  WrittenFields() {
    for (const FieldSpec& f : Program::vertex_fields)
      if (f.direction & kDownload) vertex.push_back(f);
    for (const FieldSpec& f : Program::edge_fields)
      if (f.direction & kDownload) edge.push_back(f);
  }
  bool empty() const { return vertex.empty() && edge.empty(); }
};

// This rank's block. records_of(layout) gives the graph its engine downloaded into, and whether
// that graph holds the partition's records alone, in local order (PartitionView::records_local).
template <class Program, class RecordsOf>
std::vector<std::byte> pack_results(const PartitionPlan& plan, const transport::PartitionOwnership& own,
                                    const RecordsOf& records_of) {
  const WrittenFields<Program> written;
  std::vector<std::byte> mine;
  // Appends `bytes` bytes of `data` to `mine`.
  const auto append = [&mine](const void* data, std::size_t bytes) {
    const std::size_t at = mine.size();
    mine.resize(at + bytes);
    if (bytes != 0) std::memcpy(mine.data() + at, data, bytes);
  };
  for (const PartitionLayout& l : plan.partitions) {
    if (!own.owns(l.index)) continue;
    const auto [graph, local] = records_of(l);
    if (!written.vertex.empty()) append(l.global_id.data(), l.owned_count() * sizeof(VertexId));
    if (!written.edge.empty()) append(l.input_edge.data(), l.topology.edge_count * sizeof(EdgeIndex));
    for (const FieldSpec& f : written.vertex) {
      const std::size_t at = mine.size();
      mine.resize(at + l.owned_count() * f.size);
      gather_field(graph->vertices().data(), l.owned_count(), f, mine.data() + at,
                   local ? nullptr : l.global_id.data());
    }
    for (const FieldSpec& f : written.edge) {
      const std::size_t at = mine.size();
      mine.resize(at + l.topology.edge_count * f.size);
      gather_field(graph->edges().data(), l.topology.edge_count, f, mine.data() + at,
                   local ? nullptr : l.input_edge.data());
    }
  }
  return mine;
}

// Writes the blocks of every rank but `skip` (in rank order) into `graph`.
template <class Program, class GraphType>
void unpack_results(const std::vector<std::vector<std::byte>>& blocks, const PartitionPlan& plan,
                    const transport::PartitionOwnership& own, std::uint32_t skip, GraphType& graph) {
  const WrittenFields<Program> written;
  auto* vertices = graph.vertices().data();
  auto* edges = graph.edges().data();
  for (std::uint32_t r = 0; r < blocks.size(); ++r) {
    if (r == skip) continue;
    const std::vector<std::byte>& block = blocks[r];
    std::size_t at = 0;
    // The next `bytes` of rank r's block.
    const auto take = [&](std::size_t bytes) {
      MEDUSA_REQUIRE(at + bytes <= block.size(),
                     "Dump_Result: rank " + std::to_string(r) + " sent fewer results than its partitions hold");
      const std::byte* p = block.data() + at;
      at += bytes;
      return p;
    };
    for (const PartitionLayout& l : plan.partitions) {
      if (own.rank_of(l.index) != r) continue;
      const std::size_t owned = l.owned_count(), local_edges = l.topology.edge_count;
      std::vector<VertexId> ids(written.vertex.empty() ? 0 : owned);
      std::vector<EdgeIndex> edge_ids(written.edge.empty() ? 0 : local_edges);
      if (!ids.empty()) std::memcpy(ids.data(), take(owned * sizeof(VertexId)), owned * sizeof(VertexId));
      if (!edge_ids.empty())
        std::memcpy(edge_ids.data(), take(local_edges * sizeof(EdgeIndex)), local_edges * sizeof(EdgeIndex));
      for (const FieldSpec& f : written.vertex) scatter_field(take(owned * f.size), f, vertices, owned, ids.data());
      for (const FieldSpec& f : written.edge)
        scatter_field(take(local_edges * f.size), f, edges, local_edges, edge_ids.data());
    }
  }
}

inline constexpr const char* kGatherStep = "Dump_Result (every rank's results to rank 0)";

// Dump_Result of a distributed run, after the engines of rank 0 downloaded into `graph` when it
// holds the whole graph: the other ranks' engines (and rank 0's, from partition files) download
// into records of their partitions alone, and every rank's block goes to rank 0, or to every rank
// when every rank holds the graph.
template <class Program, class Engines, class GraphType>
void collect_results(transport::Transport& t, const PartitionPlan& plan, const Engines& engines, GraphType& graph,
                     GraphHolders holders) {
  const transport::PartitionOwnership own = t.ownership();
  const bool root_downloaded = own.rank == 0 && holders != GraphHolders::NoRank;
  std::vector<GraphType> records(root_downloaded ? 0 : engines.size());
  for (std::uint32_t i = 0; i < records.size(); ++i) {
    const PartitionLayout& l = plan.partitions[own.partition(i)];
    records[i] = GraphType(l.owned_count());
    records[i].edges().resize(l.topology.edge_count);
    engines[i]->download(records[i]);
  }
  const std::vector<std::byte> mine = pack_results<Program>(plan, own, [&](const PartitionLayout& l) {
    return root_downloaded ? std::make_pair(&graph, false) : std::make_pair(&records[own.local_index(l.index)], true);
  });
  // Rank 0's own results are in its graph already; another rank's go in through its block.
  const std::uint32_t skip = root_downloaded ? 0 : ~std::uint32_t{0};
  if (holders == GraphHolders::EveryRank) unpack_results<Program>(t.all_gather(mine), plan, own, skip, graph);
  else if (const auto blocks = t.gather_to_root(mine, kGatherStep); own.rank == 0)
    unpack_results<Program>(blocks, plan, own, skip, graph);
}

}  // namespace medusa::common
