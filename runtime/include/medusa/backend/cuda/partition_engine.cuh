// One partition of a run on one GPU (the whole graph when gpuCount is 1): the paper's device data
// structures (Init_Device_DS), InitMessageBuffer, Combiner, superstep boundaries and Dump_Result.
// Session<Program> (cuda/session.cuh) drives one engine per partition with the same semantics as
// the host backend (docs/design/codegen-contract.md); the executors are in exec.cuh.
//
// Per superstep the host issues: one launch that zeroes the step counters (votes and frontier
// counts) and sets detail::d_step_state (votes, superstep number), the user's launches, one
// compaction kernel per frontier in use, and one small device-to-host copy of the counters, which
// is the only synchronization. Long runs of sparse supersteps are issued in batches with one
// read-back per batch instead (superstep_batch.cuh). Nothing is allocated after the constructor (a
// user combiner operator needing more CUB storage than the built-in one grows it once).
#pragma once

#include <medusa/backend/common/combiner_ops.h>
#include <medusa/backend/common/edge_layout.h>
#include <medusa/backend/common/field_staging.h>
#include <medusa/backend/common/message_value.h>
#include <medusa/backend/common/partition_view.h>
#include <medusa/backend/common/partitioned_session.h>
#include <medusa/backend/common/pull_fusion.h>
#include <medusa/backend/cuda/buffer.h>
#include <medusa/backend/cuda/check.h>
#include <medusa/backend/cuda/combine.cuh>
#include <medusa/backend/cuda/device.h>
#include <medusa/backend/cuda/gather.cuh>
#include <medusa/backend/cuda/in_edge_pull.cuh>
#include <medusa/backend/cuda/kernels.cuh>
#include <medusa/backend/cuda/memory_plan.h>
#include <medusa/backend/cuda/push_combine.cuh>
#include <medusa/backend/cuda/queue_expand.cuh>
#include <medusa/backend/cuda/source_prefetch.cuh>
#include <medusa/backend/cuda/superstep_batch.cuh>
#include <medusa/config.h>
#include <medusa/device_api.h>
#include <medusa/error.h>
#include <medusa/graph.h>
#include <medusa/program.h>
#include <medusa/session.h>
#include <medusa/topology.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

namespace medusa {

namespace gpu {

// Written on the device during a superstep, read back once at its end.
struct StepCounters {
  int votes[kVoteSlots];
  int source_sent_fill;  // an active source's message equals the fill value (gather.cuh: SourceMessageSource)
  unsigned long long next_active_vertices;
  unsigned long long next_active_vertex_edges;  // sum of out-degrees of next_active_vertices
  unsigned long long next_active_edges;
};

// What the executors need for one launch besides ctx() and the field arrays.
struct LaunchState {
  cudaStream_t stream = nullptr;
  unsigned max_blocks = 1;  // grid cap for the grid-stride kernels
  const VertexId* active_vertices = nullptr;
  std::uint64_t active_vertex_count = 0;
  std::uint64_t active_vertex_edges = 0;
  const EdgeIndex* active_edges = nullptr;
  std::uint64_t active_edge_count = 0;
  const std::uint8_t* received = nullptr;
  // In a batch after a push that kept one: the receivers as a queue, its length on the device.
  const VertexId* receiver_queue = nullptr;
  const unsigned long long* device_receiver_count = nullptr;
  // In a batch (superstep_batch.cuh): the frontier's size on the device; active_vertex_count and
  // active_vertex_edges are then only bounds for the grids.
  const unsigned long long* device_vertex_count = nullptr;
};

inline unsigned grid_for(std::uint64_t n, unsigned max_blocks) {
  const std::uint64_t blocks = (n + gpu::kernels::kBlock - 1) / gpu::kernels::kBlock;
  return static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(blocks, max_blocks)));
}

// Makes `ordinal` the current device for the calls in its scope: engines of one run may sit on
// different GPUs, so every entry point that issues work selects its own.
class DeviceScope {
 public:
  explicit DeviceScope(int ordinal) {
    int current = -1;  // (asking is cheaper than setting: a batched superstep pays for every call)
    if (cudaGetDevice(&current) != cudaSuccess || current != ordinal) MEDUSA_CUDA_CHECK(cudaSetDevice(ordinal));
  }
};

template <class Program>
class PartitionEngine;
// The executors (exec.cuh, included at the end).
template <ApiKind K, class Program, class Element>
void run_on_partition(PartitionEngine<Program>& s, Domain domain, const Element& element,
                      const common::LaunchRange& range);
template <class Program, class Element>
void run_elist_edges_on_partition(PartitionEngine<Program>& s, Domain domain, const Element& element,
                                  const common::LaunchRange& range);

template <class Program>
class PartitionEngine {
 public:
  using Vertex = typename Program::Vertex;
  using Edge = typename Program::Edge;
  using Message = typename Program::Message;
  using VertexArrays = typename Program::VertexArrays;
  using EdgeArrays = typename Program::EdgeArrays;
  static constexpr bool kBatchesSupersteps = true;
  static constexpr bool kFusesVertexIntoGather = true;  // (pending_gather_)

