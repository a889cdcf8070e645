// Supersteps issued in batches, with no read-back between them, for long runs of sparse frontiers.
// A road network has a thousand supersteps of a few hundred vertices each. There, reading the
// counters back and synchronizing after every superstep costs more than the work does.
//
// During a batch the host issues each superstep without knowing its frontier. The kernels read
// the frontier's size from BatchState, and the end of each superstep applies the stop rule
// (common/stop_decision.h) on the device. Once a superstep stops the run, `halted` makes every
// later launch of the batch return at once. The state after the batch is then the state after
// the superstep that stopped. Only launches whose kernels check `halted` and need no exact count
// on the host may run in a batch (PartitionEngine::require_exact_counts).
#pragma once

#include <medusa/tuning.h>
#include <medusa/backend/common/partition_votes.h>
#include <medusa/backend/common/stop_decision.h>
#include <medusa/backend/cuda/batch_recording.h>
#include <medusa/backend/cuda/block_aggregates.cuh>
#include <medusa/backend/cuda/batch_policy.h>
#include <medusa/backend/cuda/buffer.h>
#include <medusa/backend/cuda/check.h>
#include <medusa/backend/cuda/dependent_launch.cuh>
#include <medusa/backend/cuda/last_block.cuh>
#include <medusa/device_api.h>

#include <cuda_runtime.h>

#include <array>
#include <cstdint>
#include <memory>
#include <utility>

namespace medusa::gpu {

// On the device during a batch, read back once at its end.
struct BatchState {
  unsigned long long active_vertices;      // the frontier the next superstep's launches read
  unsigned long long active_vertex_edges;  // and its out-edges
  unsigned long long edges_visited;        // by the batch's frontier launches
  int halted;                              // a superstep of the batch stopped the run: why
  int vote_stop;                           // (common::VoteStop; maxIteration is the host's)
  int too_many_messages;
  unsigned stop_step;                      // and which
  unsigned step;                           // the superstep being run (on the device: a replayed
                                           // batch's launches carry no superstep numbers)
  unsigned blocks_done;                    // of the superstep's end (is_last_block)
  unsigned long long receivers[2];         // lengths of the receiver queues (PartitionEngine)
  unsigned long long bucketed_vertices;    // after the last superstep's end (BatchPolicy::sparse_buckets)
};

// Votes the host cast while issuing a superstep (Continue() in the iteration function).
struct HostVotes {
  int votes[kVoteSlots];
};

namespace kernels {

// One partition's part in the end of a batched superstep: its counters and batch state, and the
// frontier launches the host issued on it in that superstep.
template <class Counters>
struct BatchedPartition {
  Counters* counters;
  BatchState* b;
  std::uint32_t frontier_launches;
};
// The partitions of a run that end each batched superstep together (at most kMaxBatchedPartitions:
// a kernel parameter). On k partitions one kernel ends the superstep for all of them, reaching the
// others' counters through peer access (or on the same GPU).
constexpr unsigned kMaxBatchedPartitions = 16;
template <class Counters>
struct BatchedPartitions {
  BatchedPartition<Counters> part[kMaxBatchedPartitions];
  unsigned count;
};

// The end of a batched superstep, after the next frontiers are known, for one partition or for k
// together: counts the edges each partition's frontier launches visited, makes each next frontier
// the current one, and applies the stop rule to the votes of all of them (partition_votes.h), so
// that they stop at the same superstep. Then it begins the next superstep on every partition as
// begin_superstep_kernel would (one launch less per superstep: what a batch of sparse supersteps
// waits on is launches). One thread.
template <class Counters>
__device__ void end_batched_superstep(const BatchedPartition<Counters>* parts, unsigned n, const HostVotes& host,
                                      bool continue_vote) {
  // Volatile reads (L2): when the superstep ends in the kernel whose functors voted, this SM's L1
  // may hold a vote word as a functor read it before another SM set it (detail::vote_store).
  const volatile int* votes[kMaxBatchedPartitions];
  for (unsigned p = 0; p < n; ++p) votes[p] = reinterpret_cast<const volatile Counters*>(parts[p].counters)->votes;
  common::PartitionedVoteStop stop = common::partitioned_vote_stop(votes, n, host.votes, continue_vote);
  // No Continue vote does not stop a run while priority buckets hold vertices (stop_decision.h).
  if (stop.stop == common::VoteStop::NoContinue)
    for (unsigned p = 0; p < n; ++p)
      if (reinterpret_cast<const volatile Counters*>(parts[p].counters)->bucketed_vertices != 0)
        stop.stop = common::VoteStop::None;
  for (unsigned p = 0; p < n; ++p) {
    const volatile Counters* seen = parts[p].counters;
    BatchState* b = parts[p].b;
    b->edges_visited += parts[p].frontier_launches * b->active_vertex_edges;
    b->active_vertices = seen->next_active_vertices;
    b->active_vertex_edges = seen->next_active_vertex_edges;
    b->bucketed_vertices = seen->bucketed_vertices;
    if (!stop.stops()) {
      Counters* c = parts[p].counters;
      *c = Counters{};
      c->step_state = medusa::detail::StepState{reinterpret_cast<int*>(c), ++b->step};  // (votes come first)
      continue;
    }
    b->halted = 1;
    b->vote_stop = static_cast<int>(stop.stop);
    b->too_many_messages = stop.too_many_messages ? 1 : 0;
    b->stop_step = b->step;
  }
}

// After the frontier compactions (of every partition: on k partitions, launched once all of them
// compacted).
template <class Counters>
__global__ void end_batched_superstep_kernel(const BatchedPartitions<Counters> parts, HostVotes host,
                                             bool continue_vote) {
  await_previous_kernel();
  if (threadIdx.x != 0 || parts.part[0].b->halted != 0) return;
  end_batched_superstep(parts.part, parts.count, host, continue_vote);
}

// The end of a batched superstep whose next frontier SetActive() queued (KernelCtx::next_active_queue):
// the flags of the frontier that ends, `flags` (its flag buffer becomes the next superstep's
// SetActive flags), are cleared by the kernel's blocks, then the last block to finish ends the
// superstep. O(frontier) instead of a compaction's O(V); the few blocks' atomic is cheap, and no
// block still reads the frontier's size when it changes.
template <class Counters>
struct QueuedSuperstepEnd {
  const VertexId* ending;
  std::uint8_t* flags;
  BatchedPartition<Counters> partition;  // (a partition alone: queued frontiers are one-partition forms)
  HostVotes host;
  bool continue_vote;

