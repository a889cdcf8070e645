// The host (CPU, OpenMP) backend: Session<Program> runs a translated program on the host with the
// same semantics as the CUDA backend (docs/design/codegen-contract.md). It is the reference in
// tests and lets users debug their functors with ordinary tools.
#pragma once

#include <medusa/backend/common/combiner_ops.h>
#include <medusa/backend/common/domain_check.h>
#include <medusa/backend/common/field_staging.h>
#include <medusa/backend/common/format_bytes.h>
#include <medusa/backend/common/message_value.h>
#include <medusa/backend/common/stop_decision.h>
#include <medusa/backend/host/frontier.h>
#include <medusa/backend/host/host_array.h>
#include <medusa/backend/host/memory_info.h>
#include <medusa/backend/host/step_state_guard.h>
#include <medusa/config.h>
#include <medusa/device_api.h>
#include <medusa/error.h>
#include <medusa/graph.h>
#include <medusa/program.h>
#include <medusa/session.h>
#include <medusa/topology.h>
#include <medusa/types.h>

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

namespace medusa {

template <class Program>
class Session;

namespace exec {
// Runs `element` (a generated element functor) over the elements of `domain` for API kind K.
template <ApiKind K, class Program, class Element>
void run(Session<Program>& session, Domain domain, const Element& element);
// Runs an edge-parallel ELIST element: element(c, va, ea, v, i) for every out-edge i of every
// vertex v of `domain`.
template <class Program, class Element>
void run_elist_edges(Session<Program>& session, Domain domain, const Element& element);
}  // namespace exec

template <class Program>
class Session : public SessionBase {
 public:
  using Vertex = typename Program::Vertex;
  using Edge = typename Program::Edge;
  using Message = typename Program::Message;
  using VertexArrays = typename Program::VertexArrays;
  using EdgeArrays = typename Program::EdgeArrays;
  using GraphType = Graph<Vertex, Edge>;

  // Init_Device_DS: topology, memory check, structure-of-arrays (kUpload fields copied), message
  // buffer, frontiers seeded from graph.initially_active().
  Session(GraphType& graph, const Config& conf) : conf_(conf) {
    MEDUSA_REQUIRE(conf.messagesPerEdge >= 1,
                   "Config::messagesPerEdge (the paper's m) must be at least 1");
    copy_topology(graph.topology());
    check_memory();
    allocate_fields(graph);
    allocate_runtime_buffers(graph);
    if (conf_.verbose) std::fprintf(stderr, "medusa: %s\n", report().c_str());
  }

  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  Session(Session&&) = default;
  Session& operator=(Session&&) = default;

  // Executes `iteration` once per superstep until maxIteration or the votes stop it.
  RunStats Run(void (*iteration)()) {
    MEDUSA_REQUIRE(iteration != nullptr, "Device::Run: the iteration function is null");
    return run_supersteps([iteration] { iteration(); });
  }
  // The same for any callable (lambdas, function objects).
  template <class F>
  RunStats Run(F&& iteration) {
    return run_supersteps([&iteration] { iteration(); });
  }

  // Copies the kDownload fields back into `graph` (edges back to input order).
  void Dump_Result(GraphType& graph) {
    MEDUSA_REQUIRE(graph.vertex_count() == vertex_count_ && graph.edge_count() == edge_count_,
                   "Dump_Result: the graph has " + std::to_string(graph.vertex_count()) +
                       " vertices and " + std::to_string(graph.edge_count()) +
                       " edges, but the device data was built for " +
                       std::to_string(vertex_count_) + " and " + std::to_string(edge_count_));
    for (std::size_t i = 0; i < Program::vertex_fields.size(); ++i) {
      const FieldSpec& f = Program::vertex_fields[i];
      if (f.direction & kDownload) {
        common::scatter_field(vertex_storage_[i].data(), f, graph.vertices().data(), vertex_count_);
      }
    }
    for (std::size_t i = 0; i < Program::edge_fields.size(); ++i) {
      const FieldSpec& f = Program::edge_fields[i];
      if (f.direction & kDownload) {
        common::scatter_field(edge_storage_[i].data(), f, graph.edges().data(), edge_count_,
                              input_edge_.data());
      }
    }
  }

  // Combiner(op): combined[v] = op-fold of v's slots, starting from the InitMessageBuffer value.
  template <class Op>
  void combine(const Op& op) {
    ensure_message_buffer();
    const auto V = static_cast<std::int64_t>(vertex_count_);
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
      out[v] = acc;
    }
  }

