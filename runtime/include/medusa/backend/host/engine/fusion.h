// How the host PartitionEngine runs InitMessageBuffer + a launch + Combiner as one pass
// (pull_fusion.h): pulled over in-edges, a sparse frontier pushed into the combined values
// (push-combine), and the slots a pass of one message per source leaves pending. The CUDA engine's
// counterpart is cuda/engine/fusion.cuh.
#pragma once

#include <medusa/backend/common/in_edge_pull.h>
#include <medusa/backend/common/message_value.h>
#include <medusa/backend/common/partition_view.h>
#include <medusa/backend/common/pull_fusion.h>
#include <medusa/config.h>
#include <medusa/device_api.h>
#include <medusa/types.h>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace medusa::host {

// A part of PartitionEngine<Program> (= Engine).
template <class Program, class Engine>
class Fusion {
 public:
  using Message = typename Program::Message;
  using VertexArrays = typename Program::VertexArrays;
  using EdgeArrays = typename Program::EdgeArrays;

  explicit Fusion(const Config& conf)
      : pull_fusion_(common::pull_fusion_enabled<Program>(conf)), frontier_pull_(conf.tuning.frontierPull) {}

  // InitMessageBuffer(fill); the launch `work` stands for over all edges; Combiner(op), as one
  // pass per vertex over its in-edges (pull_fusion.h). Slots and combined values come out exactly
  // as the three steps leave them: the same folds in the same order.
  // Over Domain::Active, only the in-edges of active sources run their work (the others keep the
  // fill value, as unpushed slots do).
  template <class Work, class Op>
  void fused_combine(const Work& work, const Op& op, const Message& fill, Domain domain) {
    Engine& e = self();
    const medusa::detail::HostAggregateTarget adds_here(e.aggregate_cells_);
    e.init_value_ = fill;
    e.ensure_message_buffer();
    const std::uint8_t* active = nullptr;
    if (domain == Domain::Active) {
      active_flags_.assign(e.vertex_count_, 0);
      for (VertexId u : e.vertex_frontier_.current()) active_flags_[u] = 1;
      active = active_flags_.data();
    }
    const auto V = static_cast<std::int64_t>(e.combine_count_);
    const EdgeIndex* in_off = e.in_offsets_.data();
    const EdgeIndex* out_off = e.out_offsets_.data();
    const VertexId* in_src = e.in_src_.data();
    const EdgeIndex* in_edge = e.in_edge_.data();
    Message* slots = e.messages_.data();
    Message* out = e.combined_.data();
    std::uint8_t* received = e.received_.allocated() ? e.received_.data() : nullptr;
    const KernelCtx<Message>& c = e.ctx_;
    const medusa::detail::StepState* const step = medusa::detail::host_step_state;  // (for the OpenMP workers)
    const VertexArrays& va = e.fields_.vertex_arrays();
    const EdgeArrays& ea = e.fields_.edge_arrays();
    // The message of one source for one in-edge: computed once per source when the element says
    // it is the same along every out-edge, else by running the edge's work.
    constexpr bool per_source = common::has_source_message<Work>::value;
    if constexpr (per_source) {
      source_messages_.resize(e.vertex_count_);
      const auto n = static_cast<std::int64_t>(e.vertex_count_);
#pragma omp parallel for schedule(static) if (n > Engine::kSerialBelow)
      for (std::int64_t u = 0; u < n; ++u) {
        if (active != nullptr && active[u] == 0)
          source_messages_[u] = fill;  // what its out-edges' slots hold
        else if (out_off[u + 1] != out_off[u]) {
          medusa::detail::bind_host_step_state(step);
          source_messages_[u] = work.medusa_source_message(c, va, ea, static_cast<VertexId>(u));
        }
      }
    }
    // A uniform pass leaves its slots pending (source_messages_[in_src]), as the CUDA engine does.
    slots_pending_ = per_source;
    // (Edge-dependent sends are pulled here: the host has no scattered-read penalty to avoid.)
    if constexpr (per_source && common::may_push_combine<Op, Message>) {
      if (active != nullptr && !frontier_pull_preferred()) {
        e.frontier_passes_ |= common::kFrontierPushed;
        return push_combine(op, fill);
      }
    }
    if (active != nullptr) e.frontier_passes_ |= common::kFrontierPulled;
    const bool write = !slots_pending_;
    bool stop_at_first = false;  // at a vertex's first in-edge from an active source
    if constexpr (common::may_stop_at_first_message<Work, Op, Message>)
      stop_at_first = active != nullptr && frontier_sends_one_message(active);
    const Message* sources = source_messages_.data();
#pragma omp parallel for schedule(dynamic, 1024) if (V > Engine::kSerialBelow)
    for (std::int64_t v = 0; v < V; ++v) {
      Message acc = fill;
      bool sent = false;
      for (EdgeIndex j = in_off[v]; j < in_off[v + 1]; ++j) {
        const VertexId u = in_src[j];
        Message x = fill;  // an inactive source sends nothing
        if (active == nullptr || active[u] != 0) {
          if constexpr (per_source) {
            x = sources[u];
            sent = true;
          } else {
            const auto i = static_cast<std::uint32_t>(in_edge[j] - out_off[u]);
            medusa::detail::bind_host_step_state(step);
            x = common::run_in_edge(c, va, ea, work, u, i, fill, sent);
          }
        }
        if (write) slots[j] = x;
        acc = op(acc, x);
        if (stop_at_first && sent) break;  // the rest folds to the same value
      }
      out[v] = acc;
      if (received != nullptr) received[v] = sent ? 1 : 0;
    }
    e.edges_visited_ += domain == Domain::Active ? frontier_edges_ : e.edge_count_;
  }