  __device__ bool halted() const { return partition.b->halted != 0; }
  __device__ unsigned long long ending_count() const { return partition.b->active_vertices; }
  __device__ void clear(unsigned long long i) const { flags[ending[i]] = 0; }
  // Called by every thread of every block after its share: the last block to get here runs
  // `last()` (on one thread) and ends the superstep.
  template <class Last>
  __device__ void end_by_last_block(const Last& last) const {
    if (by_last_block(last)) end_batched_superstep(&partition, 1, host, continue_vote);
  }
  // The same without the end (a partition of k, which ends with the others): true on the one
  // thread that ran `last()`.
  template <class Last>
  __device__ bool by_last_block(const Last& last) const {
    if (!is_last_block(&partition.b->blocks_done)) return false;
    last();
    return true;
  }
};

template <class Counters>
__global__ void __launch_bounds__(256) clear_frontier_end_batched_superstep_kernel(const QueuedSuperstepEnd<Counters> e) {
  await_previous_kernel();
  if (e.halted()) return;
  const unsigned long long n = e.ending_count();
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    e.clear(i);
  e.end_by_last_block([] {});
}

// A partition of k's share of the end of a queued superstep, done by the kernel that ends it on
// every partition (queue_replicas_end_batched_superstep_kernel), after the replica exchange. The
// replicas [first, end) whose owners SetActive() them join the next frontier's queue: SetActive()
// queues a vertex on its own partition only, and its replicas' flags arrive by the exchange, in
// `landing`. A replica this partition queued itself (an edge-side functor's SetActive() on it)
// holds its flag already and is not queued twice. And the ending frontier's flags are cleared, as
// QueuedSuperstepEnd does (`ending` null: the VERTEX launch over the receivers cleared them). O(frontier
// + replicas) instead of a compaction's O(V). All null: a partition whose superstep compacted.
struct ReplicaQueueing {
  const std::uint8_t* landing = nullptr;
  VertexId first = 0, end = 0;
  const VertexId* ending = nullptr;
  std::uint8_t* ending_flags = nullptr;
  // What SetActive() queues through (KernelCtx): the next frontier's flags, queue and counts.
  const EdgeIndex* out_offsets = nullptr;
  std::uint8_t* next_flags = nullptr;
  VertexId* next_queue = nullptr;
  unsigned long long* next_counts = nullptr;
};
struct ReplicaQueueings {
  ReplicaQueueing part[kMaxBatchedPartitions];
};

// end_batched_superstep_kernel with each partition's ReplicaQueueing done first, by the kernel's
// blocks; the last block to finish ends the superstep on every partition. One launch instead of one
// per partition and one more. `kEndsSuperstep` false: the queueing alone, of a partition on a GPU of
// its own (end_batched_superstep_kernel ends the superstep after it), since a kernel's atomics on
// another GPU's queue would cross the peer link.
template <class Counters, class Msg, bool kEndsSuperstep>
__global__ void __launch_bounds__(256)
    queue_replicas_end_batched_superstep_kernel(const BatchedPartitions<Counters> parts, const ReplicaQueueings queues,
                                                HostVotes host, bool continue_vote) {
  await_previous_kernel();
  if (parts.part[0].b->halted != 0) return;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned p = 0; p < parts.count; ++p) {
    const ReplicaQueueing& q = queues.part[p];
    KernelCtx<Msg> c;  // (queue_active reads these alone)
    c.out_offsets = q.out_offsets;
    c.next_active_vertex = q.next_flags;
    c.next_active_queue = q.next_queue;
    c.next_active_counts = q.next_counts;
    const unsigned long long ending_count = q.ending != nullptr ? parts.part[p].b->active_vertices : 0;
    const unsigned long long replicas = q.landing != nullptr ? q.end - q.first : 0;
    const unsigned long long n = ending_count > replicas ? ending_count : replicas;
    for (unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += stride) {
      if (i < ending_count) q.ending_flags[q.ending[i]] = 0;
      if (i < replicas && q.landing[q.first + i] != 0)
        medusa::detail::queue_active(c, static_cast<VertexId>(q.first + i));
    }
  }
  if constexpr (kEndsSuperstep)
    if (is_last_block(&parts.part[0].b->blocks_done)) end_batched_superstep(parts.part, parts.count, host, continue_vote);
}

// The receivers' side of a joined end (receivers_vertex_end_kernel).
template <class Msg>
struct ReceiverTail {
  const VertexId* receivers;  // this superstep's push reached these
  const unsigned long long* count;
  const VertexId* stale;  // the push before reached these, in the spare buffers; null: none to reset
  unsigned long long* stale_count;
  Msg* spare_combined;
  std::uint8_t* spare_received;
  Msg fill;
};

// The last three steps of a batched superstep that pushed into its receivers, as one kernel: the
// VERTEX launch over the receivers; the reset of the spare combined values and receiver flags that
// the push before dirtied, so that the next push starts from clean ones without a kernel of its own;
// and the end (the ending frontier's flags cleared, the last block ending the superstep). A road
// network's level is then two kernels instead of four, each of which costs a launch and a chain of
// dependent loads. `kEndsSuperstep` false: a partition of k, whose superstep ends after the replica
// exchange, on every partition together; the kernel does all but the stop rule.
template <class Counters, class Msg, class VA, class EA, class Element, bool kEndsSuperstep = true>
__global__ void __launch_bounds__(256)
    receivers_vertex_end_kernel(const __grid_constant__ KernelCtx<Msg> c, const __grid_constant__ VA va,
                                const __grid_constant__ EA ea, const __grid_constant__ Element f,
                                const ReceiverTail<Msg> r, const QueuedSuperstepEnd<Counters> e) {
  await_previous_kernel();
  medusa::detail::bind_step_state(c.step_state);  // (Continue(), Halt(), Superstep())
  if (e.halted()) return;
  open_block_aggregates<Element>();
  const unsigned long long received = *r.count, stale = r.stale != nullptr ? *r.stale_count : 0,
                           ending = e.ending_count();
  const unsigned long long most = received > stale ? received : stale;
  const unsigned long long n = most > ending ? most : ending;
  const unsigned long long stride = static_cast<unsigned long long>(gridDim.x) * blockDim.x;
  for (unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    if (i < received) f(c, va, ea, r.receivers[i]);
    if (i < stale) {
      const VertexId v = r.stale[i];
      r.spare_combined[v] = r.fill;
      r.spare_received[v] = 0;
    }
    if (i < ending) e.clear(i);
  }
  close_block_aggregates<Element>();
  const auto last = [&] {
    if (r.stale != nullptr) *r.stale_count = 0;  // (every block read it before it got here)
  };
  if constexpr (kEndsSuperstep) e.end_by_last_block(last);
  else e.by_last_block(last);
}

}  // namespace kernels

