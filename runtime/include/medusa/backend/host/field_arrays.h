// The user's fields of one host partition as structure-of-arrays: gathered from the user's graph by
// Init_Device_DS (vertices in local ID order, edges in CSR order), scattered back by Dump_Result.
#pragma once

#include <medusa/backend/common/field_staging.h>
#include <medusa/device_api.h>
#include <medusa/program.h>
#include <medusa/types.h>

#include <array>
#include <cstddef>
#include <vector>

namespace medusa::host {

template <class Program>
class FieldArrays {
 public:
  using VertexArrays = typename Program::VertexArrays;
  using EdgeArrays = typename Program::EdgeArrays;

  // `to_global`: local -> global vertex IDs (null in a single-partition run); `input_edge`: CSR
  // position -> input order.
  template <class GraphType>
  void gather(const GraphType& graph, VertexId vertices, EdgeIndex edges, const VertexId* to_global,
              const EdgeIndex* input_edge) {
    for (std::size_t i = 0; i < Program::vertex_fields.size(); ++i) {
      const FieldSpec& f = Program::vertex_fields[i];
      vertex_storage_[i].assign(f.size * vertices, std::byte{0});
      if (common::needs_upload(f))
        common::gather_field(graph.vertices().data(), vertices, f, vertex_storage_[i].data(), to_global);
      vertex_pointers_[i] = vertex_storage_[i].data();
    }
    for (std::size_t i = 0; i < Program::edge_fields.size(); ++i) {
      const FieldSpec& f = Program::edge_fields[i];
      edge_storage_[i].assign(f.size * edges, std::byte{0});
      if (common::needs_upload(f))
        common::gather_field(graph.edges().data(), edges, f, edge_storage_[i].data(), input_edge);
      edge_pointers_[i] = edge_storage_[i].data();
    }
    vertex_arrays_ = Program::bind_vertex(vertex_pointers_.data());
    edge_arrays_ = Program::bind_edge(edge_pointers_.data());
  }

  // Copies the kDownload fields of the first `owned` vertices and of the edges into `graph`.
  template <class GraphType>
  void scatter(GraphType& graph, VertexId owned, EdgeIndex edges, const VertexId* to_global,
               const EdgeIndex* input_edge) const {
    for (std::size_t i = 0; i < Program::vertex_fields.size(); ++i) {
      const FieldSpec& f = Program::vertex_fields[i];
      if (f.direction & kDownload)
        common::scatter_field(vertex_storage_[i].data(), f, graph.vertices().data(), owned, to_global);
    }
    for (std::size_t i = 0; i < Program::edge_fields.size(); ++i) {
      const FieldSpec& f = Program::edge_fields[i];
      if (f.direction & kDownload)
        common::scatter_field(edge_storage_[i].data(), f, graph.edges().data(), edges, input_edge);
    }
  }

  const VertexArrays& vertex_arrays() const { return vertex_arrays_; }
  const EdgeArrays& edge_arrays() const { return edge_arrays_; }
  std::byte* vertex_field(std::size_t i) { return vertex_storage_[i].data(); }

 private:
  std::array<std::vector<std::byte>, Program::vertex_fields.size()> vertex_storage_;
  std::array<std::vector<std::byte>, Program::edge_fields.size()> edge_storage_;
  std::array<void*, Program::vertex_fields.size()> vertex_pointers_{};
  std::array<void*, Program::edge_fields.size()> edge_pointers_{};
  VertexArrays vertex_arrays_{};
  EdgeArrays edge_arrays_{};
};

}  // namespace medusa::host
