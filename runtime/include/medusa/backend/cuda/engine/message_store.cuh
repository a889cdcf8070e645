// A partition's messages on the GPU: the E*m slots, send counts, combined values and receiver flags;
// InitMessageBuffer, the Combiner, and the slots a fused pass left pending (SlotState).
#pragma once

#include <medusa/backend/common/combiner_ops.h>
#include <medusa/backend/cuda/buffer.h>
#include <medusa/backend/cuda/check.h>
#include <medusa/backend/cuda/combine.cuh>
#include <medusa/backend/cuda/engine/core.cuh>
#include <medusa/backend/cuda/gather.cuh>
#include <medusa/backend/cuda/kernels.cuh>
#include <medusa/backend/cuda/push_combine.cuh>
#include <medusa/backend/cuda/sent_by_id.cuh>
#include <medusa/config.h>
#include <medusa/error.h>

#include <cstddef>
#include <cstdint>
#include <utility>

namespace medusa::gpu {

// Message slots a fused pass left unwritten: Written (none), FromSources (every slot is
// d_source_messages_[in_src]), FrontierSources (slots of sources outside the flags
// pushed_sources_ points at hold init_value_), Unwritten (a push of a program whose slots
// nothing reads again: none are kept).
enum class SlotState { Written, FromSources, FrontierSources, Unwritten };

// A part of PartitionEngine<Program> (= Engine).
template <class Program, class Engine>
class MessageStore {
 public:
  using Message = typename Program::Message;

  // Combiner(op): combined[v] = InitMessageBuffer value op each of v's message slots.
  template <class Op>
  void combine(const Op& op) {
    Engine& e = self();
    gpu::DeviceScope on(e.device_.ordinal);
    e.issue_held();
    if (e.skips_unbatchable()) return;
    e.receivers_valid_ = false;
    cudaStream_t s = e.stream_.get();
    if constexpr (common::combines_only_sends_by_id<Program, Op>) {
      MEDUSA_CUDA_CHECK(cudaMemcpyAsync(d_combined_.data(), d_sent_by_id_.data(), e.V_ * sizeof(Message),
                                        cudaMemcpyDeviceToDevice, s));
      return;
    }
    ensure_message_buffer();
    materialize_slots();
    if (e.combiner_ != CombinerStrategy::Cub) {
      e.gather(gpu::BufferSource<Message>{d_messages_.data()}, op, nullptr);
    } else {
      const std::size_t need = gpu::segmented_reduce_temp_bytes<Message>(e.combine_count_, op);
      if (need > d_temp_.size()) d_temp_.allocate(need);  // once per operator type, at most
      const EdgeIndex* offsets = e.m_ > 1 ? d_message_offsets_.data() : e.d_in_offsets_.data();
      gpu::segmented_reduce(static_cast<void*>(d_temp_.data()), d_temp_.size(), d_messages_.data(),
                            d_combined_.data(), e.combine_count_, offsets, op, init_value_, s);
    }
    if constexpr (Program::uses.sends_by_id) fold_sent_by_id(d_combined_.data(), d_sent_by_id_.data(), e.V_, op, s);
  }

  void init_message_buffer(const Message& value) {
    Engine& e = self();
    gpu::DeviceScope on(e.device_.ordinal);
    e.issue_held();
    if (e.skips_unbatchable()) return;
    init_value_ = value;
    slots_ = SlotState::Written;
    if constexpr (common::defers_slot_fill<Program>) {
      slot_fill_pending_ = true;  // (no send counts to reset: nothing sends along an edge)
    } else {
      ensure_message_buffer();
      fill(d_messages_.data(), e.E_ * e.m_, init_value_);
      d_send_counts_.zero(e.stream_.get());
    }
    e.receivers_valid_ = false;
    d_received_.zero(e.stream_.get());
    if constexpr (Program::uses.sends_by_id) fill(d_sent_by_id_.data(), e.V_, init_value_), e.reset_outbox();
  }

  // combined[v] = fill and received[v] = 0 for every vertex (the start of a push).
  void reset_combined(const Message& fill) {
    self().receivers_valid_ = false;
    reset_combined(d_combined_.data(), d_received_.data(), fill);
  }
  void reset_combined(Message* combined, std::uint8_t* received, const Message& fill) {
    const Engine& e = self();
    if (e.V_ == 0) return;
    gpu::launch_kernel<gpu::kernels::reset_combined_kernel<Message>>(gpu::grid_for(e.V_, e.max_blocks_),
                                                                     gpu::kernels::kBlock, e.stream_.get(), combined,
                                                                     received, e.V_, fill, e.batch_.device_halted());
    MEDUSA_CUDA_CHECK_LAUNCH("reset_combined_kernel");
  }

  // The message buffer, allocated on first use for programs that declared no messages.
  void ensure_message_buffer() {
    if (messages_allocated_) return;
    allocate_message_buffer();
  }

 protected:
  Engine& self() { return static_cast<Engine&>(*this); }
  const Engine& self() const { return static_cast<const Engine&>(*this); }

  // Messages (a program that sends none gets the buffer on its first InitMessageBuffer or
  // Combiner call instead). combined[] starts as Message{}.
  void allocate_messages() {
    const Engine& e = self();
    if (Program::uses.messages) ensure_message_buffer();
    d_combined_.allocate(e.V_);
    fill(d_combined_.data(), e.V_, Message{});
    if constexpr (Program::uses.sends_by_id) {
      d_sent_by_id_.allocate(e.V_);
      fill(d_sent_by_id_.data(), e.V_, Message{});
    }
  }

