// Reads and sends by vertex id (medusa/by_id.h) over several partitions and MPI ranks: functors
// hold global IDs, and the vertex they name may be owned by another partition.
//
// Reads: every engine reads the fields read by id (FieldSpec kByIdRead) from a mirror over the whole
// graph (KernelCtx::by_id_arrays). Before a launch that reads by id, when a launch wrote such a field
// since the last refresh, every mirror takes the owners' values, so a read sees the field as the
// launch began, as in one partition.
// Sends: each engine folds its sends into an outbox by global ID with flags (KernelCtx::
// sent_by_id_flags). Before the Combiner reads the sends, each owner folds the flagged slots of its
// vertices, in the order of the partitions (rank by rank), and marks them received.
// The built-in operators other than a floating-point sum or product give the same values as one
// partition; those two may differ in the last bits, as they do between two runs of one partition
// (its atomics fold in any order).
//
// Two paths, chosen at set-up (--verbose says which):
//  * on the devices: when every partition is an engine of this process (one rank) and the engine
//    can (exchanges_by_id_on_devices: the CUDA engine, its GPUs reaching each other), the engines
//    scatter the owners' values into the mirrors and fold the outboxes among themselves, with no
//    copy through host memory (cuda/engine/by_id_outbox.cuh);
//  * through host memory otherwise: the owners' values that changed since the last refresh are
//    all-gathered (all of them where that is no more bytes) and every mirror rewritten; each rank
//    sends the flagged slots to the ranks of their vertices' owners (Transport::all_to_all).
#pragma once

#include <medusa/by_id.h>
#include <medusa/config.h>
#include <medusa/error.h>
#include <medusa/partition/plan.h>
#include <medusa/program.h>
#include <medusa/transport/byte_block.h>
#include <medusa/transport/transport.h>
#include <medusa/tuning.h>
#include <medusa/types.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace medusa::common {

// The hints medusa-cc gives each launch of a program that reads by id; a launch without them (an
// edge-parallel ELIST) is taken to read and write by-id fields.
template <class Element, class = void>
struct element_reads_by_id : std::true_type {};
template <class Element>
struct element_reads_by_id<Element, std::void_t<decltype(Element::medusa_reads_by_id)>>
    : std::bool_constant<Element::medusa_reads_by_id> {};
template <class Element, class = void>
struct element_sends_by_id : std::true_type {};
template <class Element>
struct element_sends_by_id<Element, std::void_t<decltype(Element::medusa_sends_by_id)>>
    : std::bool_constant<Element::medusa_sends_by_id> {};
template <class Element, class = void>
struct element_writes_by_id_fields : std::true_type {};
template <class Element>
struct element_writes_by_id_fields<Element, std::void_t<decltype(Element::medusa_writes_by_id_fields)>>
    : std::bool_constant<Element::medusa_writes_by_id_fields> {};

// An engine that exchanges reads and sends by id among the engines of one process on their devices:
// its set-up says why it cannot ("" when it can), and the engine interface then asks for
// refresh_by_id_mirrors_on_devices and deliver_sends_by_id_on_devices (engine_interface.h).
template <class Engine, class = void>
struct exchanges_by_id_on_devices : std::false_type {};
template <class Engine>
struct exchanges_by_id_on_devices<Engine, std::void_t<decltype(std::string{Engine::set_up_by_id_on_devices(
                                              std::declval<std::vector<std::unique_ptr<Engine>>&>())})>>
    : std::true_type {};

// What a block of the exchange is, in the error its reader throws should it end early.
inline constexpr const char* kByIdBlock = "reads and sends by vertex id: a block from another rank";

template <class Program, class Engine>
class ByIdExchange {
  using Message = typename Program::Message;
  static constexpr std::uint32_t kNotHere = ~std::uint32_t{0};