  // Init_Device_DS for one partition: checks that everything fits in the GPU's free memory,
  // allocates and uploads (fields gathered from the user's graph through the view's maps).
  PartitionEngine(const common::PartitionView& view, const Graph<Vertex, Edge>& graph,
                  const std::vector<VertexId>& seeds, const Config& conf, std::uint32_t slot)
      : conf_(conf), index_(view.index), owned_count_(view.owned_count),
        combine_count_(view.combine_count), device_(checked_device(conf, slot)),
        stream_(conf.gpuCount > 1 && conf.partitionsPerGpu > 1, device_.ordinal) {
    const Topology& t = *view.topology;
    V_ = t.vertex_count;
    E_ = t.edge_count;
    m_ = conf.messagesPerEdge;
    max_blocks_ = static_cast<unsigned>(std::max(1, device_.sm_count) * 32);

    // The outermost replicas have no in-edges here: the combiner skips them.
    combiner_ = conf.tuning.combiner;
    pull_fusion_ = common::pull_fusion_enabled<Program>(conf);  // (one partition only)
    const bool binned = combiner_ == CombinerStrategy::Auto || pull_fusion_;

    // Size everything first; throw before the first allocation if it cannot fit.
    std::size_t temp_bytes = 0;
    if constexpr (std::is_arithmetic_v<Message>) {
      if (combiner_ == CombinerStrategy::Cub) {
        common::visit_builtin_combiner<Message>(conf.combinerOpType, [&](auto op) {
          temp_bytes = gpu::segmented_reduce_temp_bytes<Message>(combine_count_, op);
        });
      }
    }
    gpu::GraphShape shape;
    shape.vertices = V_;
    shape.edges = E_;
    shape.messages_per_edge = m_;
    shape.message_bytes = sizeof(Message);
    for (const FieldSpec& f : Program::vertex_fields) shape.vertex_fields.push_back({f.name, f.size});
    for (const FieldSpec& f : Program::edge_fields) shape.edge_fields.push_back({f.name, f.size});
    shape.vertex_frontier = Program::uses.vertex_frontier;
    shape.edge_frontier = Program::uses.edge_frontier;
    shape.received = Program::uses.received;
    shape.temp_bytes = temp_bytes;
    shape.partitioned = view.global_id != nullptr;
    shape.pull_fusion = pull_fusion_;
    if (Program::uses.vertex_frontier) shape.queue_scan_bytes = gpu::QueueExpansion::device_bytes(V_);
    shape.frontier_flags = pull_fusion_ && Program::uses.vertex_frontier;
    // Batches push every frontier (so not with pulls forced) and have no edge frontier. Verbose
    // runs report every superstep, so they read each one back. Pushes in a batch whose slots nothing
    // reads keep their receivers as a queue.
    const bool batches = batch_.allow(conf.gpuCount == 1 && !conf.verbose && !Program::uses.edge_frontier &&
                                      frontier_pull_ != FrontierPull::Always);
    receiver_queues_ = batches && pull_fusion_ && Program::uses.vertex_frontier && Program::uses.received &&
                       Program::uses.combiner_consumes_slots;
    shape.receiver_queues = receiver_queues_;
    // In a batch, SetActive() queues the next frontier itself; the flag buffers then trade places
    // each superstep, which pending slots on a pushed frontier's flags would not survive.
    queued_frontier_ = batches && pull_fusion_ && Program::uses.vertex_frontier &&
                       Program::uses.combiner_consumes_slots;
    shape.queued_frontier = queued_frontier_;
    if (binned)
      shape.combiner_bin_bytes = gpu::DegreeBins::device_bytes(t.in_offsets, combine_count_, m_, sizeof(Message));
    plan_ = gpu::plan_memory(shape);
    const std::uint64_t free_bytes = gpu::free_device_bytes();
    // The column slots get what the rest leaves, less a tenth for CUB and the driver.
    const std::uint64_t room = free_bytes > plan_.total() ? (free_bytes - plan_.total()) / 10 * 9 : 0;
    layout_ = common::choose_edge_layout(t.out_offsets, conf.layout, Program::uses.vertex_edge_loops,
                                         common::LayoutTarget::Gpu,
                                         room / common::EdgeLayoutChoice::kSlotBytes);
    shape.column_edge_bytes = layout_.bytes();
    plan_ = gpu::plan_memory(shape);
    gpu::require_fits(plan_, shape, free_bytes, device_.name);

    cudaStream_t s = stream_.get();
    // Topology, copied as built on the host.
    d_out_offsets_.allocate(t.out_offsets.size());
    d_out_offsets_.upload(t.out_offsets.data(), t.out_offsets.size(), s);
    d_out_dst_.allocate(E_);
    d_out_dst_.upload(t.out_dst.data(), E_, s);
    d_edge_src_.allocate(E_);
    d_edge_src_.upload(t.edge_src.data(), E_, s);
    d_rid_.allocate(E_);
    d_rid_.upload(t.rid.data(), E_, s);
    d_in_offsets_.allocate(t.in_offsets.size());
    d_in_offsets_.upload(t.in_offsets.data(), t.in_offsets.size(), s);
    if (view.global_id != nullptr) {  // partitioned: the functors' global view
      d_global_id_.allocate(V_);
      d_global_id_.upload(view.global_id, V_, s);
      d_out_degree_.allocate(V_);
      d_out_degree_.upload(view.out_degree, V_, s);
      d_in_degree_.allocate(V_);
      d_in_degree_.upload(view.in_degree, V_, s);
      global_id_.assign(view.global_id, view.global_id + V_);
      stream_.sync();  // the view's arrays may go away
    }
    out_offsets_ = t.out_offsets;
    if (layout_.columns()) upload_column_edges(t);
    if (binned) bins_.build(t.in_offsets, combine_count_, m_, sizeof(Message), device_.sm_count, conf.tuning, s);
    if (pull_fusion_) upload_in_edges(t);

    // User fields as structure-of-arrays: vertices in local ID order, edges in CSR order.
    std::vector<std::byte> staging;
    upload_fields(Program::vertex_fields, d_vertex_fields_, vertex_ptrs_, graph.vertices().data(),
                  sizeof(Vertex), V_, view.global_id, staging);
    upload_fields(Program::edge_fields, d_edge_fields_, edge_ptrs_, graph.edges().data(),
                  sizeof(Edge), E_, view.input_edge, staging);
    vertex_arrays_ = Program::bind_vertex(vertex_ptrs_.data());
    edge_arrays_ = Program::bind_edge(edge_ptrs_.data());

    input_edge_.assign(view.input_edge, view.input_edge + E_);

    // Messages (a program that sends none gets the buffer on its first InitMessageBuffer or
    // Combiner call instead). combined[] starts as Message{}.
    if (Program::uses.messages) ensure_message_buffer();
    d_combined_.allocate(V_);
    fill(d_combined_.data(), V_, Message{});

    // Frontiers and receivers.
    if (Program::uses.vertex_frontier) {
      const std::uint64_t flag_words = (V_ + 3) / 4 * 4;  // whole words: a queued SetActive sets one by word
      d_next_active_vertex_.allocate(flag_words);
      d_next_active_vertex_.zero(s);
      d_active_vertices_.allocate(V_);
      if (queued_frontier_) d_next_queue_.allocate(V_);
      expansion_.allocate(V_);
      if (pull_fusion_) {
        d_active_flags_.allocate(flag_words);
        d_pushed_flags_.allocate(flag_words);
      }
      seed_active_vertices(seeds, t);
    }
    if (Program::uses.edge_frontier) {
      d_next_active_edge_.allocate(E_);
      d_next_active_edge_.zero(s);
      d_active_edges_.allocate(E_);
    }
    if (Program::uses.received) {
      d_received_.allocate((V_ + 3) / 4 * 4);  // whole words: ReceiverQueue sets flags by word
      d_received_.zero(s);
    }
    if (receiver_queues_) {
      for (auto& q : d_receivers_) q.allocate(V_);
      d_combined_spare_.allocate(V_);
      d_received_spare_.allocate((V_ + 3) / 4 * 4);
    }
    d_counters_.allocate(1);
    d_counters_.zero(s);
    batch_.allocate();
    d_temp_.allocate(temp_bytes);
    h_counters_ = gpu::PinnedBuffer<gpu::StepCounters>(1);
    stream_.sync();
  }

  PartitionEngine(const PartitionEngine&) = delete;
  PartitionEngine& operator=(const PartitionEngine&) = delete;

  // Copies the kDownload fields of the owned vertices and of the local edges into `graph`.
  void download(Graph<Vertex, Edge>& graph) {
    gpu::DeviceScope on(device_.ordinal);
    issue_held();
    require_exact_counts();
    stream_.sync();
    std::vector<std::byte> staging;
    download_fields(Program::vertex_fields, d_vertex_fields_, graph.vertices().data(),
                    sizeof(Vertex), owned_count_, global_id_.empty() ? nullptr : global_id_.data(),
                    staging);
    download_fields(Program::edge_fields, d_edge_fields_, graph.edges().data(), sizeof(Edge), E_,
                    input_edge_.data(), staging);
  }

  // Combiner(op): combined[v] = InitMessageBuffer value op each of v's message slots.
  template <class Op>
  void combine(const Op& op) {
    gpu::DeviceScope on(device_.ordinal);
    issue_held();
    if (skips_unbatchable()) return;
    ensure_message_buffer();
    materialize_slots();
    receivers_valid_ = false;
    cudaStream_t s = stream_.get();
    if (combiner_ != CombinerStrategy::Cub) {
      gather(gpu::BufferSource<Message>{d_messages_.data()}, op, nullptr);
      return;
    }
    const std::size_t need = gpu::segmented_reduce_temp_bytes<Message>(combine_count_, op);
    if (need > d_temp_.size()) d_temp_.allocate(need);  // once per operator type, at most
    const EdgeIndex* offsets = m_ > 1 ? d_message_offsets_.data() : d_in_offsets_.data();
    gpu::segmented_reduce(static_cast<void*>(d_temp_.data()), d_temp_.size(), d_messages_.data(),
                           d_combined_.data(), combine_count_, offsets, op, init_value_, s);
  }

  // EMV<ELIST>::Run over in-edges (medusa/in_edges.h) and Combiner(op), as one pulled pass.
  template <class Work, class Op>
  void pull_in_edges(const Work& work, const Op& op, const Message& fill) {
    gpu::DeviceScope on(device_.ordinal);
    issue_held();
    if (skips_unbatchable()) return;
    init_value_ = fill;
    receivers_valid_ = false;
    note_user_launch();
    std::uint8_t* received = Program::uses.received ? d_received_.data() : nullptr;
    if (E_ >= gpu::kWarpPullDegree * V_)
      gpu::launch_kernel<gpu::kernels::in_edge_pull_warp_kernel<Message, VertexArrays, EdgeArrays, Work, Op>>(
          gpu::grid_for(std::uint64_t{V_} * 32, max_blocks_), gpu::kernels::kBlock, stream_.get(), ctx(),
          vertex_arrays_, edge_arrays_, work, op, fill, d_combined_.data(), received);
    else
      gpu::launch_kernel<gpu::kernels::in_edge_pull_kernel<Message, VertexArrays, EdgeArrays, Work, Op>>(
          gpu::grid_for(V_, max_blocks_), gpu::kernels::kBlock, stream_.get(), ctx(), vertex_arrays_, edge_arrays_,
          work, op, fill, d_combined_.data(), received);
    MEDUSA_CUDA_CHECK_LAUNCH("in_edge_pull_kernel");
    edges_visited_ += E_;
  }

