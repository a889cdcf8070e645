// A partition's graph on the GPU: topology (CSR, reverse CSR, rID, the layout's column slots, pull
// fusion's in-edges), the user's fields as structure-of-arrays, their upload and Dump_Result.
#pragma once

#include <medusa/backend/common/edge_layout.h>
#include <medusa/backend/common/field_staging.h>
#include <medusa/backend/common/in_edge_pull.h>
#include <medusa/backend/common/partition_view.h>
#include <medusa/backend/cuda/buffer.h>
#include <medusa/backend/cuda/engine/core.cuh>
#include <medusa/device_api.h>
#include <medusa/graph.h>
#include <medusa/program.h>
#include <medusa/topology.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <vector>

namespace medusa::gpu {

// A part of PartitionEngine<Program> (= Engine, which holds the sizes, the stream and the device).
template <class Program, class Engine>
class DeviceGraph {
 public:
  using Vertex = typename Program::Vertex;
  using Edge = typename Program::Edge;
  using VertexArrays = typename Program::VertexArrays;
  using EdgeArrays = typename Program::EdgeArrays;

  // Copies the kDownload fields of the owned vertices and of the local edges into `graph`.
  void download(Graph<Vertex, Edge>& graph) {
    Engine& e = self();
    gpu::DeviceScope on(e.device_.ordinal);
    e.issue_held();
    e.require_exact_counts();
    e.stream_.sync();
    std::vector<std::byte> staging;
    download_fields(Program::vertex_fields, d_vertex_fields_, graph.vertices().data(),
                    sizeof(Vertex), e.owned_count_,
                    records_local_ || global_id_.empty() ? nullptr : global_id_.data(), staging);
    download_fields(Program::edge_fields, d_edge_fields_, graph.edges().data(), sizeof(Edge), e.E_,
                    records_local_ ? nullptr : input_edge_.data(), staging);
  }

  std::byte* vertex_field(std::size_t i) { return d_vertex_fields_[i].data(); }  // (replica exchange)
  const VertexArrays& vertex_arrays() const { return vertex_arrays_; }
  const EdgeArrays& edge_arrays() const { return edge_arrays_; }
  // The context of a pulled in-edge pass (common::owned_rows_ctx): on several partitions it walks
  // each owned vertex's whole out-row; its receivers and out-edges.
  KernelCtx<typename Program::Message> in_edge_rows_ctx(const KernelCtx<typename Program::Message>& c) const {
    const bool rows = d_owned_row_offsets_.size() > 0;
    return common::owned_rows_ctx(c, self().owned_count_, rows ? d_owned_row_offsets_.data() : nullptr,
                                  d_owned_row_dst_.data());
  }
  std::uint64_t in_edge_rows_edges() const { return owned_row_edges_; }
  // Local out-edges of heads [lo, hi), and the CSR position of head v's first out-edge.
  std::uint64_t out_edge_range(VertexId lo, VertexId hi) const { return first_out_edge(hi) - first_out_edge(lo); }
  EdgeIndex first_out_edge(VertexId v) const { return out_offsets_[v]; }

 protected:
  Engine& self() { return static_cast<Engine&>(*this); }
  const Engine& self() const { return static_cast<const Engine&>(*this); }

  // The topology, copied as built on the host, and a partition's global view for the functors.
  void upload_topology(const common::PartitionView& view, const Topology& t) {
    Engine& e = self();
    const std::uint64_t V = e.V_, E = e.E_;
    cudaStream_t s = e.stream_.get();
    d_out_offsets_.allocate(t.out_offsets.size());
    d_out_offsets_.upload(t.out_offsets.data(), t.out_offsets.size(), s);
    d_out_dst_.allocate(E);
    d_out_dst_.upload(t.out_dst.data(), E, s);
    d_edge_src_.allocate(E);
    d_edge_src_.upload(t.edge_src.data(), E, s);
    d_rid_.allocate(E);
    d_rid_.upload(t.rid.data(), E, s);
    d_in_offsets_.allocate(t.in_offsets.size());
    d_in_offsets_.upload(t.in_offsets.data(), t.in_offsets.size(), s);
    if (view.global_id != nullptr) {  // partitioned: the functors' global view
      d_global_id_.allocate(V);
      d_global_id_.upload(view.global_id, V, s);
      d_out_degree_.allocate(V);
      d_out_degree_.upload(view.out_degree, V, s);
      d_in_degree_.allocate(V);
      d_in_degree_.upload(view.in_degree, V, s);
      global_id_.assign(view.global_id, view.global_id + V);
    }
    if (view.neighbor_rows != nullptr) {  // partitioned neighbour sets: whole rows, global IDs
      const NeighborRows& rows = *view.neighbor_rows;
      d_neighbor_offsets_.allocate(rows.offsets.size());
      d_neighbor_offsets_.upload(rows.offsets.data(), rows.offsets.size(), s);
      d_neighbor_ids_.allocate(rows.ids.size());
      d_neighbor_ids_.upload(rows.ids.data(), rows.ids.size(), s);
    }
    owned_row_edges_ = E;
    if (view.owned_row_offsets != nullptr) {  // (partitioned in-edge programs: common::PartitionView)
      const std::uint64_t owned = e.owned_count_;
      owned_row_edges_ = view.owned_row_offsets[owned];
      d_owned_row_offsets_.allocate(owned + 1);
      d_owned_row_offsets_.upload(view.owned_row_offsets, owned + 1, s);
      d_owned_row_dst_.allocate(owned_row_edges_);
      d_owned_row_dst_.upload(view.owned_row_dst, owned_row_edges_, s);
    }
    if (view.global_id != nullptr || view.neighbor_rows != nullptr || view.owned_row_offsets != nullptr)
      e.stream_.sync();  // the view's arrays may go away
    out_offsets_ = t.out_offsets;
  }

