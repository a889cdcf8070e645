// Dump_Result of a distributed run: each rank downloaded the written (kDownload) fields of the
// vertices its partitions own and of the edges they hold; every rank sends those values to every
// other (one all-gather), so each rank's graph ends up with the whole result, as in one process.
// A rank holds the layouts of its own partitions only (PartitionLayout::held), so each block says
// where its values go. Block of a rank: for each partition it owns (ascending), the owned
// vertices' global IDs (when a vertex field is written) and the edges' input indices (when an
// edge field is), then each written vertex field of the owned vertices, then each written edge
// field of the partition's edges. The counts are in every rank's plan.
#pragma once

#include <medusa/backend/common/field_staging.h>
#include <medusa/partition/plan.h>
#include <medusa/program.h>
#include <medusa/transport/transport.h>

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

namespace medusa::common {

template <class Program, class GraphType>
void gather_results(transport::Transport& t, const PartitionPlan& plan, GraphType& graph) {
  std::vector<FieldSpec> vertex_fields, edge_fields;
  for (const FieldSpec& f : Program::vertex_fields)
    if (f.direction & kDownload) vertex_fields.push_back(f);
  for (const FieldSpec& f : Program::edge_fields)
    if (f.direction & kDownload) edge_fields.push_back(f);
  if (vertex_fields.empty() && edge_fields.empty()) return;
  auto* vertices = graph.vertices().data();
  auto* edges = graph.edges().data();
  const transport::PartitionOwnership own = t.ownership();

  // Appends `bytes` bytes of `data` to `block`.
  const auto append = [](std::vector<std::byte>& block, const void* data, std::size_t bytes) {
    const std::size_t at = block.size();
    block.resize(at + bytes);
    if (bytes != 0) std::memcpy(block.data() + at, data, bytes);
  };
  std::vector<std::byte> mine;
  for (const PartitionLayout& l : plan.partitions) {
    if (!own.owns(l.index)) continue;
    if (!vertex_fields.empty()) append(mine, l.global_id.data(), l.owned_count() * sizeof(VertexId));
    if (!edge_fields.empty()) append(mine, l.input_edge.data(), l.topology.edge_count * sizeof(EdgeIndex));
    for (const FieldSpec& f : vertex_fields) {
      const std::size_t at = mine.size();
      mine.resize(at + l.owned_count() * f.size);
      gather_field(vertices, l.owned_count(), f, mine.data() + at, l.global_id.data());
    }
    for (const FieldSpec& f : edge_fields) {
      const std::size_t at = mine.size();
      mine.resize(at + l.topology.edge_count * f.size);
      gather_field(edges, l.topology.edge_count, f, mine.data() + at, l.input_edge.data());
    }
  }
  const std::vector<std::vector<std::byte>> blocks = t.all_gather(mine);
  for (std::uint32_t r = 0; r < own.ranks; ++r) {
    if (r == own.rank) continue;
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
      std::vector<VertexId> ids(vertex_fields.empty() ? 0 : owned);
      std::vector<EdgeIndex> edge_ids(edge_fields.empty() ? 0 : local_edges);
      if (!ids.empty()) std::memcpy(ids.data(), take(owned * sizeof(VertexId)), owned * sizeof(VertexId));
      if (!edge_ids.empty())
        std::memcpy(edge_ids.data(), take(local_edges * sizeof(EdgeIndex)), local_edges * sizeof(EdgeIndex));
      for (const FieldSpec& f : vertex_fields) scatter_field(take(owned * f.size), f, vertices, owned, ids.data());
      for (const FieldSpec& f : edge_fields)
        scatter_field(take(local_edges * f.size), f, edges, local_edges, edge_ids.data());
    }
  }
}

}  // namespace medusa::common