// What a batch's read-back found.
struct BatchOutcome {
  bool stopped = false;
  bool too_many_messages = false;  // a functor sent more than m messages along an edge
  const char* stop_reason = "";     // RunStats::stop_reason
  std::uint32_t stop_step = 0;
  std::uint64_t active_vertices = 0, active_vertex_edges = 0, edges_visited = 0;
  std::uint64_t bucketed_vertices = 0;
};

// The device state of a batch and the host's side of it; when to batch is BatchPolicy's. A batch
// ends early when a frontier outgrows the pushes (BatchPolicy::continues).
//
// With a replayable iteration function (medusa-cc proved it a straight line of operations with
// constant arguments: replayable_iteration.h), each batch is recorded as a CUDA graph. Once a
// whole batch recorded the same work as the one before, and left the engine's host state as it
// found it (the caller says so), the next batches launch that graph again without the host
// issuing anything, until a read-back ends the batches. The partitions of a run record their
// batches together, in one BatchRecording over their streams (BatchController::record_together):
// each says whether it wants a recording, then joins the one that starts.
class SuperstepBatch {
 public:
  static constexpr std::uint32_t kMaxRecordings = 4;  // batches recorded in a row without a repeat
  static constexpr unsigned kMaxEndBlocks = 64;       // of clear_frontier_end_batched_superstep_kernel
  // A recording costs more than issuing its launches (capture and instantiation): only runs of
  // batches long enough to repay it are recorded, from their third batch, and only while at least
  // this many supersteps remain before maxIteration.
  static constexpr std::uint32_t kBatchesBeforeRecording = 2;
  static constexpr std::uint32_t kStepsToRepayRecording = 4 * BatchPolicy::kLength;