  // The layout's column slots (common/edge_layout.h), built on the host from the CSR.
  void upload_column_edges(const Topology& t) {
    Engine& e = self();
    const common::ColumnMajorEdges c = common::build_column_major(t, layout_.width);
    d_column_dst_.allocate(c.dst.size());
    d_column_dst_.upload(c.dst.data(), c.dst.size(), e.stream_.get());
    d_column_rid_.allocate(c.rid.size());
    d_column_rid_.upload(c.rid.data(), c.rid.size(), e.stream_.get());
    e.stream_.sync();  // `c` goes away
  }

  // in_src and in_pos (the in-edge's position among its source's out-edges) for the fused pass,
  // and 4-byte out-degrees for the functors' edge_count(): the fused pass asks it of a random
  // source per in-edge, and the two 8-byte CSR offsets it would read instead double the bytes
  // that must stay in L2 beside the gathered field (PageRank: rank + offsets = 48 MB at scale 22).
  // Also the fused pass's one message per source (engine/fusion.cuh).
  void upload_in_edges(const Topology& t) {
    Engine& e = self();
    const std::uint64_t V = e.V_, E = e.E_;
    std::vector<std::uint32_t> pos(E);
    for (std::uint64_t j = 0; j < E; ++j)
      pos[j] = static_cast<std::uint32_t>(t.in_edge[j] - t.out_offsets[t.in_src[j]]);
    d_in_src_.allocate(E);
    d_in_src_.upload(t.in_src.data(), E, e.stream_.get());
    d_in_pos_.allocate(E);
    d_in_pos_.upload(pos.data(), E, e.stream_.get());
    std::vector<std::uint32_t> degree;
    if (global_id_.empty()) {  // (a partition's functors read global degrees: uploaded already)
      degree.resize(V);
      for (std::uint64_t v = 0; v < V; ++v) degree[v] = static_cast<std::uint32_t>(t.out_degree(static_cast<VertexId>(v)));
      d_out_degree_.allocate(V);
      d_out_degree_.upload(degree.data(), V, e.stream_.get());
    }
    e.d_source_messages_.allocate(V);
    e.d_bit_range_.allocate(2);
    e.h_bit_range_ = gpu::PinnedBuffer<unsigned long long>(2);
    e.stream_.sync();  // `pos` and `degree` go away
  }

  // User fields as structure-of-arrays: vertices in local ID order, edges in CSR order.
  void upload_user_fields(const common::PartitionView& view, const Graph<Vertex, Edge>& graph) {
    Engine& e = self();
    std::vector<std::byte> staging;
    upload_fields(Program::vertex_fields, d_vertex_fields_, vertex_ptrs_, graph.vertices().data(),
                  sizeof(Vertex), e.V_, view.vertex_record_order(), staging);
    upload_fields(Program::edge_fields, d_edge_fields_, edge_ptrs_, graph.edges().data(),
                  sizeof(Edge), e.E_, view.edge_record_order(), staging);
    records_local_ = view.records_local;
    vertex_arrays_ = Program::bind_vertex(vertex_ptrs_.data());
    edge_arrays_ = Program::bind_edge(edge_ptrs_.data());

    input_edge_.assign(view.input_edge, view.input_edge + e.E_);
  }

