// The host (CPU, OpenMP) backend's engine: one partition of a run (the whole graph when gpuCount is
// 1) with the same semantics as the CUDA backend (docs/design/codegen-contract.md). Session<Program>
// (host/session.h) drives one engine per partition; partitioned runs on the host simulate the
// multi-GPU execution exactly, which is how CI checks it.
//
// As the CUDA engine, it is a composition of one part per concept (engine/*.h), each a base that
// reaches the others through the engine (CRTP):
//   Fusion           engine/fusion.h             pull-fused pass, push-combine, pending slots
//   PriorityFrontier engine/priority_frontier.h  SetActive(priority): the lowest bucket is Domain::Active
//   ByIdOutbox       engine/by_id_outbox.h       reads and sends by vertex id on partitions
#pragma once

#include <medusa/backend/common/combiner_ops.h>
#include <medusa/backend/common/domain_check.h>
#include <medusa/backend/common/edge_layout.h>
#include <medusa/backend/common/field_staging.h>
#include <medusa/backend/common/format_bytes.h>
#include <medusa/backend/common/partition_view.h>
#include <medusa/backend/common/partitioned_session.h>
#include <medusa/backend/common/priorities.h>
#include <medusa/backend/host/engine/by_id_outbox.h>
#include <medusa/backend/host/engine/fusion.h>
#include <medusa/backend/host/engine/priority_frontier.h>
#include <medusa/backend/host/field_arrays.h>
#include <medusa/backend/host/frontier.h>
#include <medusa/backend/host/host_array.h>
#include <medusa/backend/host/memory_info.h>
#include <medusa/config.h>
#include <medusa/device_api.h>
#include <medusa/error.h>
#include <medusa/graph.h>
#include <medusa/populated_vector.h>
#include <medusa/program.h>
#include <medusa/session.h>
#include <medusa/topology.h>
#include <medusa/types.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace medusa::host {