  KernelCtx<Message> ctx() const { return ctx_; }
  const VertexArrays& vertex_arrays() const { return vertex_arrays_; }
  const EdgeArrays& edge_arrays() const { return edge_arrays_; }
  // Statistics of the last Run().
  const RunStats& last_stats() const { return stats_; }

  std::string report() const {
    std::ostringstream os;
    int threads = 1;
#if defined(_OPENMP)
    threads = omp_get_max_threads();
#endif
    os << "host backend (OpenMP, " << threads << " threads); " << vertex_count_ << " vertices, "
       << edge_count_ << " edges, m = " << conf_.messagesPerEdge
       << "; layout CSR (the host backend always uses CSR; requested "
       << layout_name(conf_.layout) << ")";
    if (conf_.gpuCount != 1) os << "; gpuCount = " << conf_.gpuCount << " ignored on the host";
    os << "; memory: topology " << common::format_bytes(topology_bytes()) << ", vertex fields "
       << common::format_bytes(common::soa_bytes(Program::vertex_fields, vertex_count_))
       << ", edge fields " << common::format_bytes(common::soa_bytes(Program::edge_fields, edge_count_))
       << ", messages "
       << common::format_bytes(messages_.bytes() + send_counts_.bytes() + combined_.bytes())
       << "; frontiers:" << (Program::uses.vertex_frontier ? " vertex" : "")
       << (Program::uses.edge_frontier ? " edge" : "")
       << (Program::uses.vertex_frontier || Program::uses.edge_frontier ? " (compacted queues)"
                                                                         : " none");
    return os.str();
  }

  // ---- SessionBase ----
  void init_message_buffer(const void* value, const std::type_info& type) override {
    init_value_ = common::message_from_value<Message>(value, type);
    ensure_message_buffer();
    messages_.fill(init_value_);
    if (send_counts_.allocated()) send_counts_.fill(0u);
    if (received_.allocated()) received_.fill(0);
  }
  void combine_builtin() override {
    common::visit_builtin_combiner<Message>(conf_.combinerOpType,
                                            [this](const auto& op) { this->combine(op); });
  }
  std::uint32_t superstep() const override { return superstep_; }
  const Config& config() const override { return conf_; }

  // ---- for exec::run ----
  template <ApiKind K, class Element>
  void launch(Domain domain, const Element& element) {
    common::check_domain(K, domain, Program::uses);
    if constexpr (K == MLIST || K == MESSAGE) ensure_message_buffer();
    const KernelCtx<Message>& c = ctx_;
    const VertexArrays& va = vertex_arrays_;
    const EdgeArrays& ea = edge_arrays_;
    std::uint64_t visited = 0;

    if constexpr (K == VERTEX || K == ELIST || K == MLIST) {
      if (domain == Domain::All) {
        const auto V = static_cast<std::int64_t>(vertex_count_);
        if constexpr (K == VERTEX) {
#pragma omp parallel for schedule(static) if (V > kSerialBelow)
          for (std::int64_t v = 0; v < V; ++v) element(c, va, ea, static_cast<VertexId>(v));
        } else {
#pragma omp parallel for schedule(dynamic, 256) if (V > kSerialBelow)
          for (std::int64_t v = 0; v < V; ++v) element(c, va, ea, static_cast<VertexId>(v));
        }
        if constexpr (K == ELIST) visited = edge_count_;
      } else {
        const std::vector<VertexId>& queue =
            domain == Domain::Active ? vertex_frontier_.current() : received_queue();
        const auto n = static_cast<std::int64_t>(queue.size());
        const VertexId* q = queue.data();
        const EdgeIndex* out_off = out_offsets_.data();
#pragma omp parallel for schedule(dynamic, 256) reduction(+ : visited) if (n > kSerialBelow)
        for (std::int64_t i = 0; i < n; ++i) {
          element(c, va, ea, q[i]);
          if constexpr (K == ELIST) visited += out_off[q[i] + 1] - out_off[q[i]];
        }
      }
    } else if constexpr (K == EDGE) {
      if (domain == Domain::All) {
        const auto E = static_cast<std::int64_t>(edge_count_);
#pragma omp parallel for schedule(static) if (E > kSerialBelow)
        for (std::int64_t e = 0; e < E; ++e) element(c, va, ea, static_cast<EdgeIndex>(e));
        visited = edge_count_;
      } else {
        const std::vector<EdgeIndex>& queue = edge_frontier_.current();
        const auto n = static_cast<std::int64_t>(queue.size());
        const EdgeIndex* q = queue.data();
#pragma omp parallel for schedule(static) if (n > kSerialBelow)
        for (std::int64_t i = 0; i < n; ++i) element(c, va, ea, q[i]);
        visited = queue.size();
      }
    } else {
      static_assert(K == MESSAGE, "unknown API kind");
      const auto slots = static_cast<std::int64_t>(messages_.size());
#pragma omp parallel for schedule(static) if (slots > kSerialBelow)
      for (std::int64_t s = 0; s < slots; ++s) element(c, va, ea, static_cast<EdgeIndex>(s));
    }
    stats_.edges_visited += visited;
    common::check_message_overflow(votes_.data(), conf_.messagesPerEdge, superstep_,
                                   std::string("EMV<") + common::api_kind_name(K) + ">::Run");
  }