  // InitMessageBuffer(fill); the launch `work` stands for over all edges; Combiner(op), as one
  // pass in which each vertex runs its in-edges' work and folds their messages (pull_fusion.h).
  // Over Domain::Active only the in-edges of frontier vertices run their work.
  template <class Work, class Op>
  void fused_combine(const Work& work, const Op& op, const Message& fill, Domain domain) {
    gpu::DeviceScope on(device_.ordinal);
    issue_held();
    // A batch may pull over every vertex, and push a frontier unless the push would leave slots
    // pending on its flags (a pulled frontier would count its edges from a stale size).
    constexpr bool pushable = common::may_push_combine<Op, Message> &&
                              (common::has_source_message<Work>::value || Program::uses.combiner_consumes_slots);
    const bool batchable = domain == Domain::All || pushable;
    if (batch_.stopped() || (!batchable && skips_unbatchable())) return;
    init_value_ = fill;
    ensure_message_buffer();
    const bool frontier = domain == Domain::Active;
    const std::uint8_t* active = frontier ? d_active_flags_.data() : nullptr;
    if constexpr (common::has_source_message<Work>::value) {  // one message per source vertex
      // Every slot would hold its source's message (the fill value for an inactive source): the
      // slots are left unwritten until something reads or writes them (materialize_slots),
      // usually never (PageRank, BFS).
      slots_ = SlotState::FromSources;
      if constexpr (common::may_push_combine<Op, Message>) {
        if (frontier && !frontier_pull_preferred()) return push_combine(work, op, fill);
      }
      constexpr bool may_stop = common::may_stop_at_first_message<Work, Op, Message>;
      const bool joinable = !frontier && vertex_fusion_ && combine_count_ == V_;  // by a VERTEX launch
      // (the VERTEX step before may have computed this pass's messages: source_prefetch.cuh)
      const bool prefetched = joinable && prefetch_.take(work, user_launches_, d_source_messages_);
      const bool one_message = !prefetched && source_messages(work, fill, active, frontier && may_stop);
      const gpu::SourceMessageSource<Message> gathered{d_in_src_.data(), active, d_source_messages_.data(), fill,
                                                       &d_counters_.data()->source_sent_fill};
      if (joinable) {
        pending_gather_ = gathered;
        prefetch_.plan(work, V_, E_);
      } else if (may_stop && one_message)
        gather(gpu::FirstActiveSource<Message>{d_in_src_.data(), active, d_source_messages_.data(), fill},
               op, d_received_.data());
      else
        gather(gathered, op, d_received_.data());
    } else {
      if constexpr (common::may_push_combine<Op, Message>) {
        if (frontier && push_fold_preferred()) return push_fold(work, op, fill);
      }
      slots_ = SlotState::Written;
      using Source = gpu::FusedSource<Message, VertexArrays, EdgeArrays, Work>;
      gather(Source{ctx(), vertex_arrays_, edge_arrays_, work, d_in_src_.data(), d_in_pos_.data(),
                    active, d_messages_.data(), fill},
             op, d_received_.data());
    }
    edges_visited_ += frontier ? active_vertex_edges_ : E_;
  }
  // The gather of a fused pass over every vertex with one message per source waits for the next
  // operation: a VERTEX launch over every vertex runs in it, on the thread that folds the vertex
  // (it reads only its own vertex and combined value; the gather reads only the source messages
  // computed before). Anything else issues the gather alone first. The session calls one of these.
  bool gather_pending() const { return pending_gather_.has_value(); }
  template <class Op>
  void issue_pending_gather(const Op& op) {
    gpu::DeviceScope on(device_.ordinal);
    gather(take_pending_gather(), op, d_received_.data());
    prefetch_.issued(/*computed=*/false, user_launches_);
  }
  // The VERTEX step may also compute the next superstep's source messages (source_prefetch.cuh).
  template <class Op, class Element>
  void issue_pending_gather(const Op& op, const Element& vertex_element) {
    gpu::DeviceScope on(device_.ordinal);
    const gpu::VertexStep<Message, VertexArrays, EdgeArrays, Element> step{ctx(), vertex_arrays_, edge_arrays_,
                                                                           vertex_element};
    using Work = typename gpu::next_source_work<Element>::type;
    if constexpr (!std::is_void_v<Work>) {
      if (const Work* work = prefetch_.template planned<Work>(V_)) {
        gather(take_pending_gather(), op, d_received_.data(),
               gpu::VertexStepThenMessage<Message, VertexArrays, EdgeArrays, Element, Work>{step, *work,
                                                                                          prefetch_.next()});
        prefetch_.issued(/*computed=*/true, user_launches_);
        return;
      }
    }
    gather(take_pending_gather(), op, d_received_.data(), step);
    prefetch_.issued(/*computed=*/false, user_launches_);
  }
  // ---- The VERTEX launch over a batched push's receivers, joined with the superstep's end ----
  // Held back when it may be the last operation of a queued superstep: finish_batched_superstep
  // then runs it in the kernel that ends the superstep; any other operation issues it first.
  template <class Element>
  bool hold_receiver_vertex(const Element& element) {
    if (!end_fusion_ || !receiver_queues_ || !batch_.active() || batch_.stopped() || !superstep_queued_ ||
        !receivers_valid_)
      return false;
    issue_held();
    held_issue_ = [this, element] {
      gpu::run_on_partition<VERTEX>(*this, Domain::Received, element, common::LaunchRange::whole(V_));
    };
    held_join_ = [this, element](const gpu::kernels::QueuedSuperstepEnd<gpu::StepCounters>& end) {
      const bool reset = spare_ == SpareState::Dirty;
      const gpu::kernels::ReceiverTail<Message> tail{d_receivers_[receivers_queue_].data(),
                                            batch_.device_receiver_count(receivers_queue_),
                                            reset ? d_receivers_[spare_queue_].data() : nullptr,
                                            batch_.device_receiver_count(spare_queue_),
                                            d_combined_spare_.data(),
                                            d_received_spare_.data(),
                                            spare_fill_};
      const std::uint64_t threads = std::max(batch_.vertex_edge_bound(), batch_.vertex_bound());
      note_user_launch();
      gpu::launch_kernel<
          gpu::kernels::receivers_vertex_end_kernel<gpu::StepCounters, Message, VertexArrays, EdgeArrays, Element>>(
          gpu::grid_for(threads, max_blocks_), 256, stream_.get(), ctx(), vertex_arrays_, edge_arrays_, element, tail,
          end);
      MEDUSA_CUDA_CHECK_LAUNCH("receivers_vertex_end_kernel");
      if (reset) spare_ = SpareState::Clean;
    };
    return true;
  }
  bool vertex_held() const { return static_cast<bool>(held_issue_); }
  // Issues a held VERTEX launch as it was made (before any other operation).
  void issue_held_vertex() { issue_held(); }
  // A sparse frontier of uniform sends under min / max / bitwise or / and (pull_fusion.h:
  // may_push_combine): the combined values start at the fill value and each frontier edge folds its
  // source's message into its head's (push_combine.cuh), through the queue expansion of an
  // edge-parallel ELIST.
  template <class Work, class Op>
  void push_combine(const Work& work, const Op& op, const Message& fill) {
    if (receiver_push()) {  // no pass over every vertex: each edge computes its source's message
      slots_ = SlotState::Unwritten;
      const gpu::ReceiverQueue receivers = start_receiver_push(fill);
      gpu::run_elist_edges_on_partition(
          *this, Domain::Active,
          gpu::PushSourceElement<Message, Op, Work>{
              work, {d_combined_.data(), d_received_.data(), op, receivers, /*frontier=*/true}},
          common::LaunchRange::whole(V_));
      return;
    }
    source_messages(work, fill, d_active_flags_.data(), false, /*reset_combined=*/true);
    gpu::run_elist_edges_on_partition(
        *this, Domain::Active,
        gpu::PushCombineElement<Message, Op>{d_source_messages_.data(),
                                             {d_combined_.data(), d_received_.data(), op, {}, /*frontier=*/true}},
        common::LaunchRange::whole(V_));  // (counts the frontier's edges as visited)
  }
  // A frontier of sends that depend on the edge, under min / max: the combined values start at the
  // fill value, each frontier edge runs its work, writes its slot and folds what it sent into its
  // head's value (push_combine.cuh). The other slots are left pending as the fill value, with the
  // frontier's flags kept to tell them apart (materialize_slots). When nothing reads the slots
  // after the Combiner (combiner_consumes_slots), none is written.
  template <class Work, class Op>
  void push_fold(const Work& work, const Op& op, const Message& fill) {
    constexpr bool write_slots = !Program::uses.combiner_consumes_slots;
    gpu::ReceiverQueue receivers;
    if (receiver_push()) {
      receivers = start_receiver_push(fill);
    } else {
      reset_combined(fill);
    }
    gpu::run_elist_edges_on_partition(
        *this, Domain::Active,
        gpu::PushFoldElement<Message, Op, Work>{
            work, {d_combined_.data(), d_received_.data(), op, receivers, /*frontier=*/true}, fill, write_slots},
        common::LaunchRange::whole(V_));  // (counts the frontier's edges as visited)
    slots_ = write_slots ? SlotState::FrontierSources : SlotState::Unwritten;
    pushed_sources_ = d_active_flags_.data();
  }
  // InitMessageBuffer(fill); EMV<EDGE>::Run(element) over all edges; Combiner(op) in a program
  // whose Combiner consumes its slots, under min / max (the session deferred them): the combined
  // values start at the fill value and every edge folds what it sends into its tail's; no slot is
  // written (SSSP and BFS in the paper's EDGE form).
  template <class Element, class Op>
  void push_fold_edges(const Element& element, const Op& op, const Message& fill) {
    static_assert(Program::uses.combiner_consumes_slots, "push_fold_edges: the slots must not be read");
    gpu::DeviceScope on(device_.ordinal);
    issue_held();
    if (skips_unbatchable()) return;
    init_value_ = fill;
    ensure_message_buffer();
    reset_combined(fill);
    slots_ = SlotState::Unwritten;
    gpu::run_on_partition<EDGE>(  // (counts the edges as visited)
        *this, Domain::All,
        gpu::PushFoldEdgeElement<Message, Op, Element>{element, {d_combined_.data(), d_received_.data(), op}, fill},
        common::LaunchRange::whole(V_));
  }
  // combined[v] = fill and received[v] = 0 for every vertex (the start of a push).
  void reset_combined(const Message& fill) {
    receivers_valid_ = false;
    reset_combined(d_combined_.data(), d_received_.data(), fill);
  }
  void reset_combined(Message* combined, std::uint8_t* received, const Message& fill) {
    if (V_ == 0) return;
    gpu::launch_kernel<gpu::kernels::reset_combined_kernel<Message>>(gpu::grid_for(V_, max_blocks_),
                                                                     gpu::kernels::kBlock, stream_.get(), combined,
                                                                     received, V_, fill, batch_.device_halted());
    MEDUSA_CUDA_CHECK_LAUNCH("reset_combined_kernel");
  }
  // d_source_messages_[v] = the message of v, or with frontier flags `active`, of active v and the
  // fill value for inactive v. With `compare`, returns whether every active source (with
  // out-edges) sends the same message, bit for bit (a read-back: the caller chooses the pass by
  // it). With `reset_combined`, the combined values become the fill value and the receivers' flags
  // 0 in the same pass (push_combine).
  template <class Work>
  bool source_messages(const Work& work, const Message& fill, const std::uint8_t* active, bool compare,
                       bool reset_combined = false) {
    if (reset_combined) receivers_valid_ = false;
    if (V_ == 0) return false;
    cudaStream_t s = stream_.get();
    if (compare) {
      h_bit_range_[0] = ~0ull;
      h_bit_range_[1] = 0;
      d_bit_range_.upload(h_bit_range_.data(), 2, s);
    }
    gpu::launch_kernel<gpu::kernels::source_message_kernel<Message, VertexArrays, EdgeArrays, Work>>(
        gpu::grid_for(V_, max_blocks_), gpu::kernels::kBlock, s, ctx(), vertex_arrays_, edge_arrays_, work, active,
        V_, fill, d_source_messages_.data(), compare ? d_bit_range_.data() : nullptr,
        reset_combined ? d_combined_.data() : nullptr, reset_combined ? d_received_.data() : nullptr,
        active != nullptr ? &d_counters_.data()->source_sent_fill : nullptr);
    MEDUSA_CUDA_CHECK_LAUNCH("source_message_kernel");
    if (!compare) return false;
    d_bit_range_.download(h_bit_range_.data(), 2, s);
    stream_.sync();
    return h_bit_range_[0] == h_bit_range_[1];
  }

