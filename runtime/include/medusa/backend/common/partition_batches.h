// Batches of supersteps (an engine with kBatchesSupersteps: cuda/engine/batch_controller.cuh) over
// every partition of a run: the partitions batch together or not at all, end each batched
// superstep together (one stop rule over all their votes) and read their batches back alike. The
// same code serves one partition, where "together" is that partition alone. Recorded batches
// (CUDA graphs) are recorded and replayed on every partition together too.
//
// `session_state` (the methods' last argument): what the session's own host state that decides
// its launches is at that point (the replica freshness). A recorded batch is replayed only when
// that came back to where it was at the batch's start, as the engines' host state must.
#pragma once

#include <medusa/config.h>
#include <medusa/device_api.h>
#include <medusa/error.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace medusa::common {

// pred(engine) on the engines (unique_ptrs) of a run's partitions.
template <class Engines, class Pred>
bool any_of_engines(const Engines& engines, const Pred& pred) {
  return std::any_of(engines.begin(), engines.end(), [&](const auto& e) { return pred(*e); });
}
template <class Engines, class Pred>
bool all_of_engines(const Engines& engines, const Pred& pred) {
  return std::all_of(engines.begin(), engines.end(), [&](const auto& e) { return pred(*e); });
}

// The replica refreshes of a batch (RunStats), counted again for each replay of it: a replay repeats
// the last batch the host issued (its recording). The session calls read_back() at every batch
// read-back and exact superstep.
struct BatchRefreshCounts {
  std::uint64_t bytes = 0, bytes_at_read_back = 0;
  std::uint32_t refreshes = 0, refreshes_at_read_back = 0;
  void read_back(const RunStats& s) {
    bytes = s.exchange_bytes - bytes_at_read_back;
    refreshes = s.exchange_refreshes - refreshes_at_read_back;
    bytes_at_read_back = s.exchange_bytes;
    refreshes_at_read_back = s.exchange_refreshes;
  }
  void replayed(RunStats& s) {
    s.exchange_bytes += bytes;
    s.exchange_refreshes += refreshes;
    bytes_at_read_back = s.exchange_bytes;
    refreshes_at_read_back = s.exchange_refreshes;
  }
};

template <class Engine>
class PartitionBatches {
 public:
  explicit PartitionBatches(std::vector<std::unique_ptr<Engine>>& engines) : engines_(engines) {}

  // Whether the superstep being issued belongs to a batch (on every partition).
  bool batching() const {
    const bool any = any_of_engines(engines_, [](const Engine& e) { return e.batching(); });
    MEDUSA_REQUIRE(!any || all_of_engines(engines_, [](const Engine& e) { return e.batching(); }),
                   "internal: some partitions batch a superstep and others do not");
    return any;
  }
  // After an exact read-back: batches start at the next superstep when every partition qualifies.
  void start_together(std::uint64_t session_state) {
    bool every = true;
    for (auto& e : engines_) every = e->wants_batch() && every;  // (each partition counts its streak)
    if (!every) return;
    for (auto& e : engines_) e->start_batch();
    started_together(session_state);
  }
  // The end of a batched superstep, each step on every partition before the next
  // (batch_controller.cuh): the batches' read-back when they were read back, else nothing.
  auto end_superstep(const std::array<int, kVoteSlots>& host_votes, bool last, std::uint64_t session_state) {
    for (auto& e : engines_) e->end_batched_superstep_here(host_votes);
    Engine::end_batched_supersteps_together(engines_, host_votes);
    return agreed_outcome([last](Engine& e) { return e.batched_superstep_outcome(last); }, session_state);
  }
  // How many supersteps from `step` a replay of every partition's recorded batch runs (0: none).
  std::uint32_t replay_length(std::uint32_t step, std::uint32_t max_iteration) const {
    std::uint32_t n = ~std::uint32_t{0};
    for (const auto& e : engines_) n = std::min(n, e->replay_length(step, max_iteration));
    return n;
  }
  auto replay(std::uint32_t step, std::uint64_t session_state) {
    Engine::replay_together(engines_);
    return agreed_outcome([step](Engine& e) { return &e.replay_batch(step); }, session_state);
  }

 private:
  // `outcome_of(engine)` on every partition: each reads its batch back, or not (null), alike, and
  // they stop at the same superstep (one kernel ends each of their batched supersteps). A batch that
  // the read-back let follow on some partitions but not on others ends on all.
  template <class OutcomeOf>
  auto agreed_outcome(const OutcomeOf& outcome_of, std::uint64_t session_state) {
    using Outcome = std::decay_t<decltype(*outcome_of(std::declval<Engine&>()))>;
    std::optional<Outcome> agreed;  // (a copy: leave_batch() reads back again)
    for (std::size_t p = 0; p < engines_.size(); ++p) {
      const Outcome* o = outcome_of(*engines_[p]);
      if (p == 0 && o != nullptr) agreed = *o;
      MEDUSA_REQUIRE(agreed.has_value() == (o != nullptr) &&
                         (o == nullptr || (o->stopped == agreed->stopped && o->stop_step == agreed->stop_step)),
                     "internal: the partitions' batches read back different stops");
    }
    if (agreed && session_state != session_state_at_start_)
      for (auto& e : engines_) e->forget_replay();
    const auto active = [](const Engine& e) { return e.batch_active(); };
    if (agreed && any_of_engines(engines_, active)) {
      if (all_of_engines(engines_, active)) started_together(session_state);  // (the next batch follows)
      else
        for (auto& e : engines_) e->leave_batch();
    }
    return agreed;
  }
  // A batch started on every partition: recorded when one of them wants it.
  void started_together(std::uint64_t session_state) {
    session_state_at_start_ = session_state;
    Engine::record_together(engines_);
  }
  std::vector<std::unique_ptr<Engine>>& engines_;
  std::uint64_t session_state_at_start_ = 0;  // of the batch being issued
};

}  // namespace medusa::common