  // The host has no warps to balance: one task per vertex runs its edges in order.
  template <class Element>
  void launch_elist_edges(Domain domain, const Element& element) {
    common::check_domain(ELIST, domain, Program::uses);
    const KernelCtx<Message>& c = ctx_;
    const VertexArrays& va = vertex_arrays_;
    const EdgeArrays& ea = edge_arrays_;
    const EdgeIndex* out_off = out_offsets_.data();
    const auto edges_of = [&](VertexId v) {
      const auto degree = static_cast<std::uint32_t>(out_off[v + 1] - out_off[v]);
      for (std::uint32_t i = 0; i < degree; ++i) element(c, va, ea, v, i);
      return degree;
    };
    std::uint64_t visited = 0;
    if (domain == Domain::All) {
      const auto V = static_cast<std::int64_t>(vertex_count_);
#pragma omp parallel for schedule(dynamic, 256) if (V > kSerialBelow)
      for (std::int64_t v = 0; v < V; ++v) edges_of(static_cast<VertexId>(v));
      visited = edge_count_;
    } else {  // Domain::Active (check_domain rejected Received)
      const std::vector<VertexId>& queue = vertex_frontier_.current();
      const auto n = static_cast<std::int64_t>(queue.size());
      const VertexId* q = queue.data();
#pragma omp parallel for schedule(dynamic, 256) reduction(+ : visited) if (n > kSerialBelow)
      for (std::int64_t i = 0; i < n; ++i) visited += edges_of(q[i]);
    }
    stats_.edges_visited += visited;
    common::check_message_overflow(votes_.data(), conf_.messagesPerEdge, superstep_,
                                   "EMV<ELIST>::Run");
  }

 private:
  // Launches over fewer elements run on the calling thread: waking the OpenMP team costs more
  // than that much work, and high-diameter graphs have thousands of tiny supersteps.
  static constexpr std::int64_t kSerialBelow = 2048;

  template <class Iteration>
  RunStats run_supersteps(const Iteration& iteration) {
    detail::CurrentSessionScope scope(this);
    host::StepStateGuard step_guard;
    const auto start = std::chrono::steady_clock::now();
    stats_ = RunStats{};
    if (conf_.maxIteration == 0) stats_.stop_reason = "maxIteration";
    for (std::uint32_t s = 0; conf_.maxIteration != 0; ++s) {
      begin_superstep(s);
      iteration();
      common::check_message_overflow(votes_.data(), conf_.messagesPerEdge, s, "a functor");
      promote_frontiers();
      stats_.supersteps = s + 1;
      const common::StopDecision d = common::decide_stop(votes_.data(), s, conf_, Program::uses);
      if (conf_.verbose) {
        std::fprintf(stderr, "medusa: superstep %u done; active vertices %zu, active edges %zu\n",
                     s, vertex_frontier_.current().size(), edge_frontier_.current().size());
      }
      if (d.stop) {
        stats_.stop_reason = d.reason;
        break;
      }
    }
    stats_.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (conf_.verbose) {
      std::fprintf(stderr, "medusa: %u supersteps in %.6f s (%s), %llu edges visited\n",
                   stats_.supersteps, stats_.seconds, stats_.stop_reason.c_str(),
                   static_cast<unsigned long long>(stats_.edges_visited));
    }
    return stats_;
  }

  void begin_superstep(std::uint32_t s) {
    superstep_ = s;
    votes_.fill(0);
    ctx_.superstep = s;
    detail::host_step_state = detail::StepState{votes_.data(), s};
  }

  void promote_frontiers() {
    if (vertex_frontier_.allocated()) vertex_frontier_.promote();
    if (edge_frontier_.allocated()) edge_frontier_.promote();
  }

  // The host keeps its own copy of the arrays the executors read, so later edits of the graph
  // cannot invalidate a running session.
  void copy_topology(const Topology& t) {
    vertex_count_ = t.vertex_count;
    edge_count_ = t.edge_count;
    out_offsets_ = t.out_offsets;
    out_dst_ = t.out_dst;
    edge_src_ = t.edge_src;
    rid_ = t.rid;
    in_offsets_ = t.in_offsets;
    input_edge_ = t.input_edge;
  }