  // The topology's part of a launch's KernelCtx.
  void topology_ctx(KernelCtx<typename Program::Message>& c) const {
    c.out_offsets = d_out_offsets_.data();
    c.out_dst = d_out_dst_.data();
    c.edge_src = d_edge_src_.data();
    c.rid = d_rid_.data();
    c.in_offsets = d_in_offsets_.data();
    c.global_id = d_global_id_.data();
    c.out_degree = d_out_degree_.data();
    c.in_degree = d_in_degree_.data();
    c.neighbor_offsets = d_neighbor_offsets_.data();
    c.neighbor_ids = d_neighbor_ids_.data();
  }

  template <class Specs, class Index>
  void upload_fields(const Specs& specs, std::vector<gpu::DeviceBuffer<std::byte>>& bufs,
                     std::array<void*, std::tuple_size<Specs>::value>& ptrs, const void* records,
                     std::size_t record_size, std::uint64_t count, const Index* order,
                     std::vector<std::byte>& staging) {
    cudaStream_t s = self().stream_.get();
    bufs.resize(specs.size());
    for (std::size_t i = 0; i < specs.size(); ++i) {
      const FieldSpec& f = specs[i];
      bufs[i].allocate(f.size * count);
      ptrs[i] = bufs[i].data();
      if (count == 0) continue;
      if (common::needs_upload(f)) {
        staging.resize(f.size * count);
        common::gather_field(records, record_size, count, f, staging.data(), order);
        // Pageable source: returns once the bytes are staged, so `staging` may be reused.
        bufs[i].upload(staging.data(), staging.size(), s);
      } else {
        bufs[i].zero(s);  // neither read nor written: allocated for the proxies only
      }
    }
  }

  template <class Specs, class Index>
  void download_fields(const Specs& specs, const std::vector<gpu::DeviceBuffer<std::byte>>& bufs,
                       void* records, std::size_t record_size, std::uint64_t count,
                       const Index* order, std::vector<std::byte>& staging) {
    const Engine& e = self();
    for (std::size_t i = 0; i < specs.size(); ++i) {
      const FieldSpec& f = specs[i];
      if (!(f.direction & kDownload) || count == 0) continue;
      staging.resize(f.size * count);
      bufs[i].download(staging.data(), staging.size(), e.stream_.get());
      e.stream_.sync();
      common::scatter_field(staging.data(), f, records, record_size, count, order);
    }
  }

  static constexpr std::size_t kVertexFields = std::tuple_size<decltype(Program::vertex_fields)>::value;
  static constexpr std::size_t kEdgeFields = std::tuple_size<decltype(Program::edge_fields)>::value;

  common::EdgeLayoutChoice layout_;
  gpu::DeviceBuffer<VertexId> d_in_src_;       // pull fusion: in-edge sources
  gpu::DeviceBuffer<std::uint32_t> d_in_pos_;  // and positions among their out-edges
  std::vector<EdgeIndex> input_edge_;   // CSR position -> input order, for Dump_Result
  std::vector<VertexId> global_id_;     // partitioned: local -> global, for Dump_Result
  bool records_local_ = false;          // (common::PartitionView::records_local)
  std::vector<EdgeIndex> out_offsets_;  // host copy, for the edge ranges of launches
  gpu::DeviceBuffer<VertexId> d_global_id_;
  gpu::DeviceBuffer<std::uint32_t> d_out_degree_, d_in_degree_;  // partitioned (global); out: also pull fusion
  gpu::DeviceBuffer<EdgeIndex> d_neighbor_offsets_;  // partitioned neighbour sets (partition/plan.h
  gpu::DeviceBuffer<VertexId> d_neighbor_ids_;       // NeighborRows); empty otherwise
  gpu::DeviceBuffer<EdgeIndex> d_owned_row_offsets_;  // partitioned in-edge programs: whole out-rows
  gpu::DeviceBuffer<VertexId> d_owned_row_dst_;
  std::uint64_t owned_row_edges_ = 0;                 // (their edges; else the local edges)

  gpu::DeviceBuffer<EdgeIndex> d_out_offsets_;
  gpu::DeviceBuffer<VertexId> d_out_dst_;
  gpu::DeviceBuffer<VertexId> d_edge_src_;
  gpu::DeviceBuffer<EdgeIndex> d_rid_;
  gpu::DeviceBuffer<EdgeIndex> d_in_offsets_;
  gpu::DeviceBuffer<EdgeIndex> d_column_rid_;  // the layout's column slots
  gpu::DeviceBuffer<VertexId> d_column_dst_;
  std::vector<gpu::DeviceBuffer<std::byte>> d_vertex_fields_, d_edge_fields_;
  std::array<void*, kVertexFields> vertex_ptrs_{};
  std::array<void*, kEdgeFields> edge_ptrs_{};
  VertexArrays vertex_arrays_{};
  EdgeArrays edge_arrays_{};
};

}  // namespace medusa::gpu