  // Whether a frontier of edge-dependent sends is pushed: a sparse one always; a dense one too when
  // the push writes no slot (on Kronecker scale 22, H100, SSSP-Q took 14.3 ms with every frontier
  // pushed that way against 34.5 ms with the dense ones pulled; writing the slots, the dense pushes
  // cost more than the pulls).
  bool push_fold_preferred() const {
    if (!frontier_pull_preferred()) return true;
    return Program::uses.combiner_consumes_slots && frontier_pull_ != FrontierPull::Always;
  }
  // Whether this superstep's frontier is dense enough to pull (pull_fusion.h).
  bool frontier_pull_preferred() const {
    return !batch_.active() && pull_fusion_ && Program::uses.vertex_frontier &&
           common::prefer_frontier_pull(frontier_pull_, active_vertex_edges_, E_);
  }

  void init_message_buffer(const Message& value) {
    gpu::DeviceScope on(device_.ordinal);
    issue_held();
    if (skips_unbatchable()) return;
    init_value_ = value;
    ensure_message_buffer();
    slots_ = SlotState::Written;
    fill(d_messages_.data(), E_ * m_, init_value_);
    d_send_counts_.zero(stream_.get());
    receivers_valid_ = false;
    d_received_.zero(stream_.get());
  }

  // ---- Launches (the session checked the domain and chose the range) --------------------------
  template <ApiKind K, class Element>
  void launch(Domain domain, const Element& element, const common::LaunchRange& range) {
    gpu::DeviceScope on(device_.ordinal);
    issue_held();
    // VERTEX launches may run in a batch; the others may read or write slots.
    if (K == VERTEX ? batch_.stopped() : skips_unbatchable()) return;
    if constexpr (K != VERTEX) materialize_slots();
    gpu::run_on_partition<K>(*this, domain, element, range);
  }
  template <class Element>
  void launch_elist_edges(Domain domain, const Element& element, const common::LaunchRange& range) {
    gpu::DeviceScope on(device_.ordinal);
    issue_held();
    if (skips_unbatchable()) return;
    materialize_slots();
    gpu::run_elist_edges_on_partition(*this, domain, element, range);
  }

  // ---- Superstep boundaries (driven by the session) --------------------------------------------
  void begin_superstep(std::uint32_t step) {
    gpu::DeviceScope on(device_.ordinal);
    superstep_ = step;
    if (step == 0) batch_.restart();
    // Aggregates are read back and published after every superstep: no batches.
    step_batchable_ = medusa::detail::aggregate_count<Program>() == 0;
    // Queued by SetActive() when the batch's frontiers are small next to V: a compaction reads all
    // V flags; the queue's atomics grow with the frontier.
    superstep_queued_ = queued_frontier_ && batch_.active() && batch_.queues_frontier(V_);
    if (batch_.take_next_step_begun()) return;  // (the last batched superstep's end did it)
    cudaStream_t s = stream_.get();
    // One launch instead of a memset and a copy: a road network's thousand supersteps pay for
    // every call the host makes.
    gpu::launch_kernel<gpu::kernels::begin_superstep_kernel<gpu::StepCounters>>(
        1, 32, s, d_counters_.data(), medusa::detail::StepState{votes_ptr(), superstep_});
    MEDUSA_CUDA_CHECK_LAUNCH("begin_superstep_kernel");
  }
  // Promotes the frontiers and starts reading the counters back.
  void finish_superstep() {
    gpu::DeviceScope on(device_.ordinal);
    issue_held();
    cudaStream_t s = stream_.get();
    promote_frontiers(s);
    active_scan_valid_ = false;
    d_counters_.download(h_counters_.data(), 1, s);
  }
  // Waits for finish_superstep's read-back.
  common::StepCounts collect() {
    gpu::DeviceScope on(device_.ordinal);
    stream_.sync();
    const gpu::StepCounters& c = h_counters_[0];
    common::StepCounts out;
    for (int i = 0; i < kVoteSlots; ++i) out.votes[i] = c.votes[i];
    active_vertex_count_ = c.next_active_vertices;
    active_vertex_edges_ = c.next_active_vertex_edges;
    active_edge_count_ = c.next_active_edges;
    out.active_vertices = active_vertex_count_;
    out.active_edges = active_edge_count_;
    if (batch_.should_start(step_batchable_, active_vertex_edges_, E_, Program::uses.vertex_frontier)) {
      batch_.start(stream_.get(), superstep_ + 1, active_vertex_count_, active_vertex_edges_);
      receivers_valid_ = false;
      if (spare_ == SpareState::Dirty) spare_ = SpareState::Unknown;  // (the receiver counts start at 0)
      combined_swaps_ = 0;
      prefetch_.batch_started();
      batch_start_ = host_step_state();
      batch_start_edges_ = edges_visited_;
    }
    return out;
  }

  // ---- Batches of supersteps (superstep_batch.cuh), driven by the session -----------------------
  // Whether the superstep being issued belongs to a batch.
  bool batching() const { return batch_.active() || batch_.stopped(); }
  // Ends a batched superstep: promotes the frontiers and applies the stop rule on the device. Returns
  // the batch's read-back when the batch is full, `last` (maxIteration) or already read back.
  const gpu::BatchOutcome* finish_batched_superstep(const std::array<int, kVoteSlots>& host_votes, bool last) {
    gpu::DeviceScope on(device_.ordinal);
    if (batch_.stopped()) {
      drop_held();  // (it would do nothing)
      batch_.restart();
      return &batch_.outcome();
    }
    cudaStream_t s = stream_.get();
    bool full;
    if (superstep_queued_) {  // SetActive() queued the next frontier and set its flags
      MEDUSA_REQUIRE(slots_ != SlotState::FrontierSources,
                     "internal: message slots pending on a pushed frontier in a queued superstep");
      if (held_join_) {  // the VERTEX launch over the receivers, in the kernel that ends the superstep
        const auto join = std::move(held_join_);
        drop_held();
        join(batch_.queued_end(d_counters_.data(), host_votes, Program::uses.continue_vote,
                               /*ending=*/d_active_vertices_.data(), /*its flags=*/d_active_flags_.data()));
        swap_queued_frontiers();
        full = batch_.superstep_ended();
      } else {
        swap_queued_frontiers();
        full = batch_.end_superstep(s, d_counters_.data(), host_votes, Program::uses.continue_vote,
                                    /*ending=*/d_next_queue_.data(), /*its flags=*/d_next_active_vertex_.data());
      }
      ++queued_swaps_;
    } else {
      issue_held();
      promote_frontiers(s);
      full = batch_.end_superstep(s, d_counters_.data(), host_votes, Program::uses.continue_vote);
    }
    swaps_by_step_[superstep_ - batch_.first_step()] = combined_swaps_;
    prefetch_.step_ended(superstep_ - batch_.first_step());
    host_edges_by_step_[superstep_ - batch_.first_step()] = edges_visited_ - batch_start_edges_;
    active_scan_valid_ = false;
    if (!full && !last) return nullptr;
    return &take_batch(last);
  }
  // A Run that throws may leave copies from pinned buffers in flight: drain the stream.
  void abandon() {
    cudaSetDevice(device_.ordinal);
    pending_gather_.reset();
    drop_held();
    prefetch_.invalidate();
    batch_.abandon(stream_.get());
    cudaStreamSynchronize(stream_.get());
  }