  void allocate_received_flags() {
    const Engine& e = self();
    if (!Program::uses.received) return;
    d_received_.allocate((e.V_ + 3) / 4 * 4);  // whole words: ReceiverQueue sets flags by word
    d_received_.zero(e.stream_.get());
  }

  // Writes the slots a fused pass left pending. FromSources (a uniform pass): slot j holds the
  // message of its in-edge's source (the fill value where that source was inactive).
  // FrontierSources (an edge-dependent push): slots of sources outside the pushed frontier hold
  // the fill value.
  void materialize_slots() {
    const Engine& e = self();
    if (std::exchange(slot_fill_pending_, false)) {
      if (messages_allocated_) fill(d_messages_.data(), e.E_ * e.m_, init_value_);
      else allocate_message_buffer();  // (filled with init_value_)
    }
    const SlotState state = std::exchange(slots_, SlotState::Written);
    if (state == SlotState::Written || e.E_ == 0) return;
    MEDUSA_REQUIRE(state != SlotState::Unwritten,
                   "internal: message slots read after a Combiner that medusa-cc found to consume "
                   "them (ProgramUses::combiner_consumes_slots); please report this program");
    const unsigned grid = gpu::grid_for(e.E_, e.max_blocks_);
    if (state == SlotState::FromSources) {
      gpu::kernels::gather_kernel<Message><<<grid, gpu::kernels::kBlock, 0, e.stream_.get()>>>(
          d_messages_.data(), d_source_messages_.data(), e.d_in_src_.data(), e.E_);
      MEDUSA_CUDA_CHECK_LAUNCH("gather_kernel (pending message slots)");
    } else {
      gpu::launch_kernel<gpu::kernels::fill_unsent_slots_kernel<Message>>(
          grid, gpu::kernels::kBlock, e.stream_.get(), d_messages_.data(), e.d_in_src_.data(), pushed_sources_, e.E_,
          init_value_);
      MEDUSA_CUDA_CHECK_LAUNCH("fill_unsent_slots_kernel (pending message slots)");
    }
  }

  // dst[0 .. n-1] = value, on the session's stream.
  void fill(Message* dst, std::uint64_t n, const Message& value) {
    const Engine& e = self();
    if (n == 0) return;
    gpu::launch_kernel<gpu::kernels::fill_kernel<Message>>(gpu::grid_for(n, e.max_blocks_), gpu::kernels::kBlock,
                                                           e.stream_.get(), dst, n, value);
    MEDUSA_CUDA_CHECK_LAUNCH("fill_kernel");
  }

  // The E*m message slots (and for m > 1 the per-edge send counts and the scaled segment
  // offsets). Counted in the memory plan whether or not the program sends messages.
  void allocate_message_buffer() {
    const Engine& e = self();
    const std::uint64_t V = e.V_, E = e.E_;
    const std::uint32_t m = e.m_;
    cudaStream_t s = e.stream_.get();
    d_messages_.allocate(E * m);
    fill(d_messages_.data(), E * m, init_value_);
    if (m > 1) {
      d_send_counts_.allocate(E);
      d_send_counts_.zero(s);
      d_message_offsets_.allocate(V + 1);
      gpu::kernels::scale_offsets_kernel<EdgeIndex>
          <<<gpu::grid_for(V + 1, e.max_blocks_), gpu::kernels::kBlock, 0, s>>>(
              d_message_offsets_.data(), e.d_in_offsets_.data(), V + 1, m);
      MEDUSA_CUDA_CHECK_LAUNCH("scale_offsets_kernel");
    }
    messages_allocated_ = true;
  }

  // The messages' part of a launch's KernelCtx.
  void message_ctx(KernelCtx<Message>& c) const {
    c.messages = d_messages_.data();
    c.send_counts = d_send_counts_.data();
    c.m = self().m_;
    c.combined = d_combined_.data();
    c.received = d_received_.data();
    c.sent_by_id = d_sent_by_id_.data();
    c.sent_by_id_op = static_cast<int>(self().conf_.combinerOpType);
  }

  SlotState slots_ = SlotState::Written;
  bool slot_fill_pending_ = false;  // the slots are init_value_ but not written yet (defers_slot_fill)
  const std::uint8_t* pushed_sources_ = nullptr;
  gpu::DeviceBuffer<Message> d_source_messages_;  // one message per source vertex (uniform sends)
  Message init_value_{};
  bool messages_allocated_ = false;
  gpu::DeviceBuffer<Message> d_messages_;
  gpu::DeviceBuffer<std::uint32_t> d_send_counts_;
  gpu::DeviceBuffer<EdgeIndex> d_message_offsets_;  // in_offsets * m, only for m > 1
  gpu::DeviceBuffer<Message> d_combined_;
  gpu::DeviceBuffer<std::uint8_t> d_received_;
  gpu::DeviceBuffer<Message> d_sent_by_id_;  // sends by vertex id (by_id.h), one per vertex
  gpu::DeviceBuffer<std::byte> d_temp_;  // CUB's (CombinerStrategy::Cub)
};

}  // namespace medusa::gpu
