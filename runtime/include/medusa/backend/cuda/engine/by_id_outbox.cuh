// Reads and sends by vertex id in a partitioned run of the CUDA PartitionEngine (the session's side:
// common/by_id_exchange.h): the outbox of sends by global ID, the owner's fold of the sends it is
// delivered, and the whole-graph mirror of the fields read by id. Every exchange goes through host
// memory (correctness first: a whole-graph outbox and mirror per partition). The host engine's
// counterpart is host/engine/by_id_outbox.h.
#pragma once

#include <medusa/backend/cuda/buffer.h>
#include <medusa/backend/cuda/check.h>
#include <medusa/backend/cuda/engine/core.cuh>
#include <medusa/backend/cuda/kernels.cuh>
#include <medusa/backend/cuda/sent_by_id.cuh>
#include <medusa/by_id.h>
#include <medusa/device_api.h>
#include <medusa/types.h>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace medusa::gpu {

// A part of PartitionEngine<Program> (= Engine).
template <class Program, class Engine>
class ByIdOutbox {
  using Message = typename Program::Message;
  using VertexArrays = typename Program::VertexArrays;
  static constexpr std::size_t kVertexFields = std::tuple_size<decltype(Program::vertex_fields)>::value;

 public:
  void set_up_by_id(VertexId global_vertices) {
    global_vertices_ = global_vertices;
    if constexpr (Program::uses.sends_by_id) {
      gpu::DeviceScope on(self().device_.ordinal);
      d_outbox_.allocate(global_vertices);
      d_outbox_flags_.allocate(global_vertices);
      reset_outbox();
    }
  }
  std::vector<VertexId> owned_global_ids() const {
    const Engine& e = self();
    return {e.global_id_.begin(), e.global_id_.begin() + e.owned_count_};
  }
  void read_owned_vertex_field(std::size_t field, std::byte* out) {
    Engine& e = self();
    gpu::DeviceScope on(e.device_.ordinal);
    e.stream_.sync();
    MEDUSA_CUDA_CHECK(cudaMemcpy(out, e.vertex_field(field),
                                 static_cast<std::size_t>(e.owned_count_) * Program::vertex_fields[field].size,
                                 cudaMemcpyDeviceToHost));
  }
  // `fields`: one whole-graph host array per vertex field (null for those not read by id).
  void use_by_id_mirror(void* const* fields) {
    Engine& e = self();
    gpu::DeviceScope on(e.device_.ordinal);
    e.stream_.sync();
    std::vector<void*> device(kVertexFields, nullptr);
    for (std::size_t k = 0; k < kVertexFields; ++k) {
      if (fields[k] == nullptr) continue;
      const std::size_t bytes = global_vertices_ * Program::vertex_fields[k].size;
      if (d_mirror_[k].size() != bytes) d_mirror_[k].allocate(bytes);
      MEDUSA_CUDA_CHECK(cudaMemcpy(d_mirror_[k].data(), fields[k], bytes, cudaMemcpyHostToDevice));
      device[k] = d_mirror_[k].data();
    }
    const VertexArrays arrays = Program::bind_vertex(device.data());
    if (d_mirror_arrays_.size() == 0) d_mirror_arrays_.allocate(1);
    MEDUSA_CUDA_CHECK(cudaMemcpy(d_mirror_arrays_.data(), &arrays, sizeof(VertexArrays), cudaMemcpyHostToDevice));
  }
  // The flagged outbox slots (global IDs, ascending), emptied.
  void take_sends_by_id(std::vector<VertexId>& ids, std::vector<Message>& values) {
    Engine& e = self();
    gpu::DeviceScope on(e.device_.ordinal);
    ids.clear();
    values.clear();
    std::vector<std::uint8_t> flags(global_vertices_);
    std::vector<Message> outbox(global_vertices_);
    d_outbox_flags_.download(flags.data(), flags.size(), e.stream_.get());
    d_outbox_.download(outbox.data(), outbox.size(), e.stream_.get());
    e.stream_.sync();
    for (std::size_t g = 0; g < flags.size(); ++g)
      if (flags[g] != 0) ids.push_back(static_cast<VertexId>(g)), values.push_back(outbox[g]);
    reset_outbox();
  }
  // The sends delivered to this partition's owned vertices (local IDs, each once), folded into
  // their slots; the vertices count as received.
  void fold_sends_by_id(const std::vector<VertexId>& local, const std::vector<Message>& values) {
    Engine& e = self();
    if (local.empty()) return;
    gpu::DeviceScope on(e.device_.ordinal);
    if (d_delivered_ids_.size() < local.size()) {
      d_delivered_ids_.allocate(local.size());
      d_delivered_values_.allocate(local.size());
    }
    d_delivered_ids_.upload(local.data(), local.size(), e.stream_.get());
    d_delivered_values_.upload(values.data(), values.size(), e.stream_.get());
    const unsigned grid = gpu::grid_for(local.size(), e.max_blocks_);
    kernels::fold_delivered_kernel<Message><<<grid, kernels::kBlock, 0, e.stream_.get()>>>(
        e.d_sent_by_id_.data(), e.d_received_.data(), d_delivered_ids_.data(), d_delivered_values_.data(),
        local.size(), static_cast<int>(e.conf_.combinerOpType));
    MEDUSA_CUDA_CHECK_LAUNCH("fold_delivered_kernel");
    e.stream_.sync();  // (the host vectors go away)
  }

 protected:
  // InitMessageBuffer: no send pending.
  void reset_outbox() {
    if (d_outbox_.size() == 0) return;
    self().fill(d_outbox_.data(), d_outbox_.size(),
                medusa::detail::builtin_identity<Message>(static_cast<int>(self().conf_.combinerOpType)));
    d_outbox_flags_.zero(self().stream_.get());
  }
  // The partitioned run's part of a launch's KernelCtx (after message_ctx).
  void by_id_ctx(KernelCtx<Message>& c) const {
    if (d_outbox_.size() != 0) c.sent_by_id = d_outbox_.data(), c.sent_by_id_flags = d_outbox_flags_.data();
    if (d_mirror_arrays_.size() != 0) c.by_id_arrays = d_mirror_arrays_.data();
  }

 private:
  Engine& self() { return static_cast<Engine&>(*this); }
  const Engine& self() const { return static_cast<const Engine&>(*this); }

  VertexId global_vertices_ = 0;
  gpu::DeviceBuffer<Message> d_outbox_;             // by global ID
  gpu::DeviceBuffer<std::uint8_t> d_outbox_flags_;  // by global ID: sent to this slot since it was emptied
  gpu::DeviceBuffer<VertexId> d_delivered_ids_;
  gpu::DeviceBuffer<Message> d_delivered_values_;
  gpu::DeviceBuffer<std::byte> d_mirror_[kVertexFields == 0 ? 1 : kVertexFields];  // (kByIdRead fields)
  gpu::DeviceBuffer<VertexArrays> d_mirror_arrays_;
};

}  // namespace medusa::gpu