  // Whether batches may run at all (before allocate()).
  bool allow(bool allowed) { return policy_.allow(allowed); }
  void allocate() {
    if (!policy_.allowed()) return;
    d_state_.allocate(1);
    h_state_ = PinnedBuffer<BatchState>(1);
  }
  bool allowed() const { return policy_.allowed(); }
  void set_run_mode(BatchMode mode) { policy_.set_run_mode(mode); }
  explicit SuperstepBatch(const Tuning& tuning) : policy_(tuning.superstepBatch), replay_(tuning.batchReplay) {}

  // For one Run: whether its batches are recorded and replayed (Tuning::batchReplay off: never).
  void record_graphs(bool on, std::uint32_t max_iteration) {
    record_ = on && policy_.allowed() && replay_ != Toggle::Off;
    recordings_ = 0;
    max_iteration_ = max_iteration;
  }
  bool active() const { return active_; }
  // A superstep stopped the batch's run and the read-back that found it came mid-superstep: the
  // rest of that superstep issues nothing.
  bool stopped() const { return stopped_; }
  const BatchOutcome& outcome() const { return outcome_; }
  const int* device_halted() const { return active_ ? &d_state_.data()->halted : nullptr; }
  const BatchState* device_state() const { return d_state_.data(); }
  const unsigned long long* device_vertex_count() const { return &d_state_.data()->active_vertices; }
  unsigned long long* device_receiver_count(int queue) const { return &d_state_.data()->receivers[queue]; }
  // Grid bounds for the launches of a batch: kernels stride over the device count, so a frontier
  // beyond them runs correctly, only with fewer threads. They only grow while batches follow one
  // another, so that a replayed graph's launches stay those of its recording.
  std::uint64_t vertex_bound() const { return vertex_bound_; }
  // Whether this batch's next frontiers are queued by SetActive() (BatchPolicy::queues_frontier).
  bool queues_frontier(std::uint64_t vertices) const { return policy_.queues_frontier(vertex_bound_, vertices); }
  std::uint64_t vertex_edge_bound() const { return edge_bound_; }