 public:
  // A partitioned run, once its engines exist: engines[i] holds partition partitions[i].
  void set_up(std::uint32_t parts, VertexId global_vertices, const std::vector<std::uint32_t>& partitions,
              std::vector<std::unique_ptr<Engine>>& engines, transport::Transport& t, CombinerOp op,
              Toggle on_devices) {
    if constexpr (Program::uses.reads_by_id || Program::uses.sends_by_id) {
      on_ = true;
      op_ = op;
      engine_of_.assign(parts, kNotHere);
      for (std::uint32_t i = 0; i < partitions.size(); ++i) engine_of_[partitions[i]] = i;
      // Every partition's owned global IDs, in the order every later all-gather delivers them.
      std::vector<std::byte> mine;
      for (std::uint32_t i = 0; i < engines.size(); ++i) {
        transport::put(mine, &partitions[i], 1);
        transport::put_array(mine, engines[i]->owned_global_ids());
      }
      owner_.assign(global_vertices, kNotHere);
      local_.assign(global_vertices, 0);
      owned_at_.assign(engines.size(), 0);
      for (const std::vector<std::byte>& block : t.all_gather(mine)) {
        for (std::size_t at = 0; at < block.size();) {
          const auto p = transport::get<std::uint32_t>(block, at, kByIdBlock);
          if (engine_of_[p] != kNotHere) owned_at_[engine_of_[p]] = order_.size();
          order_.push_back(p);
          const std::vector<VertexId>& ids = owned_.emplace_back(transport::get_array<VertexId>(block, at, kByIdBlock));
          for (std::size_t l = 0; l < ids.size(); ++l) owner_[ids[l]] = p, local_[ids[l]] = static_cast<VertexId>(l);
        }
      }
      for (VertexId g = 0; g < global_vertices; ++g)
        MEDUSA_REQUIRE(owner_[g] != kNotHere, "reads and sends by vertex id: vertex " + std::to_string(g) +
                                                  " is owned by no partition");
      for (auto& e : engines) e->set_up_by_id(global_vertices);
      path_ = t.ranks() > 1 ? "through host memory (MPI ranks)" : "through host memory";
      if constexpr (exchanges_by_id_on_devices<Engine>::value) {
        if (t.ranks() == 1 && on_devices == Toggle::Off) {
          path_ += " (switched off: tuning.byIdOnDevices, MEDUSA_BY_ID_ON_DEVICES)";
        } else if (t.ranks() == 1) {
          const std::string refused = Engine::set_up_by_id_on_devices(engines);
          on_devices_ = refused.empty();
          path_ = on_devices_ ? "on the devices" : "through host memory (" + refused + ")";
        }
      }
      if constexpr (Program::uses.reads_by_id)
        for (const FieldSpec& f : Program::vertex_fields)
          mirror_.emplace_back((f.direction & kByIdRead) != 0 && !on_devices_ ? global_vertices * f.size : 0);
    }
  }
  // For --verbose: which path the exchange takes ("" without reads and sends by id).
  std::string describe() const {
    if (!on_) return "";
    return std::string(Program::uses.reads_by_id && Program::uses.sends_by_id ? "reads and sends"
                       : Program::uses.reads_by_id                           ? "reads"
                                                                             : "sends") +
           " by vertex id: " + path_;
  }

  // Before a launch of `Element`: refreshes the mirrors if it reads by id and a launch wrote a field
  // read by id since (flush issues the launches the session deferred first).
  template <ApiKind K, class Element, class Flush>
  void before_launch(std::vector<std::unique_ptr<Engine>>& engines, transport::Transport& t, const Flush& flush) {
    if constexpr (K == ELIST && Program::uses.sends_by_id && element_sends_by_id<Element>::value) {
      // A head whose out-edges lie in several partitions runs its ELIST functor in each: a send
      // outside the edge loop happens once per partition, which only an idempotent fold absorbs.
      const bool idempotent = op_ != MEDUSA_SUM && op_ != MEDUSA_PRODUCT && op_ != MEDUSA_BIT_XOR;
      MEDUSA_REQUIRE(!on_ || idempotent,
                     std::string("a partitioned run (gpuCount > 1, or MPI ranks): an ELIST functor sends by vertex id "
                                 "(sendMsgTo) under Config::combinerOpType = ") +
                         (op_ == MEDUSA_SUM ? "sum" : op_ == MEDUSA_PRODUCT ? "product" : "bitwise xor") +
                         "; a vertex whose out-edges lie in several partitions runs the functor once in each, so "
                         "a send would count again: use min, max or a bitwise / logical or / and, send from a "
                         "VERTEX or EDGE functor, or run one partition");
    }
    if constexpr (Program::uses.reads_by_id) {
      if (!on_) return;
      if (element_reads_by_id<Element>::value && stale_) {
        flush();
        refresh(engines, t);
        stale_ = false;
      }
      if (element_writes_by_id_fields<Element>::value) stale_ = true;
    }
  }

