// Which supersteps a PartitionEngine issues in batches with one read-back (superstep_batch.cuh),
// the read-back that ends one, and the replays of recorded batches with the host state they need.
#pragma once

#include <medusa/backend/cuda/buffer.h>
#include <medusa/backend/cuda/engine/core.cuh>
#include <medusa/backend/cuda/engine/message_store.cuh>
#include <medusa/backend/cuda/engine/receiver_queues.cuh>
#include <medusa/backend/cuda/superstep_batch.cuh>
#include <medusa/config.h>
#include <medusa/error.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

namespace medusa::gpu {

// A part of PartitionEngine<Program> (= Engine).
template <class Program, class Engine>
class BatchController {
 public:
  using Message = typename Program::Message;

  explicit BatchController(const Tuning& tuning) : batch_{tuning} {}

  // Whether the superstep being issued belongs to a batch.
  bool batching() const { return batch_.active() || batch_.stopped(); }

  // The end of a batched superstep, in three steps over every partition of the run (the session
  // issues each step on all of them before the next), the same for one partition and for k:
  // 1. end_batched_superstep_here: the partition's frontiers are promoted. A queued superstep of
  //    a partition alone ends in that same kernel, the stop rule included; on one of k partitions
  //    the queue of the replicas the exchange flagged is left to step 2 (ReplicaQueueing).
  // 2. end_batched_supersteps_together: one kernel queues those replicas, applies the stop rule to
  //    the votes of all the partitions and begins the next superstep on each (superstep_batch.cuh).
  // 3. batched_superstep_outcome: the batch's read-back when it is full, `last` (maxIteration) or
  //    already read back.
  void end_batched_superstep_here(const std::array<int, kVoteSlots>& host_votes) {
    Engine& e = self();
    gpu::DeviceScope on(e.device_.ordinal);
    ended_here_ = true;
    replica_queueing_ = {};
    replica_queueing_threads_ = 0;
    const bool ending_cleared = e.take_ending_cleared();
    if (batch_.stopped()) {
      e.drop_held();  // (it would do nothing)
      return;
    }
    cudaStream_t s = e.stream_.get();
    if (e.superstep_queued_) {  // SetActive() queued the next frontier and set its flags
      MEDUSA_REQUIRE(e.slots_ != SlotState::FrontierSources,
                     "internal: message slots pending on a pushed frontier in a queued superstep");
      if (!e.whole_graph()) {  // the replicas too, then the superstep ends on every partition together
        e.issue_held();
        leave_replica_queueing(ending_cleared);
        e.swap_queued_frontiers();
        ++e.queued_swaps_;
        ended_here_ = false;
        return;
      }
      if (e.held_join_) {  // the VERTEX launch over the receivers, in the kernel that ends the superstep
        const auto join = std::move(e.held_join_);
        e.drop_held();
        join(batch_.queued_end(e.d_counters_.data(), host_votes, Program::uses.continue_vote,
                               /*ending=*/e.d_active_vertices_.data(), /*its flags=*/e.d_active_flags_.data()));
        e.swap_queued_frontiers();
      } else {
        e.swap_queued_frontiers();
        batch_.end_queued_superstep(s, e.d_counters_.data(), host_votes, Program::uses.continue_vote,
                                    /*ending=*/e.d_next_queue_.data(), /*its flags=*/e.d_next_active_vertex_.data());
      }
      ++e.queued_swaps_;
      return;
    }
    e.issue_held();
    e.promote_frontiers(s);
    ended_here_ = false;
  }
  // `engines`: every partition of the run (unique_ptr<Engine>s), after end_batched_superstep_here
  // on each. The kernel runs on the last partition's stream once every partition's compaction is
  // done; the others' next work waits for it.
  template <class Engines>
  static void end_batched_supersteps_together(Engines& engines, const std::array<int, kVoteSlots>& host_votes) {
    kernels::BatchedPartitions<gpu::StepCounters> parts{};
    kernels::ReplicaQueueings queues{};
    std::uint64_t queue_threads = 0;  // (0: no partition queues replicas)
    Engine& ender = *engines.back();
    const bool one_gpu = std::all_of(engines.begin(), engines.end(), [&](const auto& e) {
      return e->device_.ordinal == ender.device_.ordinal;
    });
    for (auto& engine : engines) {
      Engine& e = *engine;
      if (e.ended_here_) continue;
      MEDUSA_REQUIRE(parts.count < kernels::kMaxBatchedPartitions, "internal: too many partitions in a batch");
      const kernels::BatchedPartition<gpu::StepCounters> part = e.batch_.partition(e.d_counters_.data());
      if (one_gpu) {
        queues.part[parts.count] = e.replica_queueing_;
        queue_threads = std::max(queue_threads, e.replica_queueing_threads_);
      } else if (e.replica_queueing_threads_ != 0) {  // (on its own GPU, before the end)
        gpu::DeviceScope on(e.device_.ordinal);
        gpu::SuperstepBatch::queue_replicas<gpu::StepCounters, Message>(
            e.stream_.get(), gpu::grid_for(e.replica_queueing_threads_, e.max_blocks_), part, e.replica_queueing_);
      }
      parts.part[parts.count++] = part;
    }
    if (parts.count == 0) return;
    MEDUSA_REQUIRE(parts.count == engines.size(), "internal: partitions disagree on a batched superstep's end");
    for (auto& e : engines) {  // the ender waits for the others' compactions
      if (e.get() == &ender) continue;
      e->record_step_event();
      ender.wait_step_event(*e);
    }
    {
      gpu::DeviceScope on(ender.device_.ordinal);
      if (queue_threads != 0)
        gpu::SuperstepBatch::queue_replicas_end_together<gpu::StepCounters, Message>(
            ender.stream_.get(), gpu::grid_for(queue_threads, ender.max_blocks_), parts, queues, host_votes,
            Program::uses.continue_vote);
      else
        gpu::SuperstepBatch::end_together(ender.stream_.get(), parts, host_votes, Program::uses.continue_vote);
    }
    if (engines.size() == 1) return;
    ender.record_step_event();
    for (auto& e : engines)
      if (e.get() != &ender) e->wait_step_event(ender);
  }
  const gpu::BatchOutcome* batched_superstep_outcome(bool last) {
    Engine& e = self();
    gpu::DeviceScope on(e.device_.ordinal);
    if (batch_.stopped()) {
      batch_.restart();
      return &batch_.outcome();
    }
    const bool full = batch_.superstep_ended();
    swaps_by_step_[e.superstep_ - batch_.first_step()] = combined_swaps_;
    e.prefetch_.step_ended(e.superstep_ - batch_.first_step());
    host_edges_by_step_[e.superstep_ - batch_.first_step()] = e.edges_visited_ - batch_start_edges_;
    e.active_scan_valid_ = false;
    if (!full && !last) return nullptr;
    return &take_batch(last);
  }

