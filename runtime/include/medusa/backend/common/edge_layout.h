// The edge layouts of the paper (Config::layout): CSR, column-major, and a hybrid of the two.
//
// A thread-per-vertex ELIST loop (one medusa-cc could not prove edge-parallel) has lane v read its
// vertex's i-th out-edge in iteration i. Under CSR the warp's 32 reads of one iteration are a
// degree apart; column-major keeps out-edge i of vertex v at column slot i * V + v, so they are
// consecutive. Column-major pads every vertex to the largest out-degree, which skewed graphs
// cannot afford; the hybrid keeps the first `width` out-edges of each vertex column-major and
// reads the rest from CSR (Bell and Garland's HYB format for SpMV).
//
// Edge IDs stay CSR positions everywhere: the column slots hold copies of what the loop reads
// (the edge's tail and its message slot, the rid), so edge fields, edge frontiers,
// Dump_Result and the edge-parallel launches are unchanged. Those launches read CSR in order
// already, so the column slots are used by thread-per-vertex ELIST loops only.
#pragma once

#include <medusa/config.h>
#include <medusa/topology.h>
#include <medusa/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace medusa::common {

struct EdgeLayoutChoice {
  Layout layout = Layout::CSR;   // CSR, ColumnMajor or Hybrid (never Auto)
  std::uint32_t width = 0;       // out-edges per vertex kept column-major (0 for CSR)
  std::uint64_t column_edges = 0;  // edges held in the column slots
  std::uint64_t column_slots = 0;  // width * V, padding included
  std::uint64_t edge_count = 0;
  std::string reason;            // why this layout, for report()

  bool columns() const { return width != 0; }
  // Bytes of one column slot (tail and rid) and of all of them: what CSR reads per edge too.
  static constexpr std::uint64_t kSlotBytes = sizeof(EdgeIndex) + sizeof(VertexId);
  std::uint64_t bytes() const { return column_slots * kSlotBytes; }
  // "hybrid: out-edges 0..3 column-major (...), the rest CSR; <reason>"
  std::string describe() const;
};

// Where the engine runs: a GPU gains from coalesced loops, a CPU core reads each vertex's CSR
// edges in order already.
enum class LayoutTarget { Gpu, Cpu };

// The layout for `requested` (Config::layout). Auto picks a column-major part only on the GPU and
// only for programs with thread-per-vertex ELIST loops (ProgramUses::vertex_edge_loops): its width
// is the largest w with at least a third of the vertices of out-degree >= w (HYB's rule), the
// whole column-major layout when that covers every vertex, CSR when w < 4 or when the column part
// would hold less than half of the edges (hub-dominated graphs). Throws medusa::Error
// for ColumnMajor on a graph whose padding would exceed `max_column_slots`.
EdgeLayoutChoice choose_edge_layout(const std::vector<EdgeIndex>& out_offsets, Layout requested,
                                    bool vertex_edge_loops, LayoutTarget target,
                                    std::uint64_t max_column_slots);

// The column slots of `width` out-edges per vertex: slot i * V + v holds the tail and rid of
// out-edge i of v, or kInvalidVertex and kNoColumnRid where v has fewer out-edges.
struct ColumnMajorEdges {
  std::vector<VertexId> dst;
  std::vector<EdgeIndex> rid;
};
inline constexpr EdgeIndex kNoColumnRid = ~EdgeIndex{0};
ColumnMajorEdges build_column_major(const Topology& t, std::uint32_t width);

}  // namespace medusa::common