  std::size_t topology_bytes() const {
    return (out_offsets_.size() + rid_.size() + in_offsets_.size() + input_edge_.size()) *
               sizeof(EdgeIndex) +
           (out_dst_.size() + edge_src_.size()) * sizeof(VertexId);
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
    const std::size_t total = host::physical_memory_bytes();
    const std::size_t needed = buffer_bytes() + topology_bytes();
    if (total == 0 || needed <= total) return;
    MEDUSA_THROW("Init_Device_DS: the graph needs " + common::format_bytes(needed) +
                 " of host memory but the machine has " + common::format_bytes(total) +
                 "; use a smaller graph, fewer messages per edge or fewer fields");
  }

  void allocate_fields(const GraphType& graph) {
    for (std::size_t i = 0; i < Program::vertex_fields.size(); ++i) {
      const FieldSpec& f = Program::vertex_fields[i];
      vertex_storage_[i].assign(f.size * vertex_count_, std::byte{0});
      if (common::needs_upload(f)) {
        common::gather_field(graph.vertices().data(), vertex_count_, f, vertex_storage_[i].data());
      }
      vertex_pointers_[i] = vertex_storage_[i].data();
    }
    for (std::size_t i = 0; i < Program::edge_fields.size(); ++i) {
      const FieldSpec& f = Program::edge_fields[i];
      edge_storage_[i].assign(f.size * edge_count_, std::byte{0});
      if (common::needs_upload(f)) {
        common::gather_field(graph.edges().data(), edge_count_, f, edge_storage_[i].data(),
                             input_edge_.data());
      }
      edge_pointers_[i] = edge_storage_[i].data();
    }
    vertex_arrays_ = Program::bind_vertex(vertex_pointers_.data());
    edge_arrays_ = Program::bind_edge(edge_pointers_.data());
  }

  void allocate_runtime_buffers(const GraphType& graph) {
    combined_.allocate(vertex_count_);
    if (Program::uses.messages) ensure_message_buffer();
    if (Program::uses.received) received_.allocate(vertex_count_);
    if (Program::uses.vertex_frontier) {
      vertex_frontier_.allocate(vertex_count_);
      vertex_frontier_.seed(graph.initially_active(), "vertex");
    }
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
    ctx_.votes = votes_.data();
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
    host::compact_flags(received_.data(), received_.size(), received_queue_, /*clear_flags=*/false);
    return received_queue_;
  }

  static const char* layout_name(Layout l) {
    switch (l) {
      case Layout::Auto: return "Auto";
      case Layout::CSR: return "CSR";
      case Layout::ColumnMajor: return "ColumnMajor";
      case Layout::Hybrid: return "Hybrid";
    }
    return "unknown";
  }

  template <ApiKind K, class P, class Element>
  friend void exec::run(Session<P>&, Domain, const Element&);

  Config conf_;
  VertexId vertex_count_ = 0;
  EdgeIndex edge_count_ = 0;
  std::vector<EdgeIndex> out_offsets_, rid_, in_offsets_, input_edge_;
  std::vector<VertexId> out_dst_, edge_src_;

  std::array<std::vector<std::byte>, Program::vertex_fields.size()> vertex_storage_;
  std::array<std::vector<std::byte>, Program::edge_fields.size()> edge_storage_;
  std::array<void*, Program::vertex_fields.size()> vertex_pointers_{};
  std::array<void*, Program::edge_fields.size()> edge_pointers_{};
  VertexArrays vertex_arrays_{};
  EdgeArrays edge_arrays_{};

  Message init_value_{};
  bool messages_allocated_ = false;
  host::HostArray<Message> messages_;
  host::HostArray<std::uint32_t> send_counts_;
  host::HostArray<Message> combined_;
  host::HostArray<std::uint8_t> received_;
  std::vector<VertexId> received_queue_;
  host::Frontier<VertexId> vertex_frontier_;
  host::Frontier<EdgeIndex> edge_frontier_;
  host::HostArray<int> votes_;

  KernelCtx<Message> ctx_{};
  std::uint32_t superstep_ = 0;
  RunStats stats_;
};

namespace exec {
template <ApiKind K, class Program, class Element>
void run(Session<Program>& session, Domain domain, const Element& element) {
  session.template launch<K>(domain, element);
}
template <class Program, class Element>
void run_elist_edges(Session<Program>& session, Domain domain, const Element& element) {
  session.launch_elist_edges(domain, element);
}
}  // namespace exec

}  // namespace medusa