  void restart() {
    policy_.reset_streak();
    active_ = stopped_ = next_step_begun_ = replay_ready_ = false;
  }
  // After an exact read-back (collect): whether the last supersteps qualify for a batch.
  bool should_start(bool step_batchable, std::uint64_t vertex_edges, std::uint64_t edges, bool frontier,
                    bool buckets_sparse) {
    return policy_.should_start(step_batchable, vertex_edges, edges, frontier, buckets_sparse);
  }
  // Starts a batch at superstep `step`. `follows`: the batch read back just before, whose
  // receiver queues' lengths and grid bounds carry over.
  void start(cudaStream_t s, std::uint32_t step, std::uint64_t vertices, std::uint64_t vertex_edges,
             bool follows = false) {
    active_ = true;
    first_step_ = step;
    pending_ = 0;
    frontier_launches_ = 0;
    const BatchPolicy::Bounds bounds = BatchPolicy::bounds(vertices, vertex_edges);
    vertex_bound_ = follows && vertex_bound_ > bounds.vertices ? vertex_bound_ : bounds.vertices;
    edge_bound_ = follows && edge_bound_ > bounds.vertex_edges ? edge_bound_ : bounds.vertex_edges;
    BatchState& b = *h_state_.data();
    b = BatchState{vertices, vertex_edges, 0, 0, 0, 0, 0, step, 0,
                   {follows ? b.receivers[0] : 0, follows ? b.receivers[1] : 0}};
    d_state_.upload(h_state_.data(), 1, s);
    // A frontier that outgrew the recording's grids is recorded again rather than run on them.
    if (replay_ready_ && (vertex_bound_ != recorded_bounds_.vertices || edge_bound_ != recorded_bounds_.vertex_edges))
      replay_ready_ = false;
    followed_ = follows ? followed_ + 1 : 0;
    const bool repays = followed_ >= kBatchesBeforeRecording &&
                        std::uint64_t{step} + kStepsToRepayRecording <= max_iteration_;
    repays_ = repays;
  }
  // Whether the batch just started should be recorded (record_together() starts the recording).
  bool wants_recording() const { return record_ && active_ && !replay_ready_ && repays_; }
  bool records() const { return record_; }
  // This partition's batch is part of `recording`, which begins once every partition joined.
  void join_recording(std::shared_ptr<BatchRecording> recording) {
    recording_ = std::move(recording);
    in_recording_ = true;
    replay_ready_ = false;
    recorded_bounds_ = {vertex_bound_, edge_bound_};
  }
  // The recording this partition takes part in, or a new one of its own.
  std::shared_ptr<BatchRecording> recording() {
    if (!recording_) recording_ = std::make_shared<BatchRecording>();
    return recording_;
  }
  // The session's host state did not repeat over the recorded batch: it is not replayed.
  void forget_replay() { replay_ready_ = false; }
  // The superstep the current batch started at.
  std::uint32_t first_step() const { return first_step_; }
  // A frontier launch of the current superstep (its edges are counted on the device).
  void count_frontier_launch() { ++frontier_launches_; }
  // Issues the end of a queued superstep of a partition alone (queued frontiers are one-partition
  // forms): clears the ending frontier's `flags` (`ending` is its queue), applies the stop rule and
  // begins the next superstep, in one kernel. Then superstep_ended().
  template <class Counters>
  void end_queued_superstep(cudaStream_t s, Counters* counters, const std::array<int, kVoteSlots>& host_votes,
                            bool continue_vote, const VertexId* ending, std::uint8_t* flags) {
    launch_kernel<kernels::clear_frontier_end_batched_superstep_kernel<Counters>>(
        end_blocks(), 256, s, queued_end(counters, host_votes, continue_vote, ending, flags));
    MEDUSA_CUDA_CHECK_LAUNCH("clear_frontier_end_batched_superstep_kernel");
  }
  // This partition's part in the end of a batched superstep that end_together() ends.
  template <class Counters>
  kernels::BatchedPartition<Counters> partition(Counters* counters) const {
    return {counters, d_state_.data(), frontier_launches_};
  }
  // Ends a batched superstep on every partition in `parts` with one kernel on `s` (ordered after
  // every partition's frontier compaction by the caller): the stop rule over all their votes, then
  // the next superstep begun on each. Then superstep_ended() on each.
  template <class Counters>
  static void end_together(cudaStream_t s, const kernels::BatchedPartitions<Counters>& parts,
                           const std::array<int, kVoteSlots>& host_votes, bool continue_vote) {
    launch_kernel<kernels::end_batched_superstep_kernel<Counters>>(1, 32, s, parts, host_votes_of(host_votes),
                                                                   continue_vote);
    MEDUSA_CUDA_CHECK_LAUNCH("end_batched_superstep_kernel");
  }
  // The same, with the partitions' replicas queued and their ending frontiers' flags cleared first
  // (ReplicaQueueing), on `grid` blocks enough for the largest of them.
  template <class Counters, class Msg>
  static void queue_replicas_end_together(cudaStream_t s, unsigned grid,
                                          const kernels::BatchedPartitions<Counters>& parts,
                                          const kernels::ReplicaQueueings& queues,
                                          const std::array<int, kVoteSlots>& host_votes, bool continue_vote) {
    launch_kernel<kernels::queue_replicas_end_batched_superstep_kernel<Counters, Msg, true>>(
        grid, 256, s, parts, queues, host_votes_of(host_votes), continue_vote);
    MEDUSA_CUDA_CHECK_LAUNCH("queue_replicas_end_batched_superstep_kernel");
  }
  // The replicas' queueing of one partition alone (`part`, `queue`), on its stream `s`, before
  // end_together() (partitions on several GPUs).
  template <class Counters, class Msg>
  static void queue_replicas(cudaStream_t s, unsigned grid, const kernels::BatchedPartition<Counters>& part,
                             const kernels::ReplicaQueueing& queue) {
    kernels::BatchedPartitions<Counters> parts{};
    kernels::ReplicaQueueings queues{};
    parts.part[0] = part;
    parts.count = 1;
    queues.part[0] = queue;
    launch_kernel<kernels::queue_replicas_end_batched_superstep_kernel<Counters, Msg, false>>(grid, 256, s, parts,
                                                                                              queues, HostVotes{}, false);
    MEDUSA_CUDA_CHECK_LAUNCH("queue_replicas_end_batched_superstep_kernel (one partition)");
  }
  // The same for a queued superstep whose end the caller launches, joined with other work
  // (PartitionEngine: the VERTEX launch over a push's receivers): what its kernel needs, then
  // superstep_ended() once it is launched.
  template <class Counters>
  kernels::QueuedSuperstepEnd<Counters> queued_end(Counters* counters, const std::array<int, kVoteSlots>& host_votes,
                                                   bool continue_vote, const VertexId* ending,
                                                   std::uint8_t* flags) const {
    return {ending, flags, partition(counters), host_votes_of(host_votes), continue_vote};
  }
  // After the end of a batched superstep was issued; true when the batch is full and must be read back.
  bool superstep_ended() {
    frontier_launches_ = 0;
    next_step_begun_ = true;
    return ++pending_ >= BatchPolicy::kLength;
  }
  static HostVotes host_votes_of(const std::array<int, kVoteSlots>& votes) {
    HostVotes host{};
    for (int i = 0; i < kVoteSlots; ++i) host.votes[i] = votes[i];
    return host;
  }
  // Blocks of clear_frontier_end_batched_superstep_kernel: enough for the batch's vertex bound.
  unsigned end_blocks() const {
    const std::uint64_t blocks = (vertex_bound_ + 255) / 256;
    return blocks < kMaxEndBlocks ? static_cast<unsigned>(blocks) : kMaxEndBlocks;
  }
  // Whether the last batched superstep's end began the next one; asked once per superstep.
  bool take_next_step_begun() { return std::exchange(next_step_begun_, false); }

