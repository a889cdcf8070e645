// The VERTEX launch over a batched push's receivers, held back so that it may run in the kernel
// that ends a queued superstep (receivers_vertex_end_kernel) instead of a launch of its own.
#pragma once

#include <medusa/backend/common/partition_view.h>
#include <medusa/backend/cuda/check.h>
#include <medusa/backend/cuda/engine/core.cuh>
#include <medusa/backend/cuda/engine/receiver_queues.cuh>
#include <medusa/backend/cuda/kernels.cuh>
#include <medusa/backend/cuda/superstep_batch.cuh>
#include <medusa/config.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <type_traits>
#include <utility>

namespace medusa::gpu {

// A part of PartitionEngine<Program> (= Engine).
template <class Program, class Engine>
class HeldVertex {
 public:
  using Message = typename Program::Message;
  using VertexArrays = typename Program::VertexArrays;
  using EdgeArrays = typename Program::EdgeArrays;

  explicit HeldVertex(const Tuning& tuning) : end_fusion_(tuning.endFusion != Toggle::Off) {}

  // Held back when it may be the last operation of a queued superstep: end_batched_superstep_here
  // then runs it in the kernel that ends the superstep; any other operation issues it first. On a
  // partition of k the replica exchange copies the flags its SetActive() calls set, and the
  // superstep ends on every partition together: join_held_vertex_before_exchange runs it, in a
  // kernel that does all of that end but the replicas' queue and the stop rule.
  template <class Element>
  bool hold_receiver_vertex(const Element& element) {
    Engine* e = &self();
    if (!end_fusion_ || !e->receiver_queues_ || !e->batch_.active() || e->batch_.stopped() ||
        !e->superstep_queued_ || !e->receivers_valid_)
      return false;
    issue_held();
    held_issue_ = [e, element] {
      gpu::run_on_partition<VERTEX>(*e, Domain::Received, element, common::LaunchRange::whole(e->V_));
    };
    held_join_ = [e, element](const gpu::kernels::QueuedSuperstepEnd<gpu::StepCounters>& end) {
      const bool reset = e->spare_ == SpareState::Dirty;
      const gpu::kernels::ReceiverTail<Message> tail{e->d_receivers_[e->receivers_queue_].data(),
                                                     e->batch_.device_receiver_count(e->receivers_queue_),
                                                     reset ? e->d_receivers_[e->spare_queue_].data() : nullptr,
                                                     e->batch_.device_receiver_count(e->spare_queue_),
                                                     e->d_combined_spare_.data(),
                                                     e->d_received_spare_.data(),
                                                     e->spare_fill_};
      const std::uint64_t threads = std::max(e->batch_.vertex_edge_bound(), e->batch_.vertex_bound());
      const unsigned grid = gpu::grid_for(threads, e->max_blocks_);
      e->note_user_launch();
      const auto launch = [&](auto ends_superstep) {
        gpu::launch_kernel<gpu::kernels::receivers_vertex_end_kernel<gpu::StepCounters, Message, VertexArrays,
                                                                     EdgeArrays, Element, decltype(ends_superstep)::value>>(
            grid, 256, e->stream_.get(), e->ctx(), e->vertex_arrays_, e->edge_arrays_, element, tail, end);
      };
      if (e->whole_graph()) launch(std::true_type{});
      else launch(std::false_type{});  // (a partition of k: the superstep ends on all of them together)
      MEDUSA_CUDA_CHECK_LAUNCH("receivers_vertex_end_kernel");
      if (reset) e->spare_ = SpareState::Clean;
    };
    return true;
  }
  bool vertex_held() const { return static_cast<bool>(held_issue_); }
  // Issues a held VERTEX launch as it was made (before any other operation).
  void issue_held_vertex() { issue_held(); }
  // On a partition of k, once the superstep's operations are issued and before the replica exchange
  // copies the owners' SetActive flags: the held VERTEX launch over the receivers, joined with the
  // reset of the spare receivers and with clearing the ending frontier's flags (which the exchange
  // does not read). end_batched_superstep_here then only queues the replicas.
  void join_held_vertex_before_exchange() {
    Engine& e = self();
    if (!held_join_ || e.whole_graph()) return;
    gpu::DeviceScope on(e.device_.ordinal);
    const auto join = std::move(held_join_);
    drop_held();
    join(e.batch_.queued_end(e.d_counters_.data(), /*host votes: read by the together kernel=*/{},
                             Program::uses.continue_vote, /*ending=*/e.d_active_vertices_.data(),
                             /*its flags=*/e.d_active_flags_.data()));
    ending_cleared_ = true;
  }

 protected:
  Engine& self() { return static_cast<Engine&>(*this); }
  const Engine& self() const { return static_cast<const Engine&>(*this); }

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

  // Whether join_held_vertex_before_exchange cleared the ending frontier's flags; asked once at each
  // batched superstep's end.
  bool take_ending_cleared() { return std::exchange(ending_cleared_, false); }

  // Tuning::endFusion off: the VERTEX launch over a batched push's receivers is never joined with
  // the superstep's end (hold_receiver_vertex).
  bool end_fusion_;
  bool ending_cleared_ = false;
  std::function<void()> held_issue_;
  std::function<void(const gpu::kernels::QueuedSuperstepEnd<gpu::StepCounters>&)> held_join_;
};

}  // namespace medusa::gpu