  // A sparse frontier of uniform sends under min / max / bitwise or / and (pull_fusion.h:
  // may_push_combine): each frontier edge folds its source's message into its head's combined value.
  template <class Op>
  void push_combine(const Op& op, const Message& fill) {
    Engine& e = self();
    e.combined_.fill(fill);
    if (e.received_.allocated()) e.received_.fill(0);
    for (VertexId u : e.vertex_frontier_.current()) {
      for (EdgeIndex j = e.out_offsets_[u]; j < e.out_offsets_[u + 1]; ++j) {
        const VertexId w = e.out_dst_[j];
        e.combined_[w] = op(e.combined_[w], source_messages_[u]);
        if (e.received_.allocated()) e.received_[w] = 1;
      }
    }
    e.edges_visited_ += frontier_edges_;
  }

  // InitMessageBuffer(fill); EMV<EDGE>::Run(element) over all edges; Combiner(op), deferred
  // together by the session (it pushes on the GPU); here the three run as written.
  template <class Element, class Op>
  void push_fold_edges(const Element& element, const Op& op, const Message& fill) {
    Engine& e = self();
    e.init_message_buffer(fill);
    e.template launch<EDGE>(Domain::All, element,
                            common::LaunchRange::whole(static_cast<VertexId>(e.vertex_count_)));
    e.combine(op);
  }

  // EMV<ELIST>::Run over in-edges and Combiner(op), as one pulled pass (in_edge_pull.h).
  template <class Work, class Op>
  void pull_in_edges(const Work& work, const Op& op, const Message& fill) {
    Engine& e = self();
    const medusa::detail::HostAggregateTarget adds_here(e.aggregate_cells_);
    const bool partitioned = !e.owned_row_offsets_.empty();
    const KernelCtx<Message> rows =
        common::owned_rows_ctx(e.ctx_, e.owned_count_, partitioned ? e.owned_row_offsets_.data() : nullptr,
                               e.owned_row_dst_.data());
    e.init_value_ = fill, e.edges_visited_ += rows.out_offsets[rows.vertex_count];
    common::pull_in_edges_host(rows, e.fields_.vertex_arrays(), e.fields_.edge_arrays(), work, op, fill,
                               e.combined_.data(), e.received_.allocated() ? e.received_.data() : nullptr);
  }

  bool pull_fusion() const { return pull_fusion_; }
  void set_run_tuning(const Tuning& t) { frontier_pull_ = t.frontierPull; }  // one Run's (schedule.h)
  // Whether this superstep's frontier is dense enough to pull (pull_fusion.h).
  bool frontier_pull_preferred() const {
    return pull_fusion_ && self().vertex_frontier_.allocated() &&
           common::prefer_frontier_pull(frontier_pull_, frontier_edges_, self().edge_count_);
  }

 protected:
  Engine& self() { return static_cast<Engine&>(*this); }
  const Engine& self() const { return static_cast<const Engine&>(*this); }

  // Writes the slots a uniform pull pass left pending.
  void write_pending_source_slots() {
    if (!slots_pending_) return;
    slots_pending_ = false;
    Engine& e = self();
    for (EdgeIndex j = 0; j < e.edge_count_; ++j) e.messages_[j] = source_messages_[e.in_src_[j]];
  }

  // InitMessageBuffer rewrites every slot.
  void discard_pending_slots() { slots_pending_ = false; }

  // The frontier's out-edges: only the pull decision and a pulled frontier's statistics need them.
  void count_frontier_edges() {
    if (!pull_fusion_) return;
    const Engine& e = self();
    frontier_edges_ = 0;
    for (VertexId v : e.vertex_frontier_.current()) frontier_edges_ += e.out_offsets_[v + 1] - e.out_offsets_[v];
  }

 private:
  // Whether every active source with out-edges computed the same message, bit for bit.
  bool frontier_sends_one_message(const std::uint8_t* active) const {
    const Engine& e = self();
    const EdgeIndex* out_off = e.out_offsets_.data();
    bool seen = false;
    std::uint64_t first = 0;
    for (std::uint64_t u = 0; u < e.vertex_count_; ++u) {
      if (active[u] == 0 || out_off[u + 1] == out_off[u]) continue;
      const std::uint64_t bits = common::message_bits(source_messages_[u]);
      if (!seen) first = bits, seen = true;
      else if (bits != first) return false;
    }
    return seen;
  }

  bool pull_fusion_ = false;
  FrontierPull frontier_pull_;
  std::uint64_t frontier_edges_ = 0;        // out-edges of the current frontier's vertices
  std::vector<std::uint8_t> active_flags_;  // the frontier as flags, for a pulled frontier
  std::vector<Message> source_messages_;    // one message per source vertex (uniform sends)
  bool slots_pending_ = false;  // the slots are source_messages_[in_src] but not written yet
};

}  // namespace medusa::host
