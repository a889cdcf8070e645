// How a PartitionEngine runs InitMessageBuffer + a launch + Combiner as one pass (pull_fusion.h):
// pulled gathers (degree-binned), a pending gather joined with the next VERTEX step and its source
// prefetch, pushes folded straight into the combined values (push-combine, push-fold).
#pragma once

#include <medusa/backend/common/combiner_ops.h>
#include <medusa/backend/common/partition_view.h>
#include <medusa/backend/common/pull_fusion.h>
#include <medusa/backend/cuda/in_edge_pull.cuh>
#include <medusa/backend/cuda/buffer.h>
#include <medusa/backend/cuda/check.h>
#include <medusa/backend/cuda/engine/core.cuh>
#include <medusa/backend/cuda/engine/message_store.cuh>
#include <medusa/backend/cuda/gather.cuh>
#include <medusa/backend/cuda/kernels.cuh>
#include <medusa/backend/cuda/push_combine.cuh>
#include <medusa/backend/cuda/source_prefetch.cuh>
#include <medusa/config.h>
#include <medusa/error.h>

#include <cstdint>
#include <optional>
#include <utility>
#include <type_traits>

namespace medusa::gpu {

// A part of PartitionEngine<Program> (= Engine).
template <class Program, class Engine>
class Fusion {
 public:
  using Message = typename Program::Message;
  using VertexArrays = typename Program::VertexArrays;
  using EdgeArrays = typename Program::EdgeArrays;

  explicit Fusion(const Tuning& tuning)
      : frontier_pull_(tuning.frontierPull), vertex_fusion_(tuning.vertexFusion != Toggle::Off),
        prefetch_{tuning.sourcePrefetch} {}

  // EMV<ELIST>::Run over in-edges (medusa/in_edges.h) and Combiner(op), as one pulled pass.
  template <class Work, class Op>
  void pull_in_edges(const Work& work, const Op& op, const Message& fill) {
    Engine& e = self();
    gpu::DeviceScope on(e.device_.ordinal);
    e.issue_held();
    if (e.skips_unbatchable()) return;
    e.init_value_ = fill;
    e.receivers_valid_ = false;
    e.note_user_launch();
    std::uint8_t* received = Program::uses.received ? e.d_received_.data() : nullptr;
    const KernelCtx<Message> rows = e.in_edge_rows_ctx(e.ctx());  // (partitioned: the owned vertices' whole rows)
    const std::uint64_t receivers = rows.vertex_count, edges = e.in_edge_rows_edges();
    if (edges >= gpu::kWarpPullDegree * receivers)
      gpu::launch_kernel<gpu::kernels::in_edge_pull_warp_kernel<Message, VertexArrays, EdgeArrays, Work, Op>>(
          gpu::grid_for(receivers * 32, e.max_blocks_), gpu::kernels::kBlock, e.stream_.get(), rows,
          e.vertex_arrays_, e.edge_arrays_, work, op, fill, e.d_combined_.data(), received);
    else
      gpu::launch_kernel<gpu::kernels::in_edge_pull_kernel<Message, VertexArrays, EdgeArrays, Work, Op>>(
          gpu::grid_for(receivers, e.max_blocks_), gpu::kernels::kBlock, e.stream_.get(), rows, e.vertex_arrays_,
          e.edge_arrays_, work, op, fill, e.d_combined_.data(), received);
    MEDUSA_CUDA_CHECK_LAUNCH("in_edge_pull_kernel");
    e.edges_visited_ += edges;
  }

