// One partition of a run on one GPU (the whole graph when gpuCount is 1): the paper's device data
// structures (Init_Device_DS), superstep boundaries and launches. Session<Program> (cuda/session.cuh)
// drives one engine per partition with the same semantics as the host backend
// (docs/design/codegen-contract.md, backend/common/engine_interface.h); the executors are in exec.cuh.
//
// The engine is a composition of one part per concept (engine/*.cuh), each a base that reaches the
// others through the engine (CRTP), so that every call stays a direct, inlined one:
//   EngineCore       engine/core.cuh              device, stream, sizes, step counters
//   DeviceGraph      engine/device_graph.cuh      topology, user fields, upload, Dump_Result
//   MessageStore     engine/message_store.cuh     slots, combined values, InitMessageBuffer, Combiner
//   Frontiers        engine/frontiers.cuh         SetActive flags, queues, compaction
//   ReceiverQueues   engine/receiver_queues.cuh   a batched push's receivers, spare combined values
//   Fusion           engine/fusion.cuh            pull gather, pending gather, push-combine, push-fold
//   HeldVertex       engine/held_vertex.cuh       the VERTEX launch joined with a superstep's end
//   PriorityFrontier engine/priority_frontier.cuh SetActive(priority): the lowest bucket is Domain::Active
//   BatchController  engine/batch_controller.cuh  batches of supersteps, their read-back, replays
//   ByIdOutbox       engine/by_id_outbox.cuh      reads and sends by vertex id on partitions
//
// Per superstep the host issues: one launch that zeroes the step counters (votes and frontier
// counts) and sets the session's StepState (votes, superstep number), the user's launches, one
// compaction kernel per frontier in use, and one small device-to-host copy of the counters, which
// is the only synchronization. Long runs of sparse supersteps are issued in batches with one
// read-back per batch instead (superstep_batch.cuh). Nothing is allocated after the constructor (a
// user combiner operator needing more CUB storage than the built-in one grows it once).
#pragma once

#include <medusa/backend/common/combiner_ops.h>
#include <medusa/backend/common/edge_layout.h>
#include <medusa/backend/common/partition_view.h>
#include <medusa/backend/common/partitioned_session.h>
#include <medusa/backend/common/priorities.h>
#include <medusa/backend/common/pull_fusion.h>
#include <medusa/backend/cuda/buffer.h>
#include <medusa/backend/cuda/check.h>
#include <medusa/backend/cuda/combine.cuh>
#include <medusa/backend/cuda/device.h>
#include <medusa/backend/cuda/engine/batch_controller.cuh>
#include <medusa/backend/cuda/engine/by_id_outbox.cuh>
#include <medusa/backend/cuda/engine/core.cuh>
#include <medusa/backend/cuda/engine/device_graph.cuh>
#include <medusa/backend/cuda/engine/frontiers.cuh>
#include <medusa/backend/cuda/engine/fusion.cuh>
#include <medusa/backend/cuda/engine/held_vertex.cuh>
#include <medusa/backend/cuda/engine/message_store.cuh>
#include <medusa/backend/cuda/engine/priority_frontier.cuh>
#include <medusa/backend/cuda/engine/receiver_queues.cuh>
#include <medusa/backend/cuda/gather.cuh>
#include <medusa/backend/cuda/kernels.cuh>
#include <medusa/backend/cuda/memory_plan.h>
#include <medusa/backend/cuda/queue_expand.cuh>
#include <medusa/backend/cuda/superstep_batch.cuh>
#include <medusa/config.h>
#include <medusa/device_api.h>
#include <medusa/error.h>
#include <medusa/graph.h>
#include <medusa/program.h>
#include <medusa/topology.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace medusa {