  // After an exact read-back (collect): whether the last supersteps qualify this partition for a
  // batch at the next superstep. The session starts batches on every partition or on none.
  bool wants_batch() {
    const Engine& e = self();
    return batch_.should_start(step_batchable_, e.active_vertex_edges_, e.E_, Program::uses.vertex_frontier,
                               gpu::BatchPolicy::sparse_buckets(bucketed_vertices_, e.V_));
  }
  void start_batch() {
    Engine& e = self();
    gpu::DeviceScope on(e.device_.ordinal);
    batch_.start(e.stream_.get(), e.superstep_ + 1, e.active_vertex_count_, e.active_vertex_edges_);
    e.receivers_valid_ = false;
    if (e.spare_ == SpareState::Dirty) e.spare_ = SpareState::Unknown;  // (the receiver counts start at 0)
    combined_swaps_ = 0;
    e.prefetch_.batch_started();
    batch_start_ = host_step_state();
    batch_start_edges_ = e.edges_visited_;
  }
  bool batch_active() const { return batch_.active(); }
  // Batched supersteps whose next frontier SetActive() queued, since the last call.
  std::uint32_t take_queued_supersteps() { return std::exchange(queued_supersteps_, 0u); }
  // Ends the batch that a read-back let follow on this partition while another's ended: the
  // partitions batch together or not at all.
  void leave_batch() {
    if (!batch_.active()) return;
    gpu::DeviceScope on(self().device_.ordinal);
    take_batch(/*leave=*/true);
  }