  // ---- Recorded batches (superstep_batch.cuh), for a replayable iteration function -------------
  // At the start of every Run: whether its batches are recorded, and no source messages carried
  // over from what ran before.
  void begin_run(bool replayable) {
    batch_.record_graphs(replayable, conf_.maxIteration);
    prefetch_.invalidate();
  }
  // How many supersteps from `step` a replay of the last recorded batch runs; 0 when the host must
  // issue superstep `step`.
  std::uint32_t replay_length(std::uint32_t step, std::uint32_t max_iteration) const {
    constexpr std::uint32_t n = gpu::BatchPolicy::kLength;
    return batch_.replay_ready() && !batch_.stopped() && std::uint64_t{step} + n <= max_iteration ? n : 0;
  }
  // Launches the last recorded batch again for supersteps `step` .. and reads it back.
  const gpu::BatchOutcome& replay_batch(std::uint32_t step) {
    gpu::DeviceScope on(device_.ordinal);
    superstep_ = step + gpu::BatchPolicy::kLength - 1;
    batch_.replay(stream_.get());
    queued_swaps_ = gpu::BatchPolicy::kLength;  // (as the recording's supersteps traded them: even)
    combined_swaps_ = swaps_by_step_.back();     // (and swaps_by_step_ is still the recording's)
    prefetch_.replayed();
    edges_visited_ += recorded_host_edges_;  // (what the recording's launches counted on the host)
    return take_batch(/*leave=*/superstep_ + 1 >= conf_.maxIteration);
  }

  // ---- For the replica exchange ----------------------------------------------------------------
  int device_ordinal() const { return device_.ordinal; }
  cudaStream_t stream() const { return stream_.get(); }
  std::byte* vertex_field(std::size_t i) { return d_vertex_fields_[i].data(); }
  std::uint8_t* next_vertex_flags() { return d_next_active_vertex_.data(); }
  std::uint64_t take_edges_visited() { return std::exchange(edges_visited_, 0); }
  // Supersteps whose source-message pass the host skipped (source_prefetch.cuh), since the last call.
  std::uint32_t take_source_prefetches() { return prefetch_.take_hits(); }
  // A launch that runs user code: it may change what a prefetched source message would read.
  void note_user_launch() { ++user_launches_; }

  // Device pointers for one launch (valid on the GPU only).
  KernelCtx<Message> ctx() const {
    KernelCtx<Message> c;
    c.vertex_count = V_;
    c.edge_count = E_;
    c.out_offsets = d_out_offsets_.data();
    c.out_dst = d_out_dst_.data();
    c.edge_src = d_edge_src_.data();
    c.rid = d_rid_.data();
    c.in_offsets = d_in_offsets_.data();
    c.messages = d_messages_.data();
    c.send_counts = d_send_counts_.data();
    c.m = m_;
    c.combined = d_combined_.data();
    c.next_active_vertex = d_next_active_vertex_.data();
    c.next_active_edge = d_next_active_edge_.data();
    c.received = d_received_.data();
    c.votes = votes_ptr();
    if (superstep_queued_ && batch_.active()) {
      c.next_active_queue = d_next_queue_.data();
      c.next_active_counts = &d_counters_.data()->next_active_vertices;  // (then next_active_vertex_edges)
    }
    c.halted = batch_.device_halted();
    c.global_id = d_global_id_.data();
    c.out_degree = d_out_degree_.data();
    c.in_degree = d_in_degree_.data();
    return c;
  }
  // ctx() plus the column slots of the layout, for thread-per-vertex ELIST launches.
  KernelCtx<Message> vertex_loop_ctx() const {
    KernelCtx<Message> c = ctx();
    c.column_dst = d_column_dst_.data();
    c.column_rid = d_column_rid_.data();
    c.column_width = layout_.width;
    return c;
  }
  const VertexArrays& vertex_arrays() const { return vertex_arrays_; }
  const EdgeArrays& edge_arrays() const { return edge_arrays_; }

  bool pull_fusion() const { return pull_fusion_; }

  // Layout, memory use and execution strategies, for Config::verbose and users tuning a program.
  std::string report() const {
    std::string r = "medusa CUDA session on GPU " + std::to_string(device_.ordinal) + ", " +
                    device_.name + " (sm_" + std::to_string(device_.compute_major) +
                    std::to_string(device_.compute_minor) + ", " +
                    std::to_string(device_.sm_count) + " SMs)\n";
    if (conf_.gpuCount > 1)
      r += "  partition " + std::to_string(index_) + " of " + std::to_string(conf_.gpuCount) +
           ": " + std::to_string(owned_count_) + " owned vertices, " +
           std::to_string(V_ - owned_count_) + " replicas\n";
    r += "  graph: " + std::to_string(V_) + " vertices, " + std::to_string(E_) +
         " edges, m = " + std::to_string(m_) + ", " + std::to_string(sizeof(Message)) +
         "-byte messages\n";
    r += "  layout: " + layout_.describe() + "; messages through the reverse CSR and rID\n";
    r += "  ELIST: one thread per vertex; edge-parallel elements (medusa-cc proved the edge loop "
         "independent): a thread per edge (All), 1..32 lanes per queued vertex (Active)\n";
    r += std::string("  Combiner: ") +
         gpu::combiner_strategy_name(combiner_ == CombinerStrategy::Cub && pull_fusion_
                                         ? CombinerStrategy::Auto
                                         : combiner_) +
         (pull_fusion_ ? "; " + common::fusion_summary() : std::string()) +
         "\n";
    if (combiner_ == CombinerStrategy::Auto || pull_fusion_) r += "  degree bins: " + bins_.describe() + "\n";
    if (Program::uses.vertex_frontier)
      r += "  edge-parallel ELIST over Domain::Active: edge-balanced tiles of " +
           std::to_string(gpu::kernels::kTileEdges) + " edges for frontiers of " +
           std::to_string(gpu::QueueExpansion::kMinBalancedEdges) +
           "+ edges (a degree scan of the queue), lane groups below\n";
    r += std::string("  Domain::Active: compacted queue, built at the end of each superstep by one "
                     "flag-compaction kernel") +
         (queued_frontier_ ? "; in a batch of small frontiers, queued by SetActive() itself\n" : "\n");
    r += "  Domain::Received: flag scan over all vertices";
    r += receiver_queues_ ? "; in a batch of supersteps, the last push's receiver queue\n" : "\n";
    r += batch_.allowed() ? "  supersteps: long runs of sparse ones issued in batches of " +
                                std::to_string(gpu::BatchPolicy::kLength) +
                                " with one read-back each (MEDUSA_SUPERSTEP_BATCH)\n"
                          : "  supersteps: each read back (no batches in verbose, partitioned or edge-frontier runs, "
                            "nor with MEDUSA_SUPERSTEP_BATCH=off or MEDUSA_FRONTIER_PULL=always)\n";
    r += "  device memory: " + gpu::human_bytes(plan_.total()) + "\n" + plan_.describe();
    return r;
  }

  // ---- For the executors (exec.cuh) ------------------------------------------------------------
  gpu::LaunchState launch_state() const {
    gpu::LaunchState l;
    l.stream = stream_.get();
    l.max_blocks = max_blocks_;
    l.active_vertices = d_active_vertices_.data();
    l.active_vertex_count = active_vertex_count_;
    l.active_vertex_edges = active_vertex_edges_;
    l.active_edges = d_active_edges_.data();
    l.active_edge_count = active_edge_count_;
    l.received = d_received_.data();
    if (batch_.active()) {
      l.active_vertex_count = batch_.vertex_bound();
      l.active_vertex_edges = batch_.vertex_edge_bound();
      l.device_vertex_count = batch_.device_vertex_count();
      if (receivers_valid_) {
        l.receiver_queue = d_receivers_[receivers_queue_].data();
        l.device_receiver_count = batch_.device_receiver_count(receivers_queue_);
      }
    }
    return l;
  }
  void add_edges_visited(std::uint64_t n) { edges_visited_ += n; }
  // A launch over the vertex frontier visits its out-edges (in a batch, counted on the device).
  void add_frontier_edges_visited() {
    if (batch_.active())
      batch_.count_frontier_launch();
    else
      edges_visited_ += active_vertex_edges_;
  }
  // Whether this superstep's frontier is expanded edge-balanced (queue_expand.cuh).
  bool balanced_expansion() const { return !batch_.active() && expansion_.wanted(active_vertex_edges_); }
  // Inclusive scan of the queued vertices' out-degrees, made once per queue (queue_expand.cuh).
  const unsigned long long* active_degree_scan() {
    if (!active_scan_valid_) {
      expansion_.scan(d_active_vertices_.data(), active_vertex_count_, d_out_offsets_.data(),
                      max_blocks_, stream_.get());
      active_scan_valid_ = true;
    }
    return expansion_.ends();
  }
  // Local out-edges of heads [lo, hi), and the CSR position of head v's first out-edge.
  std::uint64_t out_edge_range(VertexId lo, VertexId hi) const { return first_out_edge(hi) - first_out_edge(lo); }
  EdgeIndex first_out_edge(VertexId v) const { return out_offsets_[v]; }
  // The message buffer, allocated on first use for programs that declared no messages.
  void ensure_message_buffer() {
    if (messages_allocated_) return;
    allocate_message_buffer();
  }

