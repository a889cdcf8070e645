// The host-side graph a user builds with AddVertex/AddEdge (paper Table 2) or from edge arrays.
// Vertex and Edge are the user's plain structs, stored as arrays of structs; the device copies
// only the fields the program uses, as structure-of-arrays.
#pragma once

#include <medusa/error.h>
#include <medusa/topology.h>
#include <medusa/types.h>

#include <string>
#include <utility>
#include <vector>

namespace medusa {

template <class Vertex, class Edge>
class Graph {
 public:
  using vertex_type = Vertex;
  using edge_type = Edge;

  Graph() = default;
  explicit Graph(VertexId vertex_count) : vertices_(vertex_count) {}

  VertexId AddVertex(const Vertex& v = Vertex{}) {
    MEDUSA_REQUIRE(vertices_.size() < kInvalidVertex, "too many vertices for 32-bit vertex IDs");
    vertices_.push_back(v);
    return static_cast<VertexId>(vertices_.size() - 1);
  }

  // Adds the directed edge src -> dst. IDs are checked when the topology is built.
  EdgeIndex AddEdge(VertexId src, VertexId dst, const Edge& e = Edge{}) {
    src_.push_back(src);
    dst_.push_back(dst);
    edges_.push_back(e);
    topology_valid_ = false;
    return edges_.size() - 1;
  }

  // Replaces all edges at once (src[i] -> dst[i]); edge data is value-initialised.
  void SetEdges(std::vector<VertexId> src, std::vector<VertexId> dst) {
    MEDUSA_REQUIRE(src.size() == dst.size(), "edge arrays differ in length");
    edges_.assign(src.size(), Edge{});
    src_ = std::move(src);
    dst_ = std::move(dst);
    topology_valid_ = false;
  }

  VertexId vertex_count() const { return static_cast<VertexId>(vertices_.size()); }
  EdgeIndex edge_count() const { return edges_.size(); }

  Vertex& vertex(VertexId v) { return vertices_[v]; }
  const Vertex& vertex(VertexId v) const { return vertices_[v]; }
  // Edges are indexed in input (AddEdge) order.
  Edge& edge(EdgeIndex e) { return edges_[e]; }
  const Edge& edge(EdgeIndex e) const { return edges_[e]; }
  VertexId edge_src(EdgeIndex e) const { return src_[e]; }
  VertexId edge_dst(EdgeIndex e) const { return dst_[e]; }

  std::vector<Vertex>& vertices() { return vertices_; }
  const std::vector<Vertex>& vertices() const { return vertices_; }
  std::vector<Edge>& edges() { return edges_; }
  const std::vector<Edge>& edges() const { return edges_; }

  // Host-side seed of the active set for the first superstep (e.g. the BFS source).
  void SetActive(VertexId v) { initially_active_.push_back(v); }
  const std::vector<VertexId>& initially_active() const { return initially_active_; }
  void ClearActive() { initially_active_.clear(); }

  // CSR / reverse CSR / rID, built on first use and cached until edges change.
  const Topology& topology() const {
    if (!topology_valid_) {
      topology_ = Topology::build(vertex_count(), src_, dst_);
      topology_valid_ = true;
    }
    return topology_;
  }

 private:
  std::vector<Vertex> vertices_;
  std::vector<Edge> edges_;
  std::vector<VertexId> src_, dst_;
  std::vector<VertexId> initially_active_;
  mutable Topology topology_;
  mutable bool topology_valid_ = false;
};

}  // namespace medusa