  // Before the Combiner reads the sends by id: each outbox's flagged slots go to the rank that owns
  // their vertex, which folds them in rank order, each rank's engines in turn.
  void deliver_sends(std::vector<std::unique_ptr<Engine>>& engines, transport::Transport& t, int op) {
    if constexpr (Program::uses.sends_by_id) {
      if (!on_) return;
      if constexpr (exchanges_by_id_on_devices<Engine>::value) {
        if (on_devices_) return Engine::deliver_sends_by_id_on_devices(engines);
      }
      const transport::PartitionOwnership own = t.ownership();
      std::vector<std::vector<VertexId>> ids_to(own.ranks);
      std::vector<std::vector<Message>> values_to(own.ranks);
      std::vector<VertexId> ids;
      std::vector<Message> values;
      for (auto& e : engines) {
        e->take_sends_by_id(ids, values);
        if (own.ranks == 1) {  // (every owner is here: no lookup per send)
          ids_to[0].insert(ids_to[0].end(), ids.begin(), ids.end());
          values_to[0].insert(values_to[0].end(), values.begin(), values.end());
          continue;
        }
        for (std::size_t k = 0; k < ids.size(); ++k) {
          const std::uint32_t r = own.rank_of(owner_[ids[k]]);
          ids_to[r].push_back(ids[k]);
          values_to[r].push_back(values[k]);
        }
      }
      std::vector<std::vector<std::byte>> to_each(own.ranks);
      for (std::uint32_t r = 0; r < own.ranks; ++r) {
        transport::put_array(to_each[r], ids_to[r]);
        transport::put_array(to_each[r], values_to[r]);
      }
      std::vector<std::vector<std::pair<VertexId, Message>>> incoming(engines.size());
      for (const std::vector<std::byte>& block : t.all_to_all(to_each)) {
        std::size_t at = 0;
        const auto sent_to = transport::get_array<VertexId>(block, at, kByIdBlock);
        const auto sent = transport::get_array<Message>(block, at, kByIdBlock);
        MEDUSA_REQUIRE(sent.size() == sent_to.size() && at == block.size(),
                       std::string(kByIdBlock) + ": not one value per vertex id");
        for (std::size_t k = 0; k < sent.size(); ++k) {
          const std::uint32_t i = engine_of_[owner_[sent_to[k]]];
          MEDUSA_REQUIRE(i != kNotHere, "internal: a send by id reached a rank that does not own vertex " +
                                            std::to_string(sent_to[k]));
          incoming[i].push_back({local_[sent_to[k]], sent[k]});
        }
      }
      for (std::size_t i = 0; i < engines.size(); ++i) {
        auto& in = incoming[i];
        std::stable_sort(in.begin(), in.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        ids.clear();
        values.clear();
        for (const auto& [l, v] : in) {
          if (!ids.empty() && ids.back() == l) values.back() = detail::apply_builtin(op, values.back(), v);
          else ids.push_back(l), values.push_back(v);
        }
        engines[i]->fold_sends_by_id(ids, values);
      }
    }
  }

 private:
  // Each owner sends what changed of its values since the last refresh: every rank's mirror holds
  // them (each applies every block), so the owner diffs against its own. In one process nothing
  // crosses a network, and the diff would only add a pass over the values.
  void refresh(std::vector<std::unique_ptr<Engine>>& engines, transport::Transport& t) {
    if constexpr (exchanges_by_id_on_devices<Engine>::value) {
      if (on_devices_) return Engine::refresh_by_id_mirrors_on_devices(engines);
    }
    const bool diff = t.ranks() > 1;
    std::vector<std::byte> mine, values;
    for (std::size_t i = 0; i < engines.size(); ++i) {
      const std::vector<VertexId>& ids = owned_[owned_at_[i]];
      for (std::size_t k = 0; k < mirror_.size(); ++k) {
        if (mirror_[k].empty()) continue;
        values.resize(ids.size() * Program::vertex_fields[k].size);
        engines[i]->read_owned_vertex_field(k, values.data());
        put_changes(mine, ids, mirror_[k], values, Program::vertex_fields[k].size, diff);
      }
    }
    std::size_t next = 0;  // (order_: the partitions of every block, in turn)
    for (const std::vector<std::byte>& block : t.all_gather(mine))
      for (std::size_t at = 0; at < block.size(); ++next)
        for (std::size_t k = 0; k < mirror_.size(); ++k)
          if (!mirror_[k].empty()) apply_changes(block, at, owned_[next], mirror_[k], Program::vertex_fields[k].size);
    std::vector<void*> fields;
    for (auto& m : mirror_) fields.push_back(m.empty() ? nullptr : m.data());
    for (auto& e : engines) e->use_by_id_mirror(fields.data());
  }

  // One owner's values of one field (`size` bytes each, of the vertices `ids`): all of them without
  // `diff` or when listing the changed ones would take as many bytes, else the changed ones by
  // local ID.
  static void put_changes(std::vector<std::byte>& out, const std::vector<VertexId>& ids,
                          const std::vector<std::byte>& mirror, const std::vector<std::byte>& values,
                          std::size_t size, bool diff) {
    std::vector<VertexId> changed;
    for (VertexId l = 0; diff && l < ids.size(); ++l)
      if (std::memcmp(&values[l * size], &mirror[ids[l] * size], size) != 0) changed.push_back(l);
    const std::uint8_t all = !diff || changed.size() * (sizeof(VertexId) + size) >= values.size();
    transport::put(out, &all, 1);
    if (all) {
      transport::put(out, values.data(), values.size());
    } else {
      transport::put_array(out, changed);
      for (VertexId l : changed) transport::put(out, &values[l * size], size);
    }
  }
  static void apply_changes(const std::vector<std::byte>& block, std::size_t& at, const std::vector<VertexId>& ids,
                            std::vector<std::byte>& mirror, std::size_t size) {
    if (transport::get<std::uint8_t>(block, at, kByIdBlock) != 0) {
      const std::byte* in = transport::take(block, at, ids.size() * size, kByIdBlock);
      for (std::size_t l = 0; l < ids.size(); ++l) std::memcpy(&mirror[ids[l] * size], in + l * size, size);
      return;
    }
    const auto changed = transport::get_array<VertexId>(block, at, kByIdBlock);
    const std::byte* in = transport::take(block, at, changed.size() * size, kByIdBlock);
    for (std::size_t j = 0; j < changed.size(); ++j) {
      MEDUSA_REQUIRE(changed[j] < ids.size(), std::string(kByIdBlock) + ": a local ID past its partition");
      std::memcpy(&mirror[ids[changed[j]] * size], in + j * size, size);
    }
  }

  bool on_ = false;
  bool on_devices_ = false;  // (else through host memory)
  std::string path_;
  CombinerOp op_ = MEDUSA_SUM;
  bool stale_ = true;  // (the fields were uploaded, no mirror written yet)
  std::vector<std::uint32_t> engine_of_;        // partition -> this rank's engine, or kNotHere
  std::vector<std::size_t> owned_at_;           // this rank's engine -> its partition's index in order_
  std::vector<std::uint32_t> order_;            // the partitions of an all-gather, in order
  std::vector<std::vector<VertexId>> owned_;    // their owned global IDs (local ID = index)
  std::vector<std::uint32_t> owner_;            // global ID -> owning partition
  std::vector<VertexId> local_;                 // global ID -> local ID at its owner
  std::vector<std::vector<std::byte>> mirror_;  // per vertex field: the whole graph's (kByIdRead only)
};

}  // namespace medusa::common
