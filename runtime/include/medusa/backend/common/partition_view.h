// What one partition engine is built from, and the element ranges one launch covers. A
// single-partition run views the whole graph; a partitioned run one PartitionLayout.
#pragma once

#include <medusa/partition/plan.h>
#include <medusa/topology.h>
#include <medusa/types.h>

#include <cstdint>

namespace medusa::common {

struct PartitionView {
  std::uint32_t index = 0;
  const Topology* topology = nullptr;          // local IDs
  const VertexId* global_id = nullptr;         // null: local IDs are global
  const std::uint32_t* out_degree = nullptr;   // null: degrees from the topology
  const std::uint32_t* in_degree = nullptr;
  const EdgeIndex* input_edge = nullptr;       // local CSR position -> the user's edge index
  VertexId owned_count = 0;                    // local vertices [0, owned_count) are owned
  VertexId combine_count = 0;                  // local vertices [0, combine_count) have in-edges here
  // Every out-edge of each owned vertex (PartitionLayout::owned_row_offsets): the rows a pulled
  // in-edge pass walks. Null: the topology's out-rows are whole (one partition).
  const EdgeIndex* owned_row_offsets = nullptr;
  const VertexId* owned_row_dst = nullptr;
  const NeighborRows* neighbor_rows = nullptr;  // partitioned neighbour sets; null: the topology's rows
  // The graph the engine gets holds this partition's records alone, vertices in local order and
  // edges in local CSR order (a rank's received partition: partition_transfer.h), not the user's
  // whole graph reached through global_id and input_edge.
  bool records_local = false;

  const VertexId* vertex_record_order() const { return records_local ? nullptr : global_id; }
  const EdgeIndex* edge_record_order() const { return records_local ? nullptr : input_edge; }

  static PartitionView whole(const Topology& t) {
    PartitionView v;
    v.topology = &t;
    v.input_edge = t.input_edge.data();
    v.owned_count = t.vertex_count;
    v.combine_count = t.vertex_count;
    return v;
  }
  static PartitionView of(const PartitionLayout& l) {
    PartitionView v;
    v.index = l.index;
    v.topology = &l.topology;
    v.global_id = l.global_id.data();
    v.out_degree = l.out_degree.data();
    v.in_degree = l.in_degree.data();
    v.input_edge = l.input_edge.data();
    v.owned_count = l.owned_count();
    v.combine_count = l.hop_begin[l.hop_begin.size() - 2];  // every hop but the outermost
    if (!l.owned_row_offsets.empty()) {
      v.owned_row_offsets = l.owned_row_offsets.data();
      v.owned_row_dst = l.owned_row_dst.data();
    }
    if (!l.neighbor_rows.offsets.empty()) v.neighbor_rows = &l.neighbor_rows;
    return v;
  }
};

// Local elements one launch visits. Vertex-side kinds (VERTEX, MLIST) visit vertices
// [0, vertex_end); edge-side kinds (ELIST, EDGE) visit the vertices / out-edges of heads
// [head_begin, head_end). MESSAGE visits every slot.
struct LaunchRange {
  VertexId vertex_end = 0;
  VertexId head_begin = 0, head_end = 0;

  static LaunchRange whole(VertexId vertices) { return {vertices, 0, vertices}; }
  bool covers_all(VertexId vertices) const {
    return vertex_end == vertices && head_begin == 0 && head_end == vertices;
  }
};

}  // namespace medusa::common
