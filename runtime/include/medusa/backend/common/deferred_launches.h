// The deferred calls of PartitionedSession (partitioned_session.h): pull fusion. A launch over all
// elements (or a dense frontier) right after InitMessageBuffer waits for the next call; Combiner()
// fuses it, anything else issues the fill and the launch as they were. The session's plan cursor
// (plan_cursor.h) and its engines decide whether a launch may wait; this holds what waits.
#pragma once

#include <medusa/backend/common/combiner_ops.h>
#include <medusa/backend/common/pull_fusion.h>
#include <medusa/types.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <utility>

namespace medusa::common {

// A CRTP base of Session (PartitionedSession<Program, Engine, Exchange>), which befriends it.
template <class Session, class Program, class Engine>
class DeferredLaunches {
 protected:
  using Message = typename Program::Message;

  // A launch over the frontier fuses too when the frontier is dense enough that one pass over
  // every in-edge (skipping inactive sources) beats pushing the frontier's edges
  // (pull_fusion.h: prefer_frontier_pull).
  // A frontier under min, max or bitwise or / and fuses too, pushed into the combined values where
  // the engine prefers that (pull_fusion.h: may_push_combine).
  template <class Element>
  bool can_defer(Domain domain) const {
    const Session& s = self();
    if (!fill_awaits_launch()) return false;
    if (domain == Domain::All) return true;
    return domain == Domain::Active && Program::uses.vertex_frontier &&
           (s.any_engine([](const Engine& e) { return e.frontier_pull_preferred(); }) ||
            may_push_combine_with<Message>(s.conf_.combinerOpType));
  }
  // InitMessageBuffer; EMV<EDGE>::Run(f) over all edges; Combiner() under min, max or bitwise or /
  // and, in a program whose Combiner consumes its slots (ProgramUses::combiner_consumes_slots):
  // every edge folds what it sends straight into its tail's combined value, and no slot is written.
  bool can_defer_edges(Domain domain) const {
    const Session& s = self();
    return fill_awaits_launch() && domain == Domain::All && s.conf_.tuning.pushCombine != Toggle::Off &&
           may_push_combine_with<Message>(s.conf_.combinerOpType);
  }
  // InitMessageBuffer was deferred and no launch holds it yet.
  bool fill_awaits_launch() const { return self().pull_fusion_ && fill_deferred_ && !deferred_push_; }
  // Holds back `push` (the launch as issued); a built-in Combiner() then calls
  // fused(engine, op, fill) on every partition instead of the fill, the launch and the Combiner.
  // The fused pass is an edge-side launch over every local head: partitions refresh stale
  // replicas first (no overlap: the pass folds every in-edge at once).
  template <class Push, class Fused>
  void defer(const Push& push, const Fused& fused) {
    Session& s = self();
    deferred_push_ = push;
    deferred_fused_ = [&s, fused](const Message& fill) {
      if (s.exchange_ && s.fresh_hop_ == 0) {
        s.refresh_fields();
        for (std::uint32_t p = 0; p < s.engines_.size(); ++p) s.exchange_->wait(p);
      }
      visit_builtin_combiner<Message>(s.conf_.combinerOpType, [&](const auto& op) {
        for (auto& e : s.engines_) fused(*e, op, fill);
      });
      if (s.exchange_) s.message_hop_ = std::min(s.message_hop_, s.fresh_hop_ - 1);
    };
  }
  // What the CUDA engine keeps back for a VERTEX launch: the launch itself, held for the
  // superstep's end (one partition), or a fused pass's gather that the launch may join.
  bool vertex_held() const {
    if constexpr (Engine::kBatchesSupersteps) return self().any_engine([](const Engine& e) { return e.vertex_held(); });
    else return false;
  }
  bool gather_pending() const {
    if constexpr (Engine::kFusesVertexIntoGather)
      return self().any_engine([](const Engine& e) { return e.gather_pending(); });
    else return false;
  }
  void flush_deferred() {
    Session& s = self();
    s.in_edges_.require_none();
    if constexpr (Engine::kBatchesSupersteps)
      for (auto& e : s.engines_) e->issue_held_vertex();  // (if it holds one)
    if constexpr (Engine::kFusesVertexIntoGather) {
      if (gather_pending())
        visit_builtin_combiner<Message>(s.conf_.combinerOpType, [&s](const auto& op) {
          for (auto& e : s.engines_)
            if (e->gather_pending()) e->issue_pending_gather(op);
        });
    }
    if (fill_deferred_) {
      fill_deferred_ = false;
      for (auto& e : s.engines_) e->init_message_buffer(deferred_fill_);
    }
    if (deferred_push_) {
      const auto push = std::move(deferred_push_);
      clear_deferred();
      push();
    }
  }
  void clear_deferred() {
    Session& s = self();
    s.in_edges_.clear();
    fill_deferred_ = false;
    deferred_push_ = nullptr;
    deferred_fused_ = nullptr;
  }

  bool fill_deferred_ = false;  // InitMessageBuffer(deferred_fill_) not issued yet
  Message deferred_fill_{};
  std::function<void()> deferred_push_;                 // the deferred launch, as issued
  std::function<void(const Message&)> deferred_fused_;  // the same fused with the Combiner

 private:
  Session& self() { return static_cast<Session&>(*this); }
  const Session& self() const { return static_cast<const Session&>(*this); }
};

}  // namespace medusa::common