  // Whether the batch just started may be the last recording launched again.
  bool replay_ready() const { return active_ && replay_ready_; }
  // Launches the last recording again (once for every partition in it).
  void launch_replay() { recording_->replay(); }
  // After launch_replay(): the partition ran a whole batch, which the caller then reads back.
  void replayed() {
    pending_ = BatchPolicy::kLength;
    next_step_begun_ = true;
  }

  // Reads the batch back (a synchronization). Ends the batch when a superstep stopped the run, when
  // `leave`, or when the frontier or the priority buckets are no longer sparse; otherwise the next
  // batch starts from here. `host_state_repeats`: the engine's host state is what it was when this
  // batch started.
  const BatchOutcome& read_back(cudaStream_t s, std::uint64_t vertices, std::uint64_t edges, bool leave,
                                bool host_state_repeats) {
    const bool recorded = std::exchange(in_recording_, false);
    const bool whole = pending_ >= BatchPolicy::kLength && !leave;
    if (recorded) recording_->end_and_launch();  // (the first partition read back ends it for all)
    d_state_.download(h_state_.data(), 1, s);
    MEDUSA_CUDA_CHECK(cudaStreamSynchronize(s));
    const BatchState b = *h_state_.data();
    outcome_ = BatchOutcome{b.halted != 0, b.too_many_messages != 0,
                            common::vote_stop_reason(static_cast<common::VoteStop>(b.vote_stop)), b.stop_step,
                            b.active_vertices, b.active_vertex_edges, b.edges_visited, b.bucketed_vertices};
    // Frontier launches of a superstep read back before its end (`leave`) ran on this frontier.
    if (!outcome_.stopped) outcome_.edges_visited += frontier_launches_ * b.active_vertex_edges;
    frontier_launches_ = 0;
    pending_ = 0;
    if (recorded) {
      replay_ready_ = whole && recording_->repeated() && host_state_repeats;
      recordings_ = replay_ready_ ? 0 : recordings_ + 1;
      if (recordings_ >= kMaxRecordings) record_ = false;  // (this Run's batches do not repeat)
    }
    if (outcome_.stopped || leave ||
        !policy_.continues(b.active_vertex_edges, edges, BatchPolicy::sparse_buckets(b.bucketed_vertices, vertices))) {
      active_ = false;
      replay_ready_ = false;
      policy_.reset_streak();
    } else {
      start(s, b.step, b.active_vertices, b.active_vertex_edges, /*follows=*/true);  // (edges_visited back to 0)
    }
    return outcome_;
  }
  // The read-back found the run stopped by an earlier superstep while the host was issuing a later one.
  void stop_mid_superstep() { stopped_ = true; }
  // A Run that throws: drops a recording in progress.
  void abandon() {
    if (std::exchange(in_recording_, false)) recording_->abandon();
    restart();
  }

 private:
  BatchPolicy policy_;
  Toggle replay_;
  bool active_ = false, stopped_ = false, next_step_begun_ = false;
  bool record_ = false, replay_ready_ = false, repays_ = false;
  bool in_recording_ = false;  // the batch being issued is recorded (in recording_)
  std::uint32_t recordings_ = 0, followed_ = 0;  // (batches that followed another in a row)
  std::uint32_t max_iteration_ = 0;
  std::uint32_t pending_ = 0, frontier_launches_ = 0, first_step_ = 0;
  std::uint64_t vertex_bound_ = BatchPolicy::kMinVertexBound, edge_bound_ = BatchPolicy::kMinVertexBound;
  BatchPolicy::Bounds recorded_bounds_{0, 0};  // those of the recording replays launch
  DeviceBuffer<BatchState> d_state_;
  PinnedBuffer<BatchState> h_state_;
  std::shared_ptr<BatchRecording> recording_;  // (shared by the partitions of a run)
  BatchOutcome outcome_;
};

}  // namespace medusa::gpu