  // InitMessageBuffer(fill); the launch `work` stands for over all edges; Combiner(op), as one
  // pass in which each vertex runs its in-edges' work and folds their messages (pull_fusion.h).
  // Over Domain::Active only the in-edges of frontier vertices run their work.
  template <class Work, class Op>
  void fused_combine(const Work& work, const Op& op, const Message& fill, Domain domain) {
    Engine& e = self();
    gpu::DeviceScope on(e.device_.ordinal);
    e.issue_held();
    // A batch may pull over every vertex, and push a frontier unless the push would leave slots
    // pending on its flags (a pulled frontier would count its edges from a stale size).
    constexpr bool pushable = common::may_push_combine<Op, Message> &&
                              (common::has_source_message<Work>::value || Program::uses.combiner_consumes_slots);
    const bool batchable = domain == Domain::All || pushable;
    if (e.batch_.stopped() || (!batchable && e.skips_unbatchable())) return;
    e.init_value_ = fill;
    e.ensure_message_buffer();
    const bool frontier = domain == Domain::Active;
    const std::uint8_t* active = frontier ? e.d_active_flags_.data() : nullptr;
    if constexpr (common::has_source_message<Work>::value) {  // one message per source vertex
      // Every slot would hold its source's message (the fill value for an inactive source): the
      // slots are left unwritten until something reads or writes them (materialize_slots),
      // usually never (PageRank, BFS).
      e.slots_ = SlotState::FromSources;
      if constexpr (common::may_push_combine<Op, Message>) {
        if (frontier && !frontier_pull_preferred()) {
          frontier_passes_ |= common::kFrontierPushed;
          return push_combine(work, op, fill);
        }
      }
      constexpr bool may_stop = common::may_stop_at_first_message<Work, Op, Message>;
      // Joinable by a VERTEX launch over the vertices it folds (all, or a partition's owned ones).
      const bool joinable = !frontier && vertex_fusion_ && e.combine_count_ == e.owned_count_;
      // The VERTEX step before may have computed this pass's messages (source_prefetch.cuh); not
      // for replicas, whose fields the exchange refreshes but whose messages nothing recomputes.
      const bool prefetchable = joinable && e.owned_count_ == e.V_;
      const bool prefetched = prefetchable && prefetch_.take(work, user_launches_, e.d_source_messages_);
      const bool one_message = !prefetched && source_messages(work, fill, active, frontier && may_stop);
      const gpu::SourceMessageSource<Message> gathered{e.d_in_src_.data(), active, e.d_source_messages_.data(), fill,
                                                       &e.d_counters_.data()->source_sent_fill};
      if (joinable) {
        pending_gather_ = gathered;
        if (prefetchable) prefetch_.plan(work, e.V_, e.E_);
      } else if (may_stop && one_message)
        gather(gpu::FirstActiveSource<Message>{e.d_in_src_.data(), active, e.d_source_messages_.data(), fill}, op,
               e.d_received_.data());
      else
        gather(gathered, op, e.d_received_.data());
    } else {
      if constexpr (common::may_push_combine<Op, Message>) {
        if (frontier && push_fold_preferred()) {
          frontier_passes_ |= common::kFrontierPushed;
          return push_fold(work, op, fill);
        }
      }
      e.slots_ = SlotState::Written;
      using Source = gpu::FusedSource<Message, VertexArrays, EdgeArrays, Work>;
      gather(Source{e.ctx(), e.vertex_arrays_, e.edge_arrays_, work, e.d_in_src_.data(), e.d_in_pos_.data(), active,
                    e.d_messages_.data(), fill},
             op, e.d_received_.data());
    }
    if (frontier) frontier_passes_ |= common::kFrontierPulled;
    e.edges_visited_ += frontier ? e.active_vertex_edges_ : e.E_;
  }
  // The gather of a fused pass over every vertex with one message per source waits for the next
  // operation: a VERTEX launch over every vertex runs in it, on the thread that folds the vertex
  // (it reads only its own vertex and combined value; the gather reads only the source messages
  // computed before). Anything else issues the gather alone first. The session calls one of these.
  bool gather_pending() const { return pending_gather_.has_value(); }
  template <class Op>
  void issue_pending_gather(const Op& op) {
    Engine& e = self();
    gpu::DeviceScope on(e.device_.ordinal);
    gather(take_pending_gather(), op, e.d_received_.data());
    prefetch_.issued(/*computed=*/false, user_launches_);
  }
  // The VERTEX step may also compute the next superstep's source messages (source_prefetch.cuh).
  template <class Op, class Element>
  void issue_pending_gather(const Op& op, const Element& vertex_element) {
    Engine& e = self();
    gpu::DeviceScope on(e.device_.ordinal);
    const gpu::VertexStep<Message, VertexArrays, EdgeArrays, Element> step{e.ctx(), e.vertex_arrays_,
                                                                           e.edge_arrays_, vertex_element};
    using Work = typename gpu::next_source_work<Element>::type;
    if constexpr (!std::is_void_v<Work>) {
      if (const Work* work = prefetch_.template planned<Work>(e.V_)) {
        gather(take_pending_gather(), op, e.d_received_.data(),
               gpu::VertexStepThenMessage<Message, VertexArrays, EdgeArrays, Element, Work>{step, *work,
                                                                                          prefetch_.next()});
        prefetch_.issued(/*computed=*/true, user_launches_);
        return;
      }
    }
    gather(take_pending_gather(), op, e.d_received_.data(), step);
    prefetch_.issued(/*computed=*/false, user_launches_);
  }