 private:
  // One fold per vertex of [0, combine_count_) over its slots, values from `src`.
  // `then(v)` runs after v's fold (gather.cuh: NoVertexStep, VertexStep).
  template <class Source, class Op, class Then = gpu::NoVertexStep>
  void gather(const Source& src, const Op& op, std::uint8_t* received, const Then& then = {}) {
    receivers_valid_ = false;
    note_user_launch();  // (a fused pass runs the work; a VertexStep the VERTEX functor)
    const gpu::GatherOut<Message> out{d_combined_.data(), received, d_in_offsets_.data(), m_, init_value_,
                                      batch_.device_halted()};
    cudaStream_t s = stream_.get();
    switch (combiner_) {
      case CombinerStrategy::Group4:
        return gpu::gather_uniform<4, Message>(src, out, combine_count_, op, max_blocks_, s, then);
      case CombinerStrategy::Warp:
        return gpu::gather_uniform<32, Message>(src, out, combine_count_, op, max_blocks_, s, then);
      default:
        return gpu::gather_binned<Message>(src, out, bins_, op, max_blocks_, s, then);
    }
  }
  gpu::SourceMessageSource<Message> take_pending_gather() {
    MEDUSA_REQUIRE(pending_gather_.has_value(), "internal: no gather is pending");
    const gpu::SourceMessageSource<Message> src = *pending_gather_;
    pending_gather_.reset();
    return src;
  }

  // Writes the slots a fused pass left pending. FromSources (a uniform pass): slot j holds the
  // message of its in-edge's source (the fill value where that source was inactive).
  // FrontierSources (an edge-dependent push): slots of sources outside the pushed frontier hold
  // the fill value.
  void materialize_slots() {
    const SlotState state = std::exchange(slots_, SlotState::Written);
    if (state == SlotState::Written || E_ == 0) return;
    MEDUSA_REQUIRE(state != SlotState::Unwritten,
                   "internal: message slots read after a Combiner that medusa-cc found to consume "
                   "them (ProgramUses::combiner_consumes_slots); please report this program");
    const unsigned grid = gpu::grid_for(E_, max_blocks_);
    if (state == SlotState::FromSources) {
      gpu::kernels::gather_kernel<Message><<<grid, gpu::kernels::kBlock, 0, stream_.get()>>>(
          d_messages_.data(), d_source_messages_.data(), d_in_src_.data(), E_);
      MEDUSA_CUDA_CHECK_LAUNCH("gather_kernel (pending message slots)");
    } else {
      gpu::launch_kernel<gpu::kernels::fill_unsent_slots_kernel<Message>>(
          grid, gpu::kernels::kBlock, stream_.get(), d_messages_.data(), d_in_src_.data(), pushed_sources_, E_,
          init_value_);
      MEDUSA_CUDA_CHECK_LAUNCH("fill_unsent_slots_kernel (pending message slots)");
    }
  }

  // The layout's column slots (common/edge_layout.h), built on the host from the CSR.
  void upload_column_edges(const Topology& t) {
    const common::ColumnMajorEdges c = common::build_column_major(t, layout_.width);
    d_column_dst_.allocate(c.dst.size());
    d_column_dst_.upload(c.dst.data(), c.dst.size(), stream_.get());
    d_column_rid_.allocate(c.rid.size());
    d_column_rid_.upload(c.rid.data(), c.rid.size(), stream_.get());
    stream_.sync();  // `c` goes away
  }

  // in_src and in_pos (the in-edge's position among its source's out-edges) for the fused pass,
  // and 4-byte out-degrees for the functors' edge_count(): the fused pass asks it of a random
  // source per in-edge, and the two 8-byte CSR offsets it would read instead double the bytes
  // that must stay in L2 beside the gathered field (PageRank: rank + offsets = 48 MB at scale 22).
  void upload_in_edges(const Topology& t) {
    std::vector<std::uint32_t> pos(E_);
    for (std::uint64_t j = 0; j < E_; ++j)
      pos[j] = static_cast<std::uint32_t>(t.in_edge[j] - t.out_offsets[t.in_src[j]]);
    d_in_src_.allocate(E_);
    d_in_src_.upload(t.in_src.data(), E_, stream_.get());
    d_in_pos_.allocate(E_);
    d_in_pos_.upload(pos.data(), E_, stream_.get());
    std::vector<std::uint32_t> degree(V_);
    for (std::uint64_t v = 0; v < V_; ++v) degree[v] = static_cast<std::uint32_t>(t.out_degree(static_cast<VertexId>(v)));
    d_out_degree_.allocate(V_);
    d_out_degree_.upload(degree.data(), V_, stream_.get());
    d_source_messages_.allocate(V_);
    d_bit_range_.allocate(2);
    h_bit_range_ = gpu::PinnedBuffer<unsigned long long>(2);
    stream_.sync();  // `pos` and `degree` go away
  }

  // dst[0 .. n-1] = value, on the session's stream.
  void fill(Message* dst, std::uint64_t n, const Message& value) {
    if (n == 0) return;
    gpu::launch_kernel<gpu::kernels::fill_kernel<Message>>(gpu::grid_for(n, max_blocks_), gpu::kernels::kBlock,
                                                           stream_.get(), dst, n, value);
    MEDUSA_CUDA_CHECK_LAUNCH("fill_kernel");
  }

  // The E*m message slots (and for m > 1 the per-edge send counts and the scaled segment
  // offsets). Counted in the memory plan whether or not the program sends messages.
  void allocate_message_buffer() {
    cudaStream_t s = stream_.get();
    d_messages_.allocate(E_ * m_);
    fill(d_messages_.data(), E_ * m_, init_value_);
    if (m_ > 1) {
      d_send_counts_.allocate(E_);
      d_send_counts_.zero(s);
      d_message_offsets_.allocate(V_ + 1);
      gpu::kernels::scale_offsets_kernel<EdgeIndex>
          <<<gpu::grid_for(V_ + 1, max_blocks_), gpu::kernels::kBlock, 0, s>>>(
              d_message_offsets_.data(), d_in_offsets_.data(), V_ + 1, m_);
      MEDUSA_CUDA_CHECK_LAUNCH("scale_offsets_kernel");
    }
    messages_allocated_ = true;
  }

  // Validates the configuration, then picks the GPU (before the stream member is created on it).
  static gpu::DeviceInfo checked_device(const Config& conf, std::uint32_t slot) {
    MEDUSA_REQUIRE(conf.partitionsPerGpu >= 1, "Config::partitionsPerGpu must be at least 1");
    const int gpus_needed = (conf.gpuCount + conf.partitionsPerGpu - 1) / conf.partitionsPerGpu;
    int visible = 0;
    if (cudaGetDeviceCount(&visible) == cudaSuccess && gpus_needed > visible && visible > 0)
      MEDUSA_THROW("gpuCount = " + std::to_string(conf.gpuCount) + " with partitionsPerGpu = " +
                   std::to_string(conf.partitionsPerGpu) + " needs " + std::to_string(gpus_needed) +
                   " GPUs but " + std::to_string(visible) +
                   " are visible (check CUDA_VISIBLE_DEVICES, or raise partitionsPerGpu)");
    return gpu::select_device(static_cast<int>(slot) / conf.partitionsPerGpu);
  }