template <class Program>
class PartitionEngine : public host::Fusion<Program, PartitionEngine<Program>>,
                        public host::PriorityFrontier<Program, PartitionEngine<Program>>,
                        public host::ByIdOutbox<Program, PartitionEngine<Program>> {
  using FusionPart = host::Fusion<Program, PartitionEngine>;
  using PriorityPart = host::PriorityFrontier<Program, PartitionEngine>;
  using ByIdPart = host::ByIdOutbox<Program, PartitionEngine>;
  friend FusionPart;
  friend PriorityPart;
  friend ByIdPart;

 public:
  using Vertex = typename Program::Vertex;
  using Edge = typename Program::Edge;
  using Message = typename Program::Message;
  using VertexArrays = typename Program::VertexArrays;
  using EdgeArrays = typename Program::EdgeArrays;
  using GraphType = Graph<Vertex, Edge>;
  static constexpr bool kBatchesSupersteps = false;  // (the host has no read-back to save)
  static constexpr bool kFusesVertexIntoGather = false;  // (fewer passes save the host nothing)

  // Init_Device_DS for one partition: topology, memory check, structure-of-arrays (fields gathered
  // from the user's graph through the view's maps), message buffer, frontier seeded with `seeds`.
  PartitionEngine(const common::PartitionView& view, const GraphType& graph,
                  const std::vector<VertexId>& seeds, const Config& conf, std::uint32_t /*slot*/)
      : FusionPart(conf), conf_(conf), index_(view.index), owned_count_(view.owned_count),
        combine_count_(view.combine_count), records_local_(view.records_local) {
    copy_topology(view);
    check_memory();
    fields_.gather(graph, vertex_count_, edge_count_, view.vertex_record_order(), view.edge_record_order());
    allocate_runtime_buffers(seeds);
  }

  PartitionEngine(const PartitionEngine&) = delete;
  PartitionEngine& operator=(const PartitionEngine&) = delete;

  // Copies the kDownload fields of the owned vertices and of the local edges into `graph`.
  void download(GraphType& graph) const {
    fields_.scatter(graph, owned_count_, edge_count_,
                    records_local_ || global_id_.empty() ? nullptr : global_id_.data(),
                    records_local_ ? nullptr : input_edge_.data());
  }

  // Combiner(op): combined[v] = op-fold of v's slots, starting from the InitMessageBuffer value.
  template <class Op>
  void combine(const Op& op) {
    if constexpr (common::combines_only_sends_by_id<Program, Op>) {
      std::copy(sent_by_id_.data(), sent_by_id_.data() + combine_count_, combined_.data());
      return;
    }
    ensure_message_buffer();
    materialize_slots();
    const auto V = static_cast<std::int64_t>(combine_count_);  // the outermost replicas have no in-edges here
    const std::uint32_t m = conf_.messagesPerEdge;
    const EdgeIndex* in_off = in_offsets_.data();
    const Message* slots = messages_.data();
    Message* out = combined_.data();
    const Message init = init_value_;
#pragma omp parallel for schedule(dynamic, 1024) if (V > kSerialBelow)
    for (std::int64_t v = 0; v < V; ++v) {
      Message acc = init;
      const EdgeIndex end = in_off[v + 1] * m;
      for (EdgeIndex s = in_off[v] * m; s < end; ++s) acc = op(acc, slots[s]);
      if constexpr (Program::uses.sends_by_id) acc = op(acc, sent_by_id_[v]);  // (by_id.h)
      out[v] = acc;
    }
  }

  KernelCtx<Message> ctx() const { return ctx_; }
  const VertexArrays& vertex_arrays() const { return fields_.vertex_arrays(); }
  const EdgeArrays& edge_arrays() const { return fields_.edge_arrays(); }
  // For the replica exchange.
  std::byte* vertex_field(std::size_t i) { return fields_.vertex_field(i); }
  std::uint8_t* next_vertex_flags() { return vertex_frontier_.next_flags(); }
  std::uint64_t take_edges_visited() { return std::exchange(edges_visited_, 0); }
  void abandon() {}
  // The global aggregates' slots this partition's functors add to and read.
  medusa::detail::AggregateCells& aggregate_cells() { return aggregate_cells_; }

  std::string report() const {
    std::ostringstream os;
    int threads = 1;
#if defined(_OPENMP)
    threads = omp_get_max_threads();
#endif
    os << "medusa: host backend (OpenMP, " << threads << " threads)";
    if (conf_.gpuCount > 1) os << ", simulated partition " << index_ << " of " << conf_.gpuCount;
    os << "; " << vertex_count_ << " vertices (" << owned_count_ << " owned), " << edge_count_
       << " edges, m = " << conf_.messagesPerEdge
       << "; layout " << layout_.describe();
    os << "; memory: topology " << common::format_bytes(topology_bytes()) << ", vertex fields "
       << common::format_bytes(common::soa_bytes(Program::vertex_fields, vertex_count_))
       << ", edge fields " << common::format_bytes(common::soa_bytes(Program::edge_fields, edge_count_))
       << ", messages "
       << common::format_bytes(messages_.bytes() + send_counts_.bytes() + combined_.bytes())
       << "; frontiers:" << (Program::uses.vertex_frontier ? " vertex" : "")
       << (Program::uses.edge_frontier ? " edge" : "")
       << (Program::uses.vertex_frontier || Program::uses.edge_frontier ? " (compacted queues)"
                                                                         : " none")
       << (this->pull_fusion() ? "; Combiner " + common::fusion_summary() : std::string())
       << this->describe_priorities();
    os << "\n";
    return os.str();
  }

  void init_message_buffer(const Message& value) {
    init_value_ = value;
    this->discard_pending_slots();
    if constexpr (common::defers_slot_fill<Program>) {
      slot_fill_pending_ = true;
    } else {
      ensure_message_buffer();
      messages_.fill(init_value_);
    }
    if (send_counts_.allocated()) send_counts_.fill(0u);
    if (received_.allocated()) received_.fill(0);
    if constexpr (Program::uses.sends_by_id) sent_by_id_.fill(init_value_), this->reset_outbox();
  }
  // ---- Launches (the session checked the domain and chose the range) ----
  template <ApiKind K, class Element>
  void launch(Domain domain, const Element& element, const common::LaunchRange& range) {
    const medusa::detail::HostAggregateTarget adds_here(aggregate_cells_);
    if constexpr (K == MLIST || K == MESSAGE) ensure_message_buffer();
    // The others may read or write slots (of a program that sends only by id, only these two).
    if constexpr (K == MLIST || K == MESSAGE || (K != VERTEX && !common::defers_slot_fill<Program>)) materialize_slots();
    if (K == ELIST && domain == Domain::Active) frontier_passes_ |= common::kFrontierPushed;
    const KernelCtx<Message> c = K == ELIST ? vertex_loop_ctx() : ctx_;
    const medusa::detail::StepState* const step = medusa::detail::host_step_state;  // (for the OpenMP workers)
    const VertexArrays& va = fields_.vertex_arrays();
    const EdgeArrays& ea = fields_.edge_arrays();
    const EdgeIndex* out_off = out_offsets_.data();
    std::uint64_t visited = 0;
    const auto run = [&](auto id) {
      medusa::detail::bind_host_step_state(step);
      element(c, va, ea, id);
    };

    if constexpr (K == VERTEX || K == ELIST || K == MLIST) {
      // Vertex-side kinds visit [0, vertex_end); ELIST visits heads [head_begin, head_end).
      const VertexId lo = K == ELIST ? range.head_begin : 0;
      const VertexId hi = K == ELIST ? range.head_end : range.vertex_end;
      if (domain == Domain::All) {
        const auto first = static_cast<std::int64_t>(lo), last = static_cast<std::int64_t>(hi);
        if constexpr (K == VERTEX) {
#pragma omp parallel for schedule(static) if (last - first > kSerialBelow)
          for (std::int64_t v = first; v < last; ++v) run(static_cast<VertexId>(v));
        } else {
#pragma omp parallel for schedule(dynamic, 256) if (last - first > kSerialBelow)
          for (std::int64_t v = first; v < last; ++v) run(static_cast<VertexId>(v));
        }
        if constexpr (K == ELIST) visited = out_off[hi] - out_off[lo];
      } else {
        const std::vector<VertexId>& queue =
            domain == Domain::Active ? vertex_frontier_.current() : received_queue();
        const auto n = static_cast<std::int64_t>(queue.size());
        const VertexId* q = queue.data();
#pragma omp parallel for schedule(dynamic, 256) reduction(+ : visited) if (n > kSerialBelow)
        for (std::int64_t i = 0; i < n; ++i) {
          if (q[i] < lo || q[i] >= hi) continue;
          run(q[i]);
          if constexpr (K == ELIST) visited += out_off[q[i] + 1] - out_off[q[i]];
        }
      }
    } else if constexpr (K == EDGE) {
      // Edges are in CSR order, so the out-edges of heads [head_begin, head_end) are one range.
      const EdgeIndex lo = out_off[range.head_begin], hi = out_off[range.head_end];
      if (domain == Domain::All) {
        const auto first = static_cast<std::int64_t>(lo), last = static_cast<std::int64_t>(hi);
#pragma omp parallel for schedule(static) if (last - first > kSerialBelow)
        for (std::int64_t e = first; e < last; ++e) run(static_cast<EdgeIndex>(e));
        visited = hi - lo;
      } else {
        const std::vector<EdgeIndex>& queue = edge_frontier_.current();
        const auto n = static_cast<std::int64_t>(queue.size());
        const EdgeIndex* q = queue.data();
#pragma omp parallel for schedule(static) reduction(+ : visited) if (n > kSerialBelow)
        for (std::int64_t i = 0; i < n; ++i) {
          if (q[i] < lo || q[i] >= hi) continue;
          run(q[i]);
          ++visited;
        }
      }
    } else {
      static_assert(K == MESSAGE, "unknown API kind");
      const auto slots = static_cast<std::int64_t>(messages_.size());
#pragma omp parallel for schedule(static) if (slots > kSerialBelow)
      for (std::int64_t s = 0; s < slots; ++s) run(static_cast<EdgeIndex>(s));
    }
    edges_visited_ += visited;
    common::check_message_overflow(votes_.data(), conf_.messagesPerEdge, superstep_,
                                   std::string("EMV<") + common::api_kind_name(K) + ">::Run");
  }

  // The host has no warps to balance: one task per vertex runs its edges in order.
  template <class Element>
  void launch_elist_edges(Domain domain, const Element& element, const common::LaunchRange& range) {
    const medusa::detail::HostAggregateTarget adds_here(aggregate_cells_);
    if constexpr (!common::defers_slot_fill<Program>) materialize_slots();
    const KernelCtx<Message>& c = ctx_;
    const medusa::detail::StepState* const step = medusa::detail::host_step_state;  // (for the OpenMP workers)
    const VertexArrays& va = fields_.vertex_arrays();
    const EdgeArrays& ea = fields_.edge_arrays();
    const EdgeIndex* out_off = out_offsets_.data();
    const auto edges_of = [&](VertexId v) {
      const auto degree = static_cast<std::uint32_t>(out_off[v + 1] - out_off[v]);
      medusa::detail::bind_host_step_state(step);
      for (std::uint32_t i = 0; i < degree; ++i) element(c, va, ea, v, i);
      return degree;
    };
    const VertexId lo = range.head_begin, hi = range.head_end;
    std::uint64_t visited = 0;
    if (domain == Domain::All) {
      const auto first = static_cast<std::int64_t>(lo), last = static_cast<std::int64_t>(hi);
#pragma omp parallel for schedule(dynamic, 256) if (last - first > kSerialBelow)
      for (std::int64_t v = first; v < last; ++v) edges_of(static_cast<VertexId>(v));
      visited = out_off[hi] - out_off[lo];
    } else {  // Domain::Active (the session rejected Received)
      const std::vector<VertexId>& queue = vertex_frontier_.current();
      const auto n = static_cast<std::int64_t>(queue.size());
      const VertexId* q = queue.data();
#pragma omp parallel for schedule(dynamic, 256) reduction(+ : visited) if (n > kSerialBelow)
      for (std::int64_t i = 0; i < n; ++i)
        if (q[i] >= lo && q[i] < hi) visited += edges_of(q[i]);
    }
    edges_visited_ += visited;
    common::check_message_overflow(votes_.data(), conf_.messagesPerEdge, superstep_,
                                   "EMV<ELIST>::Run");
  }

  // ---- Superstep boundaries (driven by the session) ----
  void begin_superstep(std::uint32_t s) {
    superstep_ = s;
    votes_.fill(0);
    frontier_passes_ = 0;
  }
  void finish_superstep() {
    if (vertex_frontier_.allocated()) {
      promote_vertex_frontier();
      count_frontier_edges();
    }
    if (edge_frontier_.allocated()) edge_frontier_.promote();
  }
  common::StepCounts collect() const {
    common::StepCounts c;
    for (int i = 0; i < kVoteSlots; ++i) c.votes[i] = votes_.data()[i];
    c.active_vertices = vertex_frontier_.current().size();
    c.active_edges = edge_frontier_.current().size();
    c.frontier_passes = frontier_passes_;
    count_buckets(c);
    return c;
  }

 private:
  using FusionPart::count_frontier_edges;
  using PriorityPart::count_buckets;
  using PriorityPart::promote_vertex_frontier;

  // Launches over fewer elements run on the calling thread: waking the OpenMP team costs more
  // than that much work, and high-diameter graphs have thousands of tiny supersteps.
  static constexpr std::int64_t kSerialBelow = 2048;

  medusa::detail::AggregateCells aggregate_cells_{};  // this partition's (aggregate_transfer.h)

  // The host keeps its own copy of the arrays the executors read, so later edits of the graph
  // cannot invalidate a running session.
  void copy_topology(const common::PartitionView& view) {
    const Topology& t = *view.topology;
    vertex_count_ = t.vertex_count;
    edge_count_ = t.edge_count;
    out_offsets_ = t.out_offsets;
    out_dst_ = copy_populated(t.out_dst);
    edge_src_ = copy_populated(t.edge_src);
    rid_ = copy_populated(t.rid);
    in_offsets_ = t.in_offsets;
    if (this->pull_fusion()) {  // the fused pass walks in-edges
      in_src_ = copy_populated(t.in_src);
      in_edge_ = copy_populated(t.in_edge);
    }
    input_edge_ = copy_populated(view.input_edge, t.edge_count);
    if (view.global_id != nullptr) {
      global_id_.assign(view.global_id, view.global_id + vertex_count_);
      out_degree_.assign(view.out_degree, view.out_degree + vertex_count_);
      in_degree_.assign(view.in_degree, view.in_degree + vertex_count_);
    }
    if (view.neighbor_rows != nullptr) neighbor_rows_ = *view.neighbor_rows;
    if (view.owned_row_offsets != nullptr) {
      owned_row_offsets_.assign(view.owned_row_offsets, view.owned_row_offsets + owned_count_ + 1);
      owned_row_dst_.assign(view.owned_row_dst, view.owned_row_dst + owned_row_offsets_.back());
    }
    choose_layout(t);
  }

  // Auto keeps CSR here; ColumnMajor and Hybrid run as on the GPU, so the host tests cover them.
  void choose_layout(const Topology& t) {
    const std::size_t total = physical_memory_bytes();
    const std::size_t used = buffer_bytes() + topology_bytes();
    const std::uint64_t room = total > used ? (total - used) / 2 : 0;
    layout_ = common::choose_edge_layout(t.out_offsets, conf_.layout, Program::uses.vertex_edge_loops,
                                         common::LayoutTarget::Cpu,
                                         total == 0 ? ~std::uint64_t{0} : room / common::EdgeLayoutChoice::kSlotBytes);
    if (layout_.columns()) columns_ = common::build_column_major(t, layout_.width);
  }

  // ctx_ plus the layout's column slots, for thread-per-vertex ELIST loops.
  KernelCtx<Message> vertex_loop_ctx() const {
    KernelCtx<Message> c = ctx_;
    c.column_dst = columns_.dst.data();
    c.column_rid = columns_.rid.data();
    c.column_width = layout_.width;
    return c;
  }

  std::size_t topology_bytes() const {
    return (out_offsets_.size() + rid_.size() + in_offsets_.size() + input_edge_.size() +
            in_edge_.size() + owned_row_offsets_.size() + neighbor_rows_.offsets.size()) *
               sizeof(EdgeIndex) +
           (out_dst_.size() + edge_src_.size() + in_src_.size() + owned_row_dst_.size() + neighbor_rows_.ids.size()) *
               sizeof(VertexId) +
           layout_.bytes();
  }

  // Bytes Init_Device_DS allocates besides the topology.
  std::size_t buffer_bytes() const {
    const std::size_t V = vertex_count_, E = edge_count_, m = conf_.messagesPerEdge;
    std::size_t b = common::soa_bytes(Program::vertex_fields, V) +
                    common::soa_bytes(Program::edge_fields, E) + sizeof(Message) * V;
    if (Program::uses.messages) b += sizeof(Message) * E * m + (m > 1 ? 4 * E : 0);
    if (Program::uses.vertex_frontier) b += 5 * V;
    if (Program::uses.edge_frontier) b += 9 * E;
    if (Program::uses.received) b += 5 * V;
    return b;
  }

  void check_memory() const {
    const std::size_t total = physical_memory_bytes();
    const std::size_t needed = buffer_bytes() + topology_bytes();
    if (total == 0 || needed <= total) return;
    MEDUSA_THROW("Init_Device_DS: the graph needs " + common::format_bytes(needed) +
                 " of host memory but the machine has " + common::format_bytes(total) +
                 "; use a smaller graph, fewer messages per edge or fewer fields");
  }

  void allocate_runtime_buffers(const std::vector<VertexId>& seeds) {
    combined_.allocate(vertex_count_);
    if (Program::uses.sends_by_id) sent_by_id_.allocate(vertex_count_), sent_by_id_.fill(Message{});
    if (Program::uses.messages) ensure_message_buffer();
    if (Program::uses.received) received_.allocate(vertex_count_);
    if (Program::uses.vertex_frontier) {
      vertex_frontier_.allocate(vertex_count_);
      vertex_frontier_.seed(seeds, "vertex");
      count_frontier_edges();
    }
    this->allocate_priorities(ctx_);
    if (Program::uses.edge_frontier) edge_frontier_.allocate(edge_count_);
    votes_.allocate(kVoteSlots);

    ctx_.vertex_count = vertex_count_;
    ctx_.edge_count = edge_count_;
    ctx_.out_offsets = out_offsets_.data();
    ctx_.out_dst = out_dst_.data();
    ctx_.edge_src = edge_src_.data();
    ctx_.rid = rid_.data();
    ctx_.in_offsets = in_offsets_.data();
    ctx_.m = conf_.messagesPerEdge;
    ctx_.combined = combined_.data();
    ctx_.next_active_vertex = vertex_frontier_.next_flags();
    ctx_.next_active_edge = edge_frontier_.next_flags();
    ctx_.received = received_.data();
    ctx_.sent_by_id = sent_by_id_.allocated() ? sent_by_id_.data() : nullptr;
    ctx_.sent_by_id_op = static_cast<int>(conf_.combinerOpType);
    ctx_.votes = votes_.data();
    if (!global_id_.empty()) {
      ctx_.global_id = global_id_.data();
      ctx_.out_degree = out_degree_.data();
      ctx_.in_degree = in_degree_.data();
    }
    if (!neighbor_rows_.offsets.empty()) {
      ctx_.neighbor_offsets = neighbor_rows_.offsets.data();
      ctx_.neighbor_ids = neighbor_rows_.ids.data();
    }
  }

  // Writes the slots InitMessageBuffer (defers_slot_fill) or a uniform pull pass left pending.
  void materialize_slots() {
    if (slot_fill_pending_) {
      slot_fill_pending_ = false;
      ensure_message_buffer();
      messages_.fill(init_value_);
    }
    this->write_pending_source_slots();
  }

  // The message buffer exists when the program sends messages; a program that only calls
  // InitMessageBuffer/Combiner gets it on first use.
  void ensure_message_buffer() {
    if (messages_allocated_) return;
    const std::size_t m = conf_.messagesPerEdge;
    messages_.allocate(static_cast<std::size_t>(edge_count_) * m);
    messages_.fill(init_value_);
    if (m > 1) send_counts_.allocate(edge_count_);
    ctx_.messages = messages_.data();
    ctx_.send_counts = send_counts_.data();
    messages_allocated_ = true;
  }

  const std::vector<VertexId>& received_queue() {
    compact_flags(received_.data(), received_.size(), received_queue_, /*clear_flags=*/false);
    return received_queue_;
  }

  Config conf_;
  std::uint32_t index_ = 0;
  VertexId owned_count_ = 0;
  VertexId combine_count_ = 0;
  bool records_local_ = false;  // (common::PartitionView::records_local)
  VertexId vertex_count_ = 0;
  EdgeIndex edge_count_ = 0;
  std::vector<EdgeIndex> out_offsets_, rid_, in_offsets_, input_edge_;
  std::vector<VertexId> out_dst_, edge_src_;
  common::EdgeLayoutChoice layout_;
  common::ColumnMajorEdges columns_;  // the layout's column slots (empty under CSR)
  std::vector<VertexId> in_src_;    // pull fusion only: in-edge sources and CSR positions
  std::vector<EdgeIndex> in_edge_;
  std::vector<VertexId> global_id_;  // empty in a single-partition run
  std::vector<EdgeIndex> owned_row_offsets_;  // partitioned in-edge programs: common::PartitionView
  std::vector<VertexId> owned_row_dst_;
  std::vector<std::uint32_t> out_degree_, in_degree_;
  NeighborRows neighbor_rows_;  // partitioned neighbour sets (empty otherwise)

  FieldArrays<Program> fields_;

  Message init_value_{};
  bool messages_allocated_ = false;
  HostArray<Message> messages_;
  bool slot_fill_pending_ = false;  // the slots are init_value_ but not written yet (defers_slot_fill)
  HostArray<std::uint32_t> send_counts_;
  HostArray<Message> combined_;
  HostArray<Message> sent_by_id_;  // sends by vertex id (by_id.h), one per vertex
  HostArray<std::uint8_t> received_;
  std::vector<VertexId> received_queue_;
  Frontier<VertexId> vertex_frontier_;
  Frontier<EdgeIndex> edge_frontier_;
  HostArray<int> votes_;

  KernelCtx<Message> ctx_{};
  std::uint32_t superstep_ = 0;
  std::uint64_t edges_visited_ = 0;
  std::uint8_t frontier_passes_ = 0;  // this superstep's (common::FrontierPass)
};

}  // namespace medusa::host
