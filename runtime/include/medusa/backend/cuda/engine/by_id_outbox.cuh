// Reads and sends by vertex id in a partitioned run of the CUDA PartitionEngine (the session's side:
// common/by_id_exchange.h): the outbox of sends by global ID, the owner's fold of the sends it is
// delivered, and the whole-graph mirror of the fields read by id. Two paths:
//  * on the devices, when every partition is an engine of this process and the GPUs reach each
//    other (peer access): the engines of one GPU share one mirror, which each owner's values are
//    scattered into (route_copy.cuh), and each owner folds every outbox's slots of its vertices;
//    events order these kernels after every launch issued before them and before every later one.
//  * through host memory otherwise (MPI ranks): values and flagged sends are downloaded, exchanged
//    by the session and uploaded (a whole-graph outbox and mirror per partition).
// The host engine's counterpart is host/engine/by_id_outbox.h.
#pragma once

#include <medusa/backend/cuda/buffer.h>
#include <medusa/backend/cuda/by_id_kernels.cuh>
#include <medusa/backend/cuda/route_copy.cuh>
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
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace medusa::gpu {

// The whole-graph mirror of the fields read by id on one GPU (null arrays for the other fields).
template <class Program, std::size_t kFields>
struct ByIdMirror {
  gpu::DeviceBuffer<std::byte> fields[kFields == 0 ? 1 : kFields];
  gpu::DeviceBuffer<typename Program::VertexArrays> arrays;  // (bound to `fields`)

  void allocate(VertexId global_vertices, const bool* read_by_id) {
    void* device[kFields == 0 ? 1 : kFields] = {};
    for (std::size_t k = 0; k < kFields; ++k) {
      if (!read_by_id[k]) continue;
      const std::size_t bytes = global_vertices * Program::vertex_fields[k].size;
      if (fields[k].size() != bytes) fields[k].allocate(bytes);
      device[k] = fields[k].data();
    }
    const typename Program::VertexArrays bound = Program::bind_vertex(device);
    if (arrays.size() == 0) arrays.allocate(1);
    MEDUSA_CUDA_CHECK(cudaMemcpy(arrays.data(), &bound, sizeof(bound), cudaMemcpyHostToDevice));
  }
};

// A part of PartitionEngine<Program> (= Engine).
template <class Program, class Engine>
class ByIdOutbox {
  using Message = typename Program::Message;
  static constexpr std::size_t kVertexFields = std::tuple_size<decltype(Program::vertex_fields)>::value;
  using Mirror = ByIdMirror<Program, kVertexFields>;
  using Engines = std::vector<std::unique_ptr<Engine>>;

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

  // ---- On the devices (every engine of the run in this process) ----
  // Sets up the exchange on the devices: "" where it can run, else why not (the host path then).
  static std::string set_up_by_id_on_devices(Engines& engines) {
    bool read_by_id[kVertexFields == 0 ? 1 : kVertexFields] = {};
    for (std::size_t k = 0; k < kVertexFields; ++k) {
      const FieldSpec& f = Program::vertex_fields[k];
      read_by_id[k] = Program::uses.reads_by_id && (f.direction & kByIdRead) != 0;
      if (read_by_id[k] && !route_copies_size(f.size))
        return std::string("field '") + f.name + "' read by id has " + std::to_string(f.size) +
               " bytes (1, 2, 4, 8 or 16 stay on the devices)";
    }
    if (const std::string refused = enable_peer_access(engines); !refused.empty()) return refused;
    std::map<int, std::shared_ptr<Mirror>> mirror_of_gpu;
    std::vector<Message*> outboxes;
    std::vector<std::uint8_t*> flags;
    for (auto& e : engines) {
      ByIdOutbox& b = *e;
      gpu::DeviceScope on(e->device_.ordinal);
      b.issued_ = std::make_unique<gpu::Event>();
      b.exchanged_ = std::make_unique<gpu::Event>();
      std::shared_ptr<Mirror>& m = mirror_of_gpu[e->device_.ordinal];
      if (Program::uses.reads_by_id && m == nullptr) {  // (the first engine of a GPU fills its mirror)
        m = std::make_shared<Mirror>();
        m->allocate(b.global_vertices_, read_by_id);
        b.fills_mirror_ = true;
      }
      b.mirror_ = m;
      outboxes.push_back(b.d_outbox_.data());
      flags.push_back(b.d_outbox_flags_.data());
    }
    if constexpr (Program::uses.sends_by_id) {
      for (auto& e : engines) {
        ByIdOutbox& b = *e;
        gpu::DeviceScope on(e->device_.ordinal);
        b.d_senders_outboxes_.allocate(outboxes.size());
        b.d_senders_outboxes_.upload(outboxes.data(), outboxes.size(), e->stream_.get());
        b.d_senders_flags_.allocate(flags.size());
        b.d_senders_flags_.upload(flags.data(), flags.size(), e->stream_.get());
      }
    }
    for (auto& e : engines) {  // (the host vectors go away; the mirrors' arrays were copied on no engine's stream)
      gpu::DeviceScope on(e->device_.ordinal);
      MEDUSA_CUDA_CHECK(cudaDeviceSynchronize());
    }
    return "";
  }
  // Every mirror takes every owner's values of the fields read by id, after every launch issued so
  // far and before any issued later.
  static void refresh_by_id_mirrors_on_devices(Engines& engines) {
    mark_issued(engines);
    for (auto& filler : engines) {
      ByIdOutbox& f = *filler;
      if (!f.fills_mirror_) continue;  // (another engine of its GPU fills the mirror it reads)
      gpu::DeviceScope on(filler->device_.ordinal);
      cudaStream_t s = filler->stream_.get();
      wait_for_all(s, engines, &ByIdOutbox::issued_);
      for (auto& owner : engines) {  // (each owner's values to their global IDs)
        RouteCopy scatter(owner->d_global_id_.data(), owner->owned_count_, s, /*scatter=*/true, owner->max_blocks_);
        for (std::size_t k = 0; k < kVertexFields; ++k)
          if (f.mirror_->fields[k].size() != 0)
            scatter.add(f.mirror_->fields[k].data(), owner->vertex_field(k),
                        Program::vertex_fields[k].size);
        scatter.launch();
      }
      MEDUSA_CUDA_CHECK(cudaEventRecord(f.exchanged_->get(), s));
    }
    for (auto& e : engines) {
      gpu::DeviceScope on(e->device_.ordinal);
      for (auto& filler : engines) {
        const ByIdOutbox& f = *filler;
        if (f.fills_mirror_) MEDUSA_CUDA_CHECK(cudaStreamWaitEvent(e->stream_.get(), f.exchanged_->get(), 0));
      }
    }
  }
  // Each owner folds the sends by id to its vertices, from every engine's outbox in engine order,
  // and empties those slots; after every launch issued so far and before any issued later.
  static void deliver_sends_by_id_on_devices(Engines& engines) {
    if constexpr (Program::uses.sends_by_id) {
      mark_issued(engines);
      for (auto& owner : engines) {
        Engine& e = *owner;
        ByIdOutbox& b = e;
        gpu::DeviceScope on(e.device_.ordinal);
        cudaStream_t s = e.stream_.get();
        wait_for_all(s, engines, &ByIdOutbox::issued_);
        const int op = static_cast<int>(e.conf_.combinerOpType);
        if (e.owned_count_ != 0) {
          const unsigned grid = gpu::grid_for(e.owned_count_, e.max_blocks_);
          kernels::deliver_sends_by_id_kernel<Message><<<grid, kernels::kBlock, 0, s>>>(
              e.d_sent_by_id_.data(), e.d_received_.data(), e.d_global_id_.data(), e.owned_count_,
              b.d_senders_outboxes_.data(), b.d_senders_flags_.data(), static_cast<std::uint32_t>(engines.size()), op,
              medusa::detail::builtin_identity<Message>(op));
          MEDUSA_CUDA_CHECK_LAUNCH("deliver_sends_by_id_kernel");
        }
        MEDUSA_CUDA_CHECK(cudaEventRecord(b.exchanged_->get(), s));
      }
      for (auto& e : engines) {
        gpu::DeviceScope on(e->device_.ordinal);
        wait_for_all(e->stream_.get(), engines, &ByIdOutbox::exchanged_);
      }
    }
  }

  // ---- Through host memory ----
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
    if (mirror_ == nullptr) {
      bool read_by_id[kVertexFields == 0 ? 1 : kVertexFields] = {};
      for (std::size_t k = 0; k < kVertexFields; ++k) read_by_id[k] = fields[k] != nullptr;
      mirror_ = std::make_shared<Mirror>();
      mirror_->allocate(global_vertices_, read_by_id);
    }
    for (std::size_t k = 0; k < kVertexFields; ++k)
      if (fields[k] != nullptr)
        MEDUSA_CUDA_CHECK(cudaMemcpy(mirror_->fields[k].data(), fields[k], mirror_->fields[k].size(),
                                     cudaMemcpyHostToDevice));
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
    if (mirror_ != nullptr) c.by_id_arrays = mirror_->arrays.data();
  }

 private:
  Engine& self() { return static_cast<Engine&>(*this); }
  const Engine& self() const { return static_cast<const Engine&>(*this); }

  // Peer access between every two GPUs of the engines: "" when enabled, else the pair that has none.
  static std::string enable_peer_access(Engines& engines) {
    for (auto& p : engines) {
      for (auto& q : engines) {
        const int a = p->device_.ordinal, b = q->device_.ordinal;
        if (a == b) continue;
        int can = 0;
        MEDUSA_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, a, b));
        if (!can) return "GPU " + std::to_string(a) + " has no peer access to GPU " + std::to_string(b);
        gpu::DeviceScope on(a);
        const cudaError_t err = cudaDeviceEnablePeerAccess(b, 0);
        if (err == cudaErrorPeerAccessAlreadyEnabled) cudaGetLastError();  // (clears the status)
        else MEDUSA_CUDA_CHECK(err);
      }
    }
    return "";
  }
  static void mark_issued(Engines& engines) {
    for (auto& e : engines) {
      gpu::DeviceScope on(e->device_.ordinal);
      MEDUSA_CUDA_CHECK(cudaEventRecord(static_cast<ByIdOutbox&>(*e).issued_->get(), e->stream_.get()));
    }
  }
  static void wait_for_all(cudaStream_t s, Engines& engines, std::unique_ptr<gpu::Event> ByIdOutbox::*event) {
    for (auto& e : engines) {
      const ByIdOutbox& b = *e;
      MEDUSA_CUDA_CHECK(cudaStreamWaitEvent(s, (b.*event)->get(), 0));
    }
  }

  VertexId global_vertices_ = 0;
  gpu::DeviceBuffer<Message> d_outbox_;             // by global ID
  gpu::DeviceBuffer<std::uint8_t> d_outbox_flags_;  // by global ID: sent to this slot since it was emptied
  gpu::DeviceBuffer<VertexId> d_delivered_ids_;     // (the host path)
  gpu::DeviceBuffer<Message> d_delivered_values_;
  std::shared_ptr<Mirror> mirror_;  // (on the devices: shared by the engines of one GPU)
  // On the devices:
  bool fills_mirror_ = false;                        // the first engine of its GPU
  std::unique_ptr<gpu::Event> issued_, exchanged_;   // on this engine's stream: before and after an exchange
  gpu::DeviceBuffer<Message*> d_senders_outboxes_;   // every engine's outbox, in engine order
  gpu::DeviceBuffer<std::uint8_t*> d_senders_flags_;
};

}  // namespace medusa::gpu