  // A sparse frontier of uniform sends under min / max / bitwise or / and (pull_fusion.h:
  // may_push_combine): the combined values start at the fill value and each frontier edge folds its
  // source's message into its head's (push_combine.cuh), through the queue expansion of an
  // edge-parallel ELIST.
  template <class Work, class Op>
  void push_combine(const Work& work, const Op& op, const Message& fill) {
    Engine& e = self();
    if (e.receiver_push()) {  // no pass over every vertex: each edge computes its source's message
      e.slots_ = SlotState::Unwritten;
      const gpu::ReceiverQueue receivers = e.start_receiver_push(fill);
      gpu::run_elist_edges_on_partition(
          e, Domain::Active,
          gpu::PushSourceElement<Message, Op, Work>{
              work, {e.d_combined_.data(), e.d_received_.data(), op, receivers, /*frontier=*/true}},
          common::LaunchRange::whole(e.V_));
      return;
    }
    source_messages(work, fill, e.d_active_flags_.data(), false, /*reset_combined=*/true);
    gpu::run_elist_edges_on_partition(
        e, Domain::Active,
        gpu::PushCombineElement<Message, Op>{e.d_source_messages_.data(),
                                             {e.d_combined_.data(), e.d_received_.data(), op, {}, /*frontier=*/true}},
        common::LaunchRange::whole(e.V_));  // (counts the frontier's edges as visited)
  }
  // A frontier of sends that depend on the edge, under min / max: the combined values start at the
  // fill value, each frontier edge runs its work, writes its slot and folds what it sent into its
  // head's value (push_combine.cuh). The other slots are left pending as the fill value, with the
  // frontier's flags kept to tell them apart (materialize_slots). When nothing reads the slots
  // after the Combiner (combiner_consumes_slots), none is written.
  template <class Work, class Op>
  void push_fold(const Work& work, const Op& op, const Message& fill) {
    Engine& e = self();
    constexpr bool write_slots = !Program::uses.combiner_consumes_slots;
    gpu::ReceiverQueue receivers;
    if (e.receiver_push()) {
      receivers = e.start_receiver_push(fill);
    } else {
      e.reset_combined(fill);
    }
    gpu::run_elist_edges_on_partition(
        e, Domain::Active,
        gpu::PushFoldElement<Message, Op, Work>{
            work, {e.d_combined_.data(), e.d_received_.data(), op, receivers, /*frontier=*/true}, fill, write_slots},
        common::LaunchRange::whole(e.V_));  // (counts the frontier's edges as visited)
    e.slots_ = write_slots ? SlotState::FrontierSources : SlotState::Unwritten;
    e.pushed_sources_ = e.d_active_flags_.data();
  }
  // InitMessageBuffer(fill); EMV<EDGE>::Run(element) over all edges; Combiner(op) in a program
  // whose Combiner consumes its slots, under min / max (the session deferred them): the combined
  // values start at the fill value and every edge folds what it sends into its tail's; no slot is
  // written (SSSP and BFS in the paper's EDGE form).
  template <class Element, class Op>
  void push_fold_edges(const Element& element, const Op& op, const Message& fill) {
    static_assert(Program::uses.combiner_consumes_slots, "push_fold_edges: the slots must not be read");
    Engine& e = self();
    gpu::DeviceScope on(e.device_.ordinal);
    e.issue_held();
    if (e.skips_unbatchable()) return;
    e.init_value_ = fill;
    e.ensure_message_buffer();
    e.reset_combined(fill);
    e.slots_ = SlotState::Unwritten;
    gpu::run_on_partition<EDGE>(  // (counts the edges as visited)
        e, Domain::All,
        gpu::PushFoldEdgeElement<Message, Op, Element>{element, {e.d_combined_.data(), e.d_received_.data(), op},
                                                       fill},
        common::LaunchRange::whole(e.V_));
  }
  // d_source_messages_[v] = the message of v, or with frontier flags `active`, of active v and the
  // fill value for inactive v. With `compare`, returns whether every active source (with
  // out-edges) sends the same message, bit for bit (a read-back: the caller chooses the pass by
  // it). With `reset_combined`, the combined values become the fill value and the receivers' flags
  // 0 in the same pass (push_combine).
  template <class Work>
  bool source_messages(const Work& work, const Message& fill, const std::uint8_t* active, bool compare,
                       bool reset_combined = false) {
    Engine& e = self();
    if (reset_combined) e.receivers_valid_ = false;
    if (e.V_ == 0) return false;
    cudaStream_t s = e.stream_.get();
    if (compare) {
      h_bit_range_[0] = ~0ull;
      h_bit_range_[1] = 0;
      d_bit_range_.upload(h_bit_range_.data(), 2, s);
    }
    gpu::launch_kernel<gpu::kernels::source_message_kernel<Message, VertexArrays, EdgeArrays, Work>>(
        gpu::grid_for(e.V_, e.max_blocks_), gpu::kernels::kBlock, s, e.ctx(), e.vertex_arrays_, e.edge_arrays_, work,
        active, e.V_, fill, e.d_source_messages_.data(), compare ? d_bit_range_.data() : nullptr,
        reset_combined ? e.d_combined_.data() : nullptr, reset_combined ? e.d_received_.data() : nullptr,
        active != nullptr ? &e.d_counters_.data()->source_sent_fill : nullptr);
    MEDUSA_CUDA_CHECK_LAUNCH("source_message_kernel");
    if (!compare) return false;
    d_bit_range_.download(h_bit_range_.data(), 2, s);
    e.stream_.sync();
    return h_bit_range_[0] == h_bit_range_[1];
  }