  template <class Specs, class Index>
  void upload_fields(const Specs& specs, std::vector<gpu::DeviceBuffer<std::byte>>& bufs,
                            std::array<void*, std::tuple_size<Specs>::value>& ptrs,
                            const void* records, std::size_t record_size, std::uint64_t count,
                            const Index* order, std::vector<std::byte>& staging) {
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
        bufs[i].upload(staging.data(), staging.size(), stream_.get());
      } else {
        bufs[i].zero(stream_.get());  // neither read nor written: allocated for the proxies only
      }
    }
  }

  template <class Specs, class Index>
  void download_fields(const Specs& specs, const std::vector<gpu::DeviceBuffer<std::byte>>& bufs,
                       void* records, std::size_t record_size, std::uint64_t count,
                       const Index* order, std::vector<std::byte>& staging) {
    for (std::size_t i = 0; i < specs.size(); ++i) {
      const FieldSpec& f = specs[i];
      if (!(f.direction & kDownload) || count == 0) continue;
      staging.resize(f.size * count);
      bufs[i].download(staging.data(), staging.size(), stream_.get());
      stream_.sync();
      common::scatter_field(staging.data(), f, records, record_size, count, order);
    }
  }

  // The host's graph.SetActive(v) seeds become the first superstep's Domain::Active.
  void seed_active_vertices(std::vector<VertexId> seeds, const Topology& t) {
    std::sort(seeds.begin(), seeds.end());  // (the session checked the global IDs)
    seeds.erase(std::unique(seeds.begin(), seeds.end()), seeds.end());
    if (!seeds.empty())
      MEDUSA_REQUIRE(seeds.back() < V_, "graph.SetActive(" + std::to_string(seeds.back()) +
                                            "): no such vertex (the graph has " +
                                            std::to_string(V_) + " vertices)");
    active_vertex_count_ = seeds.size();
    active_vertex_edges_ = 0;
    for (VertexId v : seeds) active_vertex_edges_ += t.out_degree(v);
    d_active_vertices_.upload(seeds.data(), seeds.size(), stream_.get());
    if (d_active_flags_.size() != 0) {
      d_active_flags_.zero(stream_.get());
      if (!seeds.empty()) {
        gpu::kernels::mark_queued_kernel<VertexId><<<gpu::grid_for(seeds.size(), max_blocks_), gpu::kernels::kBlock, 0,
                                                     stream_.get()>>>(d_active_vertices_.data(), seeds.size(),
                                                                      d_active_flags_.data());
        MEDUSA_CUDA_CHECK_LAUNCH("mark_queued_kernel");
      }
    }
    stream_.sync();  // `seeds` is about to go away
  }

  // Called by every operation a batch cannot run (it needs exact counts, or its kernels do not
  // check `halted`): reads a batch in progress back and ends it. Returns whether a superstep of
  // the batch stopped the run, so that the operation, part of a superstep after it, must not run.
  bool skips_unbatchable() {
    require_exact_counts();
    return batch_.stopped();
  }
  void require_exact_counts() {
    step_batchable_ = false;
    if (!batch_.active()) return;
    take_batch(/*leave=*/true);
    if (batch_.outcome().stopped) batch_.stop_mid_superstep();
  }
  // Reads the batch back and takes its counts as the exact ones.
  const gpu::BatchOutcome& take_batch(bool leave) {
    const bool repeats = host_step_state() == batch_start_;
    if (!batch_.replay_ready()) recorded_host_edges_ = edges_visited_ - batch_start_edges_;
    const std::uint32_t first_step = batch_.first_step();
    const gpu::BatchOutcome& o = batch_.read_back(stream_.get(), E_, leave, repeats);
    // The supersteps after a stop did nothing on the device, but the host still issued them: their
    // ends traded the queued frontier's buffers, their pushes the combined values' copies, and their
    // pulls over every vertex counted edges. Undo that back to where the stopping superstep left it.
    // (A replay's supersteps are queued when its recording's were: superstep_queued_ is theirs.)
    if (o.stopped) {
      const std::uint32_t k = o.stop_step - first_step;
      if (superstep_queued_ && ((k + 1) & 1u) != (queued_swaps_ & 1u)) swap_queued_frontiers();
      if (((combined_swaps_ - swaps_by_step_[k]) & 1u) != 0) swap_combined_buffers();
      prefetch_.stopped_at(k, d_source_messages_);
      spare_ = SpareState::Unknown;  // (nothing is known of the spare copy)
      receivers_valid_ = false;
      edges_visited_ = batch_start_edges_ + host_edges_by_step_[k];
    }
    queued_swaps_ = 0;
    combined_swaps_ = 0;
    prefetch_.batch_started();
    batch_start_ = host_step_state();
    edges_visited_ += o.edges_visited;
    batch_start_edges_ = edges_visited_;
    active_vertex_count_ = o.active_vertices;
    active_vertex_edges_ = o.active_vertex_edges;
    active_scan_valid_ = false;
    return o;
  }

  // A push of a batch whose slots nothing reads: it keeps its receivers as a queue.
  bool receiver_push() const { return receiver_queues_ && batch_.active(); }
  // Readies the combined values and receiver flags a push folds into, and returns the queue it
  // appends to. Such pushes alternate between two copies of both: the one a push leaves stays
  // current (combined_msg() reads it until the next Combiner), and the spare one differs from the
  // fill value only at the receivers of the push before. The end of the superstep resets those when
  // it runs the VERTEX launch over the receivers (receivers_vertex_end_kernel); otherwise the
  // push resets them here, or every vertex when it knows nothing of the spare.
  gpu::ReceiverQueue start_receiver_push(const Message& fill) {
    cudaStream_t s = stream_.get();
    const int next = receivers_queue_ ^ 1;
    unsigned long long* next_count = batch_.device_receiver_count(next);
    const bool same_fill = std::memcmp(&fill, &spare_fill_, sizeof(Message)) == 0;
    if (spare_ == SpareState::Dirty && same_fill) {
      MEDUSA_REQUIRE(spare_queue_ == next, "internal: the spare receivers are not in the next push's queue");
      gpu::launch_kernel<gpu::kernels::reset_receivers_kernel<Message>>(
          gpu::grid_for(batch_.vertex_edge_bound(), max_blocks_), gpu::kernels::kBlock, s, d_combined_spare_.data(),
          d_received_spare_.data(), d_receivers_[next].data(), next_count, fill, batch_.device_halted());
      MEDUSA_CUDA_CHECK_LAUNCH("reset_receivers_kernel");
    } else if (spare_ != SpareState::Clean || !same_fill) {
      reset_combined(d_combined_spare_.data(), d_received_spare_.data(), fill);
    }
    if (spare_ != SpareState::Clean || !same_fill)  // (a clean spare's next queue is empty)
      MEDUSA_CUDA_CHECK(cudaMemsetAsync(next_count, 0, sizeof(*next_count), s));
    swap_combined_buffers();
    spare_ = receivers_valid_ ? SpareState::Dirty : SpareState::Unknown;
    spare_queue_ = receivers_queue_;
    spare_fill_ = receivers_fill_;
    receivers_queue_ = next;
    receivers_valid_ = true;
    receivers_fill_ = fill;
    return {d_receivers_[next].data(), next_count};
  }
  void swap_combined_buffers() {
    std::swap(d_combined_, d_combined_spare_);
    std::swap(d_received_, d_received_spare_);
    ++combined_swaps_;
  }

  // The end of a queued superstep: the next frontier's flags and queue become the current ones.
  void swap_queued_frontiers() {
    std::swap(d_active_flags_, d_next_active_vertex_);
    std::swap(d_active_vertices_, d_next_queue_);
  }

  // The vote slots are the first member of the device StepCounters.
  int* votes_ptr() const { return reinterpret_cast<int*>(d_counters_.data()); }

  unsigned compact_grid(std::uint64_t flags) const {  // a thread per kCompactPerThread flags
    return gpu::grid_for((flags + gpu::kernels::kCompactPerThread - 1) / gpu::kernels::kCompactPerThread, max_blocks_);
  }
  // SetActive flags of this superstep -> the queues the next superstep's Domain::Active reads.
  void promote_frontiers(cudaStream_t s) {
    gpu::StepCounters* c = d_counters_.data();
    // A batch that ended mid-superstep: SetActive() counted what the compaction counts again.
    if (superstep_queued_)
      MEDUSA_CUDA_CHECK(cudaMemsetAsync(&c->next_active_vertices, 0, 2 * sizeof(unsigned long long), s));
    // Pending slots of a push still need its frontier's flags: the compaction writes the other copy.
    if (slots_ == SlotState::FrontierSources && pushed_sources_ == d_active_flags_.data())
      std::swap(d_active_flags_, d_pushed_flags_);
    if (Program::uses.vertex_frontier && V_ != 0) {
      gpu::launch_kernel<gpu::kernels::compact_flags_kernel<VertexId>>(
          compact_grid(V_), gpu::kernels::kBlock, s, d_next_active_vertex_.data(), V_, d_active_vertices_.data(),
          &c->next_active_vertices, d_out_offsets_.data(), &c->next_active_vertex_edges, d_active_flags_.data(),
          batch_.device_halted());
      MEDUSA_CUDA_CHECK_LAUNCH("compact_flags_kernel (vertex frontier)");
    }
    if (Program::uses.edge_frontier && E_ != 0) {
      gpu::launch_kernel<gpu::kernels::compact_flags_kernel<EdgeIndex>>(
          compact_grid(E_), gpu::kernels::kBlock, s, d_next_active_edge_.data(), E_, d_active_edges_.data(),
          &c->next_active_edges, nullptr, nullptr, nullptr, nullptr);
      MEDUSA_CUDA_CHECK_LAUNCH("compact_flags_kernel (edge frontier)");
    }
  }

  static constexpr std::size_t kVertexFields = std::tuple_size<decltype(Program::vertex_fields)>::value;
  static constexpr std::size_t kEdgeFields = std::tuple_size<decltype(Program::edge_fields)>::value;

  Config conf_;
  std::uint32_t index_ = 0;
  VertexId owned_count_ = 0;
  VertexId combine_count_ = 0;
  gpu::DeviceInfo device_;
  gpu::MemoryPlan plan_;
  common::EdgeLayoutChoice layout_;
  gpu::EngineStream stream_;
  std::uint64_t V_ = 0, E_ = 0;
  std::uint32_t m_ = 1;
  unsigned max_blocks_ = 1;
  CombinerStrategy combiner_ = CombinerStrategy::Auto;
  bool pull_fusion_ = false;
  FrontierPull frontier_pull_ = conf_.tuning.frontierPull;
  gpu::DegreeBins bins_;
  gpu::DeviceBuffer<VertexId> d_in_src_;        // pull fusion: in-edge sources
  gpu::DeviceBuffer<std::uint32_t> d_in_pos_;   // and positions among their out-edges
  gpu::DeviceBuffer<Message> d_source_messages_;  // one message per source vertex (uniform sends)
  // Tuning::vertexFusion off: a VERTEX launch after a fused pass never runs in its gather.
  bool vertex_fusion_ = conf_.tuning.vertexFusion != Toggle::Off;
  std::optional<gpu::SourceMessageSource<Message>> pending_gather_;  // (gather_pending())
  gpu::SourcePrefetcher<Message> prefetch_{conf_.tuning.sourcePrefetch};
  std::uint64_t user_launches_ = 0;  // launches that ran user code (note_user_launch)
  // Tuning::endFusion off: the VERTEX launch over a batched push's receivers is never joined with
  // the superstep's end (hold_receiver_vertex).
  bool end_fusion_ = conf_.tuning.endFusion != Toggle::Off;
  std::function<void()> held_issue_;
  std::function<void(const gpu::kernels::QueuedSuperstepEnd<gpu::StepCounters>&)> held_join_;
  void issue_held() {
    if (!held_issue_) return;
    const auto issue = std::move(held_issue_);
    drop_held();
    issue();
  }
  void drop_held() {
    held_issue_ = nullptr;
    held_join_ = nullptr;
  }
  // Message slots a fused pass left unwritten: Written (none), FromSources (every slot is
  // d_source_messages_[in_src]), FrontierSources (slots of sources outside the flags
  // pushed_sources_ points at hold init_value_), Unwritten (a push of a program whose slots
  // nothing reads again: none are kept).
  enum class SlotState { Written, FromSources, FrontierSources, Unwritten };
  SlotState slots_ = SlotState::Written;
  const std::uint8_t* pushed_sources_ = nullptr;
  gpu::DeviceBuffer<unsigned long long> d_bit_range_;  // least and greatest message bits (frontier pull)
  gpu::PinnedBuffer<unsigned long long> h_bit_range_;
  std::uint32_t superstep_ = 0;
  Message init_value_{};
  bool messages_allocated_ = false;
  std::uint64_t edges_visited_ = 0;
  std::vector<EdgeIndex> input_edge_;  // CSR position -> input order, for Dump_Result
  std::vector<VertexId> global_id_;    // partitioned: local -> global, for Dump_Result
  std::vector<EdgeIndex> out_offsets_; // host copy, for the edge ranges of launches
  gpu::DeviceBuffer<VertexId> d_global_id_;
  gpu::DeviceBuffer<std::uint32_t> d_out_degree_, d_in_degree_;  // partitioned (global); out: also pull fusion

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

  gpu::DeviceBuffer<Message> d_messages_;
  gpu::DeviceBuffer<std::uint32_t> d_send_counts_;
  gpu::DeviceBuffer<EdgeIndex> d_message_offsets_;  // in_offsets * m, only for m > 1
  gpu::DeviceBuffer<Message> d_combined_;

  gpu::DeviceBuffer<std::uint8_t> d_next_active_vertex_;
  gpu::DeviceBuffer<VertexId> d_active_vertices_;
  // In a batch, SetActive() queues the next frontier here (queued_frontier_, superstep_queued_).
  gpu::DeviceBuffer<VertexId> d_next_queue_;
  bool queued_frontier_ = false, superstep_queued_ = false;
  std::uint32_t queued_swaps_ = 0;  // swap_queued_frontiers() calls since the batch started
  gpu::QueueExpansion expansion_{conf_.tuning.queueExpand};  // degree scan of d_active_vertices_
  gpu::DeviceBuffer<std::uint8_t> d_active_flags_;  // the same frontier as flags (pull fusion)
  gpu::DeviceBuffer<std::uint8_t> d_pushed_flags_;  // a pushed frontier's, while its slots are pending
  bool active_scan_valid_ = false;
  std::uint64_t active_vertex_count_ = 0, active_vertex_edges_ = 0;
  gpu::DeviceBuffer<std::uint8_t> d_next_active_edge_;
  gpu::DeviceBuffer<EdgeIndex> d_active_edges_;
  std::uint64_t active_edge_count_ = 0;
  gpu::DeviceBuffer<std::uint8_t> d_received_;

  gpu::DeviceBuffer<gpu::StepCounters> d_counters_;
  gpu::SuperstepBatch batch_{conf_.tuning};
  // Receiver queues of batched pushes: the last push's receivers are d_receivers_[receivers_queue_]
  // and, while receivers_valid_, the only vertices whose combined value differs from
  // receivers_fill_ or whose received flag is set. Whatever else writes either clears it
  // (reset_combined, source_messages, gather, combine, init_message_buffer), as does a new batch.
  bool receiver_queues_ = false;
  std::array<gpu::DeviceBuffer<VertexId>, 2> d_receivers_;
  int receivers_queue_ = 0;
  bool receivers_valid_ = false;
  // The spare copies of the combined values and receiver flags (start_receiver_push): Clean (all
  // spare_fill_, received 0, and the next push's queue empty), Dirty (spare_fill_ except at the
  // receivers in queue spare_queue_), or Unknown.
  enum class SpareState { Unknown, Clean, Dirty };
  gpu::DeviceBuffer<Message> d_combined_spare_;
  gpu::DeviceBuffer<std::uint8_t> d_received_spare_;
  SpareState spare_ = SpareState::Unknown;
  int spare_queue_ = 0;
  Message spare_fill_{};
  // Buffer swaps since the batch started, and by the end of each of its supersteps: after a stop
  // inside the batch, the later supersteps' pushes did nothing, so their swaps are undone.
  std::uint32_t combined_swaps_ = 0;
  std::array<std::uint32_t, gpu::BatchPolicy::kLength> swaps_by_step_{};
  // Edges counted on the host since the batch started, by the end of each of its supersteps (a
  // replay's are its recording's).
  std::array<std::uint64_t, gpu::BatchPolicy::kLength> host_edges_by_step_{};
  Message receivers_fill_{};
  bool step_batchable_ = false;  // every operation of this superstep could have run in a batch
  // What the host side of the engine carries from one superstep to the next. A batch that ends
  // with it as it started may be replayed: the next batch would issue the same launches again.
  struct HostStepState {
    SlotState slots;
    const std::uint8_t* pushed_sources;
    const std::uint8_t* active_flags;
    const std::uint8_t* pushed_flags;
    const std::uint8_t* next_flags;
    const VertexId* active_queue;
    int receivers_queue;
    bool receivers_valid, active_scan_valid, messages_allocated;
    std::array<unsigned char, sizeof(Message)> init_value, receivers_fill;
    const Message* combined;
    SpareState spare;
    int spare_queue;
    std::array<unsigned char, sizeof(Message)> spare_fill;
    const Message* source_messages;
    bool source_prefetch_valid;
    bool operator==(const HostStepState& o) const {
      return slots == o.slots && pushed_sources == o.pushed_sources && active_flags == o.active_flags &&
             pushed_flags == o.pushed_flags && next_flags == o.next_flags && active_queue == o.active_queue &&
             receivers_queue == o.receivers_queue &&
             receivers_valid == o.receivers_valid && active_scan_valid == o.active_scan_valid &&
             messages_allocated == o.messages_allocated && init_value == o.init_value &&
             receivers_fill == o.receivers_fill && combined == o.combined && spare == o.spare &&
             spare_queue == o.spare_queue && spare_fill == o.spare_fill &&
             source_messages == o.source_messages && source_prefetch_valid == o.source_prefetch_valid;
    }
  };
  HostStepState host_step_state() const {
    HostStepState h{slots_, pushed_sources_, d_active_flags_.data(), d_pushed_flags_.data(),
                    d_next_active_vertex_.data(), d_active_vertices_.data(), receivers_queue_,
                    receivers_valid_, active_scan_valid_, messages_allocated_, {}, {},
                    d_combined_.data(), spare_, spare_queue_, {}, d_source_messages_.data(),
                    prefetch_.valid()};
    std::memcpy(h.init_value.data(), &init_value_, sizeof(Message));
    std::memcpy(h.receivers_fill.data(), &receivers_fill_, sizeof(Message));
    std::memcpy(h.spare_fill.data(), &spare_fill_, sizeof(Message));
    return h;
  }
  HostStepState batch_start_{};  // at the start of the batch being issued
  std::uint64_t batch_start_edges_ = 0;    // edges_visited_ then
  std::uint64_t recorded_host_edges_ = 0;  // what a recorded batch's launches added to edges_visited_
  gpu::DeviceBuffer<std::byte> d_temp_;
  gpu::PinnedBuffer<gpu::StepCounters> h_counters_;
};

}  // namespace gpu
}  // namespace medusa

#include <medusa/backend/cuda/exec.cuh>
