// Dump_Result of a distributed run: each rank downloaded the written (kDownload) fields of the
// vertices its partitions own and of the edges they hold; every rank sends those values to every
// other (one all-gather), so each rank's graph ends up with the whole result, as in one process.
// Block of a rank: for each partition it owns (ascending), each written vertex field of the owned
// vertices, then each written edge field of the partition's edges.
#pragma once

#include <medusa/backend/common/field_staging.h>
#include <medusa/partition/plan.h>
#include <medusa/program.h>
#include <medusa/transport/transport.h>

#include <cstddef>
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

  // Calls move(field, records of that kind, count, record order) for each field of rank r's block.
  const auto each_field = [&](std::uint32_t r, const auto& move) {
    for (const PartitionLayout& l : plan.partitions) {
      if (own.rank_of(l.index) != r) continue;
      for (const FieldSpec& f : vertex_fields) move(f, vertices, l.owned_count(), l.global_id.data());
      for (const FieldSpec& f : edge_fields) move(f, edges, l.topology.edge_count, l.input_edge.data());
    }
  };
  std::vector<std::byte> mine;
  each_field(own.rank, [&](const FieldSpec& f, const auto* records, std::size_t count, const auto* order) {
    const std::size_t at = mine.size();
    mine.resize(at + count * f.size);
    gather_field(records, count, f, mine.data() + at, order);
  });
  const std::vector<std::vector<std::byte>> blocks = t.all_gather(mine);
  for (std::uint32_t r = 0; r < own.ranks; ++r) {
    if (r == own.rank) continue;
    std::size_t at = 0;
    each_field(r, [&](const FieldSpec& f, auto* records, std::size_t count, const auto* order) {
      MEDUSA_REQUIRE(at + count * f.size <= blocks[r].size(),
                     "Dump_Result: rank " + std::to_string(r) + " sent fewer results than its partitions hold");
      scatter_field(blocks[r].data() + at, f, records, count, order);
      at += count * f.size;
    });
  }
}

}  // namespace medusa::common