  // ---- Recorded batches (superstep_batch.cuh), for a replayable iteration function -------------
  // At the start of every Run: whether its batches are recorded, and no source messages carried
  // over from what ran before.
  void begin_run(bool replayable) {
    Engine& e = self();
    batch_.record_graphs(replayable, e.conf_.maxIteration);
    e.prefetch_.invalidate();
  }
  // A stream outside the engine that its batched supersteps give work to (the replica exchange's
  // copy stream): a recording joins it back at its end.
  void add_side_stream(cudaStream_t s) { side_streams_.push_back(s); }
  // After a batch started on every partition of the run (`engines`): when one of them wants it
  // recorded, one recording over all their streams starts, ended by the first read-back. The
  // partitions of a run on several GPUs are not recorded.
  template <class Engines>
  static void record_together(Engines& engines) {
    bool wanted = false, allowed = true;
    Engine& origin = *engines.back();
    for (auto& e : engines) {
      wanted = wanted || e->batch_.wants_recording();
      allowed = allowed && e->batch_.records() && e->batch_.active() && e->device_.ordinal == origin.device_.ordinal;
    }
    if (!wanted || !allowed) return;
    gpu::DeviceScope on(origin.device_.ordinal);
    std::shared_ptr<gpu::BatchRecording> recording = origin.batch_.recording();
    std::vector<cudaStream_t> forked, sides;
    for (auto& e : engines) {
      forked.push_back(e->stream_.get());
      sides.insert(sides.end(), e->side_streams_.begin(), e->side_streams_.end());
    }
    recording->set_streams(origin.stream_.get(), forked, std::move(sides));
    for (auto& e : engines) e->batch_.join_recording(recording);
    recording->begin();
  }
  // Launches the recording every partition replays next (replay_length() > 0 on each), then
  // replay_batch() on each.
  template <class Engines>
  static void replay_together(Engines& engines) {
    Engine& origin = *engines.back();
    gpu::DeviceScope on(origin.device_.ordinal);
    origin.batch_.launch_replay();
  }
  // The session's own host state changed over the recorded batch: the next batch records again.
  void forget_replay() { batch_.forget_replay(); }
  // How many supersteps from `step` a replay of the last recorded batch runs; 0 when the host must
  // issue superstep `step`.
  std::uint32_t replay_length(std::uint32_t step, std::uint32_t max_iteration) const {
    constexpr std::uint32_t n = gpu::BatchPolicy::kLength;
    return batch_.replay_ready() && !batch_.stopped() && std::uint64_t{step} + n <= max_iteration ? n : 0;
  }
  // Takes the replay of the last recorded batch for supersteps `step` .. and reads it back.
  const gpu::BatchOutcome& replay_batch(std::uint32_t step) {
    Engine& e = self();
    gpu::DeviceScope on(e.device_.ordinal);
    e.superstep_ = step + gpu::BatchPolicy::kLength - 1;
    batch_.replayed();  // (replay_together launched it)
    e.queued_swaps_ = gpu::BatchPolicy::kLength;  // (as the recording's supersteps traded them: even)
    combined_swaps_ = swaps_by_step_.back();      // (and swaps_by_step_ is still the recording's)
    e.prefetch_.replayed();
    e.edges_visited_ += recorded_host_edges_;  // (what the recording's launches counted on the host)
    return take_batch(/*leave=*/e.superstep_ + 1 >= e.conf_.maxIteration);
  }

 protected:
  Engine& self() { return static_cast<Engine&>(*this); }
  const Engine& self() const { return static_cast<const Engine&>(*this); }

  // The part of a queued superstep's end on one partition of k that end_batched_supersteps_together
  // does, taken before the swap (ReplicaQueueing, superstep_batch.cuh): the replicas whose flags the
  // exchange delivered join the next frontier's queue, and the ending frontier's flags are cleared
  // unless `ending_cleared`.
  void leave_replica_queueing(bool ending_cleared) {
    Engine& e = self();
    const VertexId first = e.owned_count_, end = static_cast<VertexId>(e.V_);
    kernels::ReplicaQueueing& q = replica_queueing_;
    if (first != end) {
      q.landing = e.replica_flag_landing();
      q.first = first;
      q.end = end;
    }
    if (!ending_cleared) {
      q.ending = e.d_active_vertices_.data();
      q.ending_flags = e.d_active_flags_.data();
    }
    q.out_offsets = e.d_out_offsets_.data();
    q.next_flags = e.d_next_active_vertex_.data();
    q.next_queue = e.d_next_queue_.data();
    q.next_counts = &e.d_counters_.data()->next_active_vertices;  // (then next_active_vertex_edges)
    // (at least one thread: the kernel that queues ends the superstep)
    replica_queueing_threads_ = std::max<std::uint64_t>({1, ending_cleared ? 0 : batch_.vertex_bound(), end - first});
  }