namespace gpu {

template <class Program>
class PartitionEngine : private gpu::EngineCore,
                        public gpu::DeviceGraph<Program, PartitionEngine<Program>>,
                        public gpu::MessageStore<Program, PartitionEngine<Program>>,
                        public gpu::Frontiers<Program, PartitionEngine<Program>>,
                        public gpu::ReceiverQueues<Program, PartitionEngine<Program>>,
                        public gpu::Fusion<Program, PartitionEngine<Program>>,
                        public gpu::HeldVertex<Program, PartitionEngine<Program>>,
                        public gpu::PriorityFrontier<Program, PartitionEngine<Program>>,
                        public gpu::BatchController<Program, PartitionEngine<Program>>,
                        public gpu::ByIdOutbox<Program, PartitionEngine<Program>> {
  using GraphPart = gpu::DeviceGraph<Program, PartitionEngine>;
  using MessagePart = gpu::MessageStore<Program, PartitionEngine>;
  using FrontierPart = gpu::Frontiers<Program, PartitionEngine>;
  using ReceiverPart = gpu::ReceiverQueues<Program, PartitionEngine>;
  using FusionPart = gpu::Fusion<Program, PartitionEngine>;
  using HeldPart = gpu::HeldVertex<Program, PartitionEngine>;
  using PriorityPart = gpu::PriorityFrontier<Program, PartitionEngine>;
  using BatchPart = gpu::BatchController<Program, PartitionEngine>;
  using ByIdPart = gpu::ByIdOutbox<Program, PartitionEngine>;
  friend GraphPart;
  friend MessagePart;
  friend FrontierPart;
  friend ReceiverPart;
  friend FusionPart;
  friend HeldPart;
  friend PriorityPart;
  friend BatchPart;
  friend ByIdPart;

 public:
  using Vertex = typename Program::Vertex;
  using Edge = typename Program::Edge;
  using Message = typename Program::Message;
  using VertexArrays = typename Program::VertexArrays;
  using EdgeArrays = typename Program::EdgeArrays;
  static constexpr bool kBatchesSupersteps = true;
  static constexpr bool kFusesVertexIntoGather = true;  // (pending_gather_)
  using MessagePart::ensure_message_buffer;
  using MessagePart::reset_combined;

  // Init_Device_DS for one partition: checks that everything fits in the GPU's free memory,
  // allocates and uploads (fields gathered from the user's graph through the view's maps).
  PartitionEngine(const common::PartitionView& view, const Graph<Vertex, Edge>& graph,
                  const std::vector<VertexId>& seeds, const Config& conf, std::uint32_t slot)
      : EngineCore(view, conf, slot), FrontierPart(conf.tuning), FusionPart(conf.tuning), HeldPart(conf.tuning),
        BatchPart(conf.tuning) {
    const Topology& t = *view.topology;
    V_ = t.vertex_count;
    E_ = t.edge_count;
    m_ = conf.messagesPerEdge;
    max_blocks_ = static_cast<unsigned>(std::max(1, device_.sm_count) * 32);

    // The outermost replicas have no in-edges here: the combiner skips them.
    combiner_ = conf.tuning.combiner;
    pull_fusion_ = common::pull_fusion_enabled<Program>(conf);
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
    shape.neighbor_rows = view.neighbor_rows != nullptr;
    if (shape.neighbor_rows) shape.neighbor_row_entries = view.neighbor_rows->ids.size();
    if (view.owned_row_offsets != nullptr)
      shape.owned_row_bytes = (std::uint64_t{owned_count_} + 1) * sizeof(EdgeIndex) +
                              view.owned_row_offsets[owned_count_] * sizeof(VertexId);
    if (Program::uses.vertex_frontier) shape.queue_scan_bytes = gpu::QueueExpansion::device_bytes(V_);
    shape.frontier_flags = pull_fusion_ && Program::uses.vertex_frontier;
    // Batches push every frontier (so not with pulls forced) and have no edge frontier. Verbose
    // runs report every superstep, so they read each one back. The partitions of a run batch
    // together: one kernel ends each batched superstep for all of them, so they must be in one
    // process (no MPI ranks, whose exchange goes through the host). Pushes in a batch whose slots
    // nothing reads keep their receivers as a queue (with one hop of replicas, which pull fusion
    // needs, every receiver is owned: the VERTEX step over them is the session's owned range).
    // Priority buckets run in batches (their steps check `halted`; the device stop rule counts the
    // bucketed vertices).
    shape.priority_slots = this->priority_buckets();
    const bool batches = batch_.allow(!conf.distributed && conf.gpuCount <= static_cast<int>(gpu::kernels::kMaxBatchedPartitions) &&
                                      !conf.verbose && !Program::uses.edge_frontier &&
                                      frontier_pull_ != FrontierPull::Always);
    receiver_queues_ = batches && pull_fusion_ && Program::uses.vertex_frontier &&
                       Program::uses.received && Program::uses.combiner_consumes_slots;
    shape.receiver_queues = receiver_queues_;
    // In a batch, SetActive() queues the next frontier itself; the flag buffers then trade places
    // each superstep, which pending slots on a pushed frontier's flags would not survive. On a
    // partition of k the replicas' flags come from the exchange, not SetActive(): the superstep's
    // end queues them (queue_replicas_end_batched_superstep_kernel). Not with priority buckets: their
    // next frontier is a bucket of the flagged vertices, not all.
    queued_frontier_ = batches && pull_fusion_ && Program::uses.vertex_frontier &&
                       Program::uses.combiner_consumes_slots && !this->priority_buckets();
    shape.queued_frontier = queued_frontier_;
    if (binned)
      shape.combiner_bin_bytes = gpu::DegreeBins::device_bytes(t.in_offsets, combine_count_, m_, sizeof(Message));
    plan_ = gpu::plan_memory(shape);
    const std::uint64_t free_bytes = gpu::admissible_free_bytes(device_, conf);  // (other programs' too)
    // The column slots get what the rest leaves, less a tenth for CUB and the driver.
    const std::uint64_t room = free_bytes > plan_.total() ? (free_bytes - plan_.total()) / 10 * 9 : 0;
    layout_ = common::choose_edge_layout(t.out_offsets, conf.layout, Program::uses.vertex_edge_loops,
                                         common::LayoutTarget::Gpu,
                                         room / common::EdgeLayoutChoice::kSlotBytes);
    shape.column_edge_bytes = layout_.bytes();
    plan_ = gpu::plan_memory(shape);
    if (plan_.total() > device_.total_bytes) gpu::require_fits(plan_, shape, free_bytes, device_.name);
    admission_ = gpu::admit(device_, plan_, shape, conf);  // may wait for other programs (sharing a GPU)
    gpu::require_fits(plan_, shape, gpu::free_device_bytes(), device_.name);

    cudaStream_t s = stream_.get();
    upload_topology(view, t);
    if (layout_.columns()) upload_column_edges(t);
    if (binned) bins_.build(t.in_offsets, combine_count_, m_, sizeof(Message), device_.sm_count, conf.tuning, s);
    if (pull_fusion_) upload_in_edges(t);

    upload_user_fields(view, graph);

    allocate_messages();

    // Frontiers and receivers.
    allocate_frontiers(seeds, t);
    allocate_priorities();
    allocate_received_flags();
    allocate_receiver_queues();
    d_counters_.allocate(1);
    d_counters_.zero(s);
    batch_.allocate();
    d_temp_.allocate(temp_bytes);
    h_counters_ = gpu::PinnedBuffer<gpu::StepCounters>(1);
    stream_.sync();
  }

  PartitionEngine(const PartitionEngine&) = delete;
  PartitionEngine& operator=(const PartitionEngine&) = delete;

  // ---- Launches (the session checked the domain and chose the range) --------------------------
  template <ApiKind K, class Element>
  void launch(Domain domain, const Element& element, const common::LaunchRange& range) {
    gpu::DeviceScope on(device_.ordinal);
    issue_held();
    // VERTEX launches may run in a batch; the others may read or write slots.
    if (K == VERTEX ? batch_.stopped() : skips_unbatchable()) return;
    if constexpr (K == MLIST || K == MESSAGE || (K != VERTEX && !common::defers_slot_fill<Program>)) materialize_slots();
    if (K == ELIST && domain == Domain::Active) this->note_frontier_push();
    gpu::run_on_partition<K>(*this, domain, element, range);
  }
  template <class Element>
  void launch_elist_edges(Domain domain, const Element& element, const common::LaunchRange& range) {
    gpu::DeviceScope on(device_.ordinal);
    issue_held();
    if (skips_unbatchable()) return;
    if constexpr (!common::defers_slot_fill<Program>) materialize_slots();
    gpu::run_elist_edges_on_partition(*this, domain, element, range);
  }

  // ---- Superstep boundaries (driven by the session) --------------------------------------------
  void begin_superstep(std::uint32_t step) {
    gpu::DeviceScope on(device_.ordinal);
    superstep_ = step;
    if (step == 0) batch_.restart();
    // Aggregates are read back and published after every superstep: no batches. Nor while the auto
    // delta waits for the first priorities, which the host reads back.
    step_batchable_ = medusa::detail::aggregate_count<Program>() == 0 && this->priorities_batchable();
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
    bucketed_vertices_ = c.bucketed_vertices;
    out.active_vertices = active_vertex_count_;
    out.active_edges = active_edge_count_;
    out.frontier_passes = this->take_frontier_passes();
    count_buckets(c, out);
    return out;
  }

  // A Run that throws may leave copies from pinned buffers in flight: drain the stream.
  void abandon() {
    cudaSetDevice(device_.ordinal);
    pending_gather_.reset();
    drop_held();
    prefetch_.invalidate();
    batch_.abandon();
    cudaStreamSynchronize(stream_.get());
  }

  // ---- For the replica exchange ----------------------------------------------------------------
  int device_ordinal() const { return device_.ordinal; }
  // Partitions on GPUs without peer access: no kernel reaches every partition's counters, which
  // ending a batched superstep together needs.
  void refuse_batches() { batch_.allow(false); }
  cudaStream_t stream() const { return stream_.get(); }
  std::uint64_t take_edges_visited() { return std::exchange(edges_visited_, 0); }

  // Device pointers for one launch (valid on the GPU only).
  KernelCtx<Message> ctx() const {
    KernelCtx<Message> c;
    c.vertex_count = V_;
    c.edge_count = E_;
    this->topology_ctx(c);
    this->message_ctx(c);
    this->by_id_ctx(c);
    this->frontier_ctx(c);
    this->priority_ctx(c);
    c.votes = votes_ptr();
    c.step_state = &d_counters_.data()->step_state;
    c.halted = batch_.device_halted();
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
         (queued_frontier_ ? whole_graph() ? "; in a batch of small frontiers, queued by SetActive() itself\n"
                                           : "; in a batch of small frontiers, queued by SetActive() itself and "
                                             "the replicas from the flags the exchange copies\n"
                           : "\n");
    r += this->describe_priorities();
    r += "  Domain::Received: flag scan over all vertices";
    r += receiver_queues_ ? "; in a batch of supersteps, the last push's receiver queue\n" : "\n";
    r += batch_.allowed() ? "  supersteps: long runs of sparse ones issued in batches of " +
                                std::to_string(gpu::BatchPolicy::kLength) +
                                " with one read-back each (MEDUSA_SUPERSTEP_BATCH)\n"
                          : "  supersteps: each read back (no batches in verbose, distributed or edge-frontier "
                            "runs, on partitions out of each other's reach, nor with MEDUSA_SUPERSTEP_BATCH=off or "
                            "MEDUSA_FRONTIER_PULL=always)\n";
    r += "  admission: " + admission_.describe() + "\n";
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

  // One Run's tuning (a source schedule: schedule.h), within what construction allowed: pulls
  // forced leave no batch (batches push every frontier).
  void set_run_tuning(const Tuning& t) {
    frontier_pull_ = t.frontierPull;
    FusionPart::vertex_fusion_ = t.vertexFusion != Toggle::Off;
    HeldPart::end_fusion_ = t.endFusion != Toggle::Off;
    prefetch_.set_mode(t.sourcePrefetch);
    batch_.set_run_mode(t.frontierPull == FrontierPull::Always ? gpu::BatchMode::Off : t.superstepBatch);
  }

 private:
  // What the constructor and the methods above use of the parts (their bases depend on Program).
  using GraphPart::layout_;
  using GraphPart::d_column_dst_;
  using GraphPart::d_column_rid_;
  using GraphPart::upload_topology;
  using GraphPart::upload_column_edges;
  using GraphPart::upload_in_edges;
  using GraphPart::upload_user_fields;
  using MessagePart::d_received_;
  using MessagePart::d_temp_;
  using MessagePart::allocate_messages;
  using MessagePart::allocate_received_flags;
  using MessagePart::materialize_slots;
  using FrontierPart::d_active_vertices_;
  using FrontierPart::queued_frontier_;
  using FrontierPart::superstep_queued_;
  using FrontierPart::active_scan_valid_;
  using FrontierPart::active_vertex_count_;
  using FrontierPart::active_vertex_edges_;
  using FrontierPart::d_active_edges_;
  using FrontierPart::active_edge_count_;
  using FrontierPart::allocate_frontiers;
  using FrontierPart::promote_frontiers;
  using ReceiverPart::receiver_queues_;
  using ReceiverPart::d_receivers_;
  using ReceiverPart::receivers_queue_;
  using ReceiverPart::receivers_valid_;
  using ReceiverPart::allocate_receiver_queues;
  using FusionPart::combiner_;
  using FusionPart::pull_fusion_;
  using FusionPart::frontier_pull_;
  using FusionPart::bins_;
  using FusionPart::pending_gather_;
  using FusionPart::prefetch_;
  using HeldPart::issue_held;
  using HeldPart::drop_held;
  using PriorityPart::allocate_priorities;
  using PriorityPart::count_buckets;
  using BatchPart::batch_;
  using BatchPart::step_batchable_;
  using BatchPart::bucketed_vertices_;
  using BatchPart::skips_unbatchable;
};

}  // namespace gpu
}  // namespace medusa

#include <medusa/backend/cuda/exec.cuh>
