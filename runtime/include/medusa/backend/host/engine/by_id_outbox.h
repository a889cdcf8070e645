// Reads and sends by vertex id in a partitioned run of the host PartitionEngine (the session's side:
// common/by_id_exchange.h): the outbox of sends by global ID, the owner's fold of the sends it is
// delivered, and the whole-graph mirror of the fields read by id (the session's arrays, bound here).
// The CUDA engine's counterpart is cuda/engine/by_id_outbox.cuh.
#pragma once

#include <medusa/backend/host/host_array.h>
#include <medusa/by_id.h>
#include <medusa/device_api.h>
#include <medusa/types.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace medusa::host {

// A part of PartitionEngine<Program> (= Engine).
template <class Program, class Engine>
class ByIdOutbox {
  using Message = typename Program::Message;

 public:
  // A partitioned run: sends go to the outbox (one slot per global vertex) instead of sent_by_id_.
  void set_up_by_id(VertexId global_vertices) {
    Engine& e = self();
    if constexpr (Program::uses.sends_by_id) {
      outbox_.allocate(global_vertices);
      outbox_flags_.allocate(global_vertices);
      reset_outbox();
      e.ctx_.sent_by_id = outbox_.data();
      e.ctx_.sent_by_id_flags = outbox_flags_.data();
    }
  }
  std::vector<VertexId> owned_global_ids() const {
    const Engine& e = self();
    return {e.global_id_.begin(), e.global_id_.begin() + e.owned_count_};
  }
  void read_owned_vertex_field(std::size_t field, std::byte* out) {
    Engine& e = self();
    std::memcpy(out, e.vertex_field(field), static_cast<std::size_t>(e.owned_count_) * Program::vertex_fields[field].size);
  }
  // `fields`: one whole-graph array per vertex field (null for those not read by id), which stay
  // where they are: the session rewrites them in place.
  void use_by_id_mirror(void* const* fields) {
    mirror_ = Program::bind_vertex(fields);
    self().ctx_.by_id_arrays = &mirror_;
  }
  // The flagged outbox slots (global IDs, ascending), emptied.
  void take_sends_by_id(std::vector<VertexId>& ids, std::vector<Message>& values) {
    ids.clear();
    values.clear();
    for (std::size_t g = 0; g < outbox_flags_.size(); ++g) {
      if (outbox_flags_[g] == 0) continue;
      ids.push_back(static_cast<VertexId>(g));
      values.push_back(outbox_[g]);
    }
    reset_outbox();
  }
  // The sends delivered to this partition's owned vertices (local IDs, each once), folded into
  // their slots; the vertices count as received.
  void fold_sends_by_id(const std::vector<VertexId>& local, const std::vector<Message>& values) {
    Engine& e = self();
    const int op = static_cast<int>(e.conf_.combinerOpType);
    for (std::size_t i = 0; i < local.size(); ++i) {
      e.sent_by_id_[local[i]] = medusa::detail::apply_builtin(op, e.sent_by_id_[local[i]], values[i]);
      if (e.received_.allocated()) e.received_[local[i]] = 1;
    }
  }

 protected:
  // InitMessageBuffer: no send pending.
  void reset_outbox() {
    if (!outbox_.allocated()) return;
    outbox_.fill(medusa::detail::builtin_identity<Message>(static_cast<int>(self().conf_.combinerOpType)));
    outbox_flags_.fill(0);
  }

 private:
  Engine& self() { return static_cast<Engine&>(*this); }
  const Engine& self() const { return static_cast<const Engine&>(*this); }

  HostArray<Message> outbox_;              // by global ID
  HostArray<std::uint8_t> outbox_flags_;   // by global ID: sent to this slot since it was emptied
  typename Program::VertexArrays mirror_{};
};

}  // namespace medusa::host
