// The receivers of a batched push as a queue (Domain::Received without a flag scan), and the spare
// copies of the combined values and receiver flags that consecutive pushes alternate between.
#pragma once

#include <medusa/backend/cuda/buffer.h>
#include <medusa/backend/cuda/check.h>
#include <medusa/backend/cuda/engine/core.cuh>
#include <medusa/backend/cuda/kernels.cuh>
#include <medusa/backend/cuda/push_combine.cuh>
#include <medusa/error.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <utility>

namespace medusa::gpu {

// The spare copies of the combined values and receiver flags (start_receiver_push): Clean (all
// spare_fill_, received 0, and the next push's queue empty), Dirty (spare_fill_ except at the
// receivers in queue spare_queue_), or Unknown.
enum class SpareState { Unknown, Clean, Dirty };

// A part of PartitionEngine<Program> (= Engine).
template <class Program, class Engine>
class ReceiverQueues {
 public:
  using Message = typename Program::Message;

 protected:
  Engine& self() { return static_cast<Engine&>(*this); }
  const Engine& self() const { return static_cast<const Engine&>(*this); }

  void allocate_receiver_queues() {
    const std::uint64_t V = self().V_;
    if (!receiver_queues_) return;
    for (auto& q : d_receivers_) q.allocate(V);
    d_combined_spare_.allocate(V);
    d_received_spare_.allocate((V + 3) / 4 * 4);
  }

  // A push of a batch whose slots nothing reads: it keeps its receivers as a queue.
  bool receiver_push() const { return receiver_queues_ && self().batch_.active(); }
  // Readies the combined values and receiver flags a push folds into, and returns the queue it
  // appends to. Such pushes alternate between two copies of both: the one a push leaves stays
  // current (combined_msg() reads it until the next Combiner), and the spare one differs from the
  // fill value only at the receivers of the push before. The end of the superstep resets those when
  // it runs the VERTEX launch over the receivers (receivers_vertex_end_kernel); otherwise the
  // push resets them here, or every vertex when it knows nothing of the spare.
  gpu::ReceiverQueue start_receiver_push(const Message& fill) {
    Engine& e = self();
    cudaStream_t s = e.stream_.get();
    const int next = receivers_queue_ ^ 1;
    unsigned long long* next_count = e.batch_.device_receiver_count(next);
    const bool same_fill = std::memcmp(&fill, &spare_fill_, sizeof(Message)) == 0;
    if (spare_ == SpareState::Dirty && same_fill) {
      MEDUSA_REQUIRE(spare_queue_ == next, "internal: the spare receivers are not in the next push's queue");
      gpu::launch_kernel<gpu::kernels::reset_receivers_kernel<Message>>(
          gpu::grid_for(e.batch_.vertex_edge_bound(), e.max_blocks_), gpu::kernels::kBlock, s,
          d_combined_spare_.data(), d_received_spare_.data(), d_receivers_[next].data(), next_count, fill,
          e.batch_.device_halted());
      MEDUSA_CUDA_CHECK_LAUNCH("reset_receivers_kernel");
    } else if (spare_ != SpareState::Clean || !same_fill) {
      e.reset_combined(d_combined_spare_.data(), d_received_spare_.data(), fill);
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
    Engine& e = self();
    std::swap(e.d_combined_, d_combined_spare_);
    std::swap(e.d_received_, d_received_spare_);
    ++e.combined_swaps_;
  }

  // Receiver queues of batched pushes: the last push's receivers are d_receivers_[receivers_queue_]
  // and, while receivers_valid_, the only vertices whose combined value differs from
  // receivers_fill_ or whose received flag is set. Whatever else writes either clears it
  // (reset_combined, source_messages, gather, combine, init_message_buffer), as does a new batch.
  bool receiver_queues_ = false;
  std::array<gpu::DeviceBuffer<VertexId>, 2> d_receivers_;
  int receivers_queue_ = 0;
  bool receivers_valid_ = false;
  Message receivers_fill_{};
  gpu::DeviceBuffer<Message> d_combined_spare_;
  gpu::DeviceBuffer<std::uint8_t> d_received_spare_;
  SpareState spare_ = SpareState::Unknown;
  int spare_queue_ = 0;
  Message spare_fill_{};
};

}  // namespace medusa::gpu