  // Cross-stream order between partitions at a batched superstep's end.
  void record_step_event() {
    Engine& e = self();
    gpu::DeviceScope on(e.device_.ordinal);
    if (!step_event_) step_event_ = std::make_unique<gpu::Event>();
    MEDUSA_CUDA_CHECK(cudaEventRecord(step_event_->get(), e.stream_.get()));
  }
  void wait_step_event(const Engine& other) {
    Engine& e = self();
    gpu::DeviceScope on(e.device_.ordinal);
    MEDUSA_CUDA_CHECK(cudaStreamWaitEvent(e.stream_.get(), other.step_event_->get(), 0));
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
    take_batch(/*leave=*/true, /*mid_superstep=*/true);
    if (batch_.outcome().stopped) batch_.stop_mid_superstep();
  }
  // Reads the batch back and takes its counts as the exact ones. `mid_superstep`: the superstep
  // being issued did not end in the batch.
  const gpu::BatchOutcome& take_batch(bool leave, bool mid_superstep = false) {
    Engine& e = self();
    const bool repeats = host_step_state() == batch_start_;
    if (!batch_.replay_ready()) recorded_host_edges_ = e.edges_visited_ - batch_start_edges_;
    const std::uint32_t first_step = batch_.first_step();
    const gpu::BatchOutcome& o = batch_.read_back(e.stream_.get(), e.V_, e.E_, leave, repeats);
    // (a batch queues all its supersteps or none: superstep_queued_ depends on its grid bounds)
    if (e.superstep_queued_) {
      const std::uint32_t ended = e.superstep_ + (mid_superstep ? 0 : 1);  // (supersteps before `ended` ended)
      queued_supersteps_ += (o.stopped ? o.stop_step + 1 : ended) - first_step;
    }
    // The supersteps after a stop did nothing on the device, but the host still issued them: their
    // ends traded the queued frontier's buffers, their pushes the combined values' copies, and their
    // pulls over every vertex counted edges. Undo that back to where the stopping superstep left it.
    // (A replay's supersteps are queued when its recording's were: superstep_queued_ is theirs.)
    if (o.stopped) {
      const std::uint32_t k = o.stop_step - first_step;
      if (e.superstep_queued_ && ((k + 1) & 1u) != (e.queued_swaps_ & 1u)) e.swap_queued_frontiers();
      if (((combined_swaps_ - swaps_by_step_[k]) & 1u) != 0) e.swap_combined_buffers();
      e.prefetch_.stopped_at(k, e.d_source_messages_);
      e.spare_ = SpareState::Unknown;  // (nothing is known of the spare copy)
      e.receivers_valid_ = false;
      e.edges_visited_ = batch_start_edges_ + host_edges_by_step_[k];
    }
    e.queued_swaps_ = 0;
    combined_swaps_ = 0;
    e.prefetch_.batch_started();
    batch_start_ = host_step_state();
    e.edges_visited_ += o.edges_visited;
    batch_start_edges_ = e.edges_visited_;
    e.active_vertex_count_ = o.active_vertices;
    e.active_vertex_edges_ = o.active_vertex_edges;
    bucketed_vertices_ = o.bucketed_vertices;
    e.active_scan_valid_ = false;
    return o;
  }

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
    const Engine& e = self();
    HostStepState h{e.slots_, e.pushed_sources_, e.d_active_flags_.data(), e.d_pushed_flags_.data(),
                    e.d_next_active_vertex_.data(), e.d_active_vertices_.data(), e.receivers_queue_,
                    e.receivers_valid_, e.active_scan_valid_, e.messages_allocated_, {}, {},
                    e.d_combined_.data(), e.spare_, e.spare_queue_, {}, e.d_source_messages_.data(),
                    e.prefetch_.valid()};
    std::memcpy(h.init_value.data(), &e.init_value_, sizeof(Message));
    std::memcpy(h.receivers_fill.data(), &e.receivers_fill_, sizeof(Message));
    std::memcpy(h.spare_fill.data(), &e.spare_fill_, sizeof(Message));
    return h;
  }

  gpu::SuperstepBatch batch_;
  bool ended_here_ = false;  // the batched superstep being ended ended on this partition alone
  // This partition's share of end_batched_supersteps_together (leave_replica_queueing), and the
  // threads it takes; 0: none (it compacted, or ended alone).
  kernels::ReplicaQueueing replica_queueing_{};
  std::uint64_t replica_queueing_threads_ = 0;
  std::unique_ptr<gpu::Event> step_event_;  // (record_step_event)
  std::vector<cudaStream_t> side_streams_;   // (add_side_stream)
  bool step_batchable_ = false;  // every operation of this superstep could have run in a batch
  std::uint64_t bucketed_vertices_ = 0;  // after the last exact read-back (priority buckets; else 0)
  std::uint32_t queued_supersteps_ = 0;  // (take_queued_supersteps)
  // Buffer swaps since the batch started, and by the end of each of its supersteps: after a stop
  // inside the batch, the later supersteps' pushes did nothing, so their swaps are undone.
  std::uint32_t combined_swaps_ = 0;
  std::array<std::uint32_t, gpu::BatchPolicy::kLength> swaps_by_step_{};
  // Edges counted on the host since the batch started, by the end of each of its supersteps (a
  // replay's are its recording's).
  std::array<std::uint64_t, gpu::BatchPolicy::kLength> host_edges_by_step_{};
  HostStepState batch_start_{};            // at the start of the batch being issued
  std::uint64_t batch_start_edges_ = 0;    // edges_visited_ then
  std::uint64_t recorded_host_edges_ = 0;  // what a recorded batch's launches added to edges_visited_
};

}  // namespace medusa::gpu
