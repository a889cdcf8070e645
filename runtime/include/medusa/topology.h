// Graph structure without user data: forward CSR, reverse CSR and each edge's rID.
// Built once on the host; both backends copy these arrays as they are.
#pragma once

#include <medusa/types.h>

#include <vector>

namespace medusa {

struct Topology {
  VertexId vertex_count = 0;
  EdgeIndex edge_count = 0;

  // Forward CSR. Edge e (CSR position) goes edge_src[e] -> out_dst[e] (the paper's head -> tail).
  std::vector<EdgeIndex> out_offsets;  // vertex_count + 1
  std::vector<VertexId> out_dst;       // edge_count
  std::vector<VertexId> edge_src;      // edge_count
  // rid[e]: position of e's reverse edge in the reverse CSR, so messages to one vertex are contiguous.
  std::vector<EdgeIndex> rid;          // edge_count
  // Reverse CSR (in-edges grouped by destination). in_src[r] is the source of the in-edge at r.
  std::vector<EdgeIndex> in_offsets;   // vertex_count + 1
  std::vector<VertexId> in_src;        // edge_count
  std::vector<EdgeIndex> in_edge;      // edge_count: CSR position of the in-edge at r (inverse of rid)
  // input_edge[e]: index (in AddEdge / input order) of the edge at CSR position e.
  std::vector<EdgeIndex> input_edge;   // edge_count

  EdgeIndex out_degree(VertexId v) const { return out_offsets[v + 1] - out_offsets[v]; }
  EdgeIndex in_degree(VertexId v) const { return in_offsets[v + 1] - in_offsets[v]; }

  // Builds all arrays from an edge list in input order. Throws medusa::Error if an endpoint is
  // >= vertex_count. Edges keep their input order within each source (stable), duplicates and
  // self loops are kept.
  static Topology build(VertexId vertex_count, const std::vector<VertexId>& src,
                        const std::vector<VertexId>& dst);

  // The same graph with each vertex's out-edges ordered by destination (equal destinations keep
  // their order); input_edge still maps CSR positions to the user's edges. For neighbour sets.
  Topology with_sorted_rows() const;
};

}  // namespace medusa