  // Whether a frontier of edge-dependent sends is pushed: a sparse one always; a dense one too when
  // the push writes no slot; writing the slots, the dense pushes cost more than the pulls
  // (docs/tuning.md, "Measurements behind the defaults").
  bool push_fold_preferred() const {
    if (!frontier_pull_preferred()) return true;
    return Program::uses.combiner_consumes_slots && frontier_pull_ != FrontierPull::Always;
  }
  // Whether this superstep's frontier is dense enough to pull (pull_fusion.h).
  bool frontier_pull_preferred() const {
    const Engine& e = self();
    return !e.batch_.active() && pull_fusion_ && Program::uses.vertex_frontier &&
           common::prefer_frontier_pull(frontier_pull_, e.active_vertex_edges_, e.E_);
  }

  bool pull_fusion() const { return pull_fusion_; }
  // Supersteps whose source-message pass the host skipped (source_prefetch.cuh), since the last call.
  std::uint32_t take_source_prefetches() { return prefetch_.take_hits(); }
  // How this superstep's frontier passes ran (common::FrontierPass), for Config::verbose.
  std::uint8_t take_frontier_passes() { return std::exchange(frontier_passes_, std::uint8_t{0}); }
  void note_frontier_push() { frontier_passes_ |= common::kFrontierPushed; }
  // A launch that runs user code: it may change what a prefetched source message would read.
  void note_user_launch() { ++user_launches_; }

 protected:
  Engine& self() { return static_cast<Engine&>(*this); }
  const Engine& self() const { return static_cast<const Engine&>(*this); }

  // One fold per vertex of [0, combine_count_) over its slots, values from `src`.
  // `then(v)` runs after v's fold (gather.cuh: NoVertexStep, VertexStep).
  template <class Source, class Op, class Then = gpu::NoVertexStep>
  void gather(const Source& src, const Op& op, std::uint8_t* received, const Then& then = {}) {
    Engine& e = self();
    e.receivers_valid_ = false;
    note_user_launch();  // (a fused pass runs the work; a VertexStep the VERTEX functor)
    const gpu::GatherOut<Message> out{e.d_combined_.data(), received, e.d_in_offsets_.data(), e.m_, e.init_value_,
                                      e.batch_.device_halted(), &e.d_counters_.data()->step_state};
    cudaStream_t s = e.stream_.get();
    switch (combiner_) {
      case CombinerStrategy::Group4:
        return gpu::gather_uniform<4, Message>(src, out, e.combine_count_, op, e.max_blocks_, s, then);
      case CombinerStrategy::Warp:
        return gpu::gather_uniform<32, Message>(src, out, e.combine_count_, op, e.max_blocks_, s, then);
      default:
        return gpu::gather_binned<Message>(src, out, bins_, op, e.max_blocks_, s, then);
    }
  }
  gpu::SourceMessageSource<Message> take_pending_gather() {
    MEDUSA_REQUIRE(pending_gather_.has_value(), "internal: no gather is pending");
    const gpu::SourceMessageSource<Message> src = *pending_gather_;
    pending_gather_.reset();
    return src;
  }

  CombinerStrategy combiner_ = CombinerStrategy::Auto;
  bool pull_fusion_ = false;
  FrontierPull frontier_pull_;
  gpu::DegreeBins bins_;
  // Tuning::vertexFusion off: a VERTEX launch after a fused pass never runs in its gather.
  bool vertex_fusion_;
  std::optional<gpu::SourceMessageSource<Message>> pending_gather_;  // (gather_pending())
  gpu::SourcePrefetcher<Message> prefetch_;
  std::uint64_t user_launches_ = 0;  // launches that ran user code (note_user_launch)
  std::uint8_t frontier_passes_ = 0;
  gpu::DeviceBuffer<unsigned long long> d_bit_range_;  // least and greatest message bits (frontier pull)
  gpu::PinnedBuffer<unsigned long long> h_bit_range_;
};

}  // namespace medusa::gpu
