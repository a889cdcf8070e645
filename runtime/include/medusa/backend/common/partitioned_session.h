// Session<Program> for both backends: runs the user's iteration function over one partition (the
// whole graph) or over gpuCount partitions, each held by one Engine (a GPU, or a simulated partition
// on the host), with head-vertex replicas kept fresh by an Exchange (docs/multi-gpu.md).
//
// Replica freshness (hops = h, local vertices grouped by hop, hop 0 = owned):
//   fresh_hop_   vertices of hop <= fresh_hop_ hold current field values
//   message_hop_ vertices of hop <= message_hop_ have received every message sent to them
// An edge-side launch (ELIST, EDGE) visits heads of hop <= fresh_hop_, so afterwards only tails of
// hop <= fresh_hop_ - 1 have all their messages; a vertex-side launch (VERTEX, MLIST) visits
// hop <= min(fresh_hop_, message_hop_) and the vertices beyond fall out of date. When an edge-side
// launch finds fresh_hop_ == 0 the Exchange refreshes every replica (fresh_hop_ = h), overlapped with
// the launch's owned heads, which read no replica. With h = 1 that is once per superstep; with h
// hops once per h supersteps, the paper's multi-hop replication. A program with a vertex frontier
// refreshes its replicas' flags at each superstep's end: stale fields go along then (one refresh).
//
// Distributed (Config::distributed, `mpirun -np N`): each rank runs the engines of its own
// partitions over a plan that lays out those alone (rank_group.h, PartitionLayout::held);
// engines_[i] is partition ownership.partition(i). Rank 0 lays out every partition from its graph
// and sends the other ranks theirs, or each rank reads its own partition file (session_engines.h).
#pragma once

#include <medusa/backend/common/aggregate_steps.h>
#include <medusa/backend/common/by_id_exchange.h>
#include <medusa/backend/common/combiner_ops.h>
#include <medusa/backend/common/deferred_launches.h>
#include <medusa/backend/common/distributed_results.h>
#include <medusa/backend/common/domain_check.h>
#include <medusa/backend/common/in_edge_pull.h>
#include <medusa/backend/common/message_value.h>
#include <medusa/backend/common/multi_hop.h>
#include <medusa/backend/common/partition_batches.h>
#include <medusa/backend/common/partition_setup.h>
#include <medusa/backend/common/partition_transfer.h>
#include <medusa/backend/common/partition_votes.h>
#include <medusa/backend/common/partition_view.h>
#include <medusa/backend/common/plan_cursor.h>
#include <medusa/backend/common/priorities.h>
#include <medusa/backend/common/pull_fusion.h>
#include <medusa/backend/common/rank_group.h>
#include <medusa/backend/common/replicated_state.h>
#include <medusa/backend/common/session_engines.h>
#include <medusa/backend/common/step_state_guard.h>
#include <medusa/backend/common/step_counts.h>
#include <medusa/backend/common/stop_decision.h>
#include <medusa/config.h>
#include <medusa/device_api.h>
#include <medusa/error.h>
#include <medusa/graph.h>
#include <medusa/partition/plan.h>
#include <medusa/plan.h>
#include <medusa/program.h>
#include <medusa/replayable_iteration.h>
#include <medusa/backend/common/scheduled_run.h>
#include <medusa/backend/common/setup_clock.h>
#include <medusa/session.h>
#include <medusa/tuning.h>
#include <medusa/types.h>
#include <medusa/vertex_order.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

namespace medusa::common {

template <class Program, class Engine, class Exchange>
class PartitionedSession : public SessionBase,
                           private DeferredLaunches<PartitionedSession<Program, Engine, Exchange>, Program, Engine> {
  using Deferred = DeferredLaunches<PartitionedSession, Program, Engine>;
  friend Deferred;
  using Deferred::can_defer, Deferred::can_defer_edges, Deferred::clear_deferred, Deferred::defer;
  using Deferred::deferred_fill_, Deferred::deferred_fused_, Deferred::deferred_push_, Deferred::fill_deferred_;
  using Deferred::fill_awaits_launch, Deferred::flush_deferred, Deferred::vertex_held, Deferred::gather_pending;

 public:
  using Vertex = typename Program::Vertex;
  using Edge = typename Program::Edge;
  using Message = typename Program::Message;
  using GraphType = Graph<Vertex, Edge>;

  PartitionedSession(GraphType& graph, const Config& conf) : conf_(resolve_tuning(conf)), ranks_(conf) {
    ranks_.ending_job_on_failure([&] { build(graph, conf); });
    if (verbose()) std::fprintf(stderr, "%s\n", report().c_str());
  }

 private:
  void build(GraphType& graph, const Config& conf) {
    MEDUSA_REQUIRE(conf.messagesPerEdge >= 1,
                   "Config::messagesPerEdge (the paper's m) must be at least 1");
    MEDUSA_REQUIRE(conf.gpuCount >= 1, "Config::gpuCount must be at least 1 (it is " +
                                           std::to_string(conf.gpuCount) + ")");
    const std::uint32_t parts = parts_ = ranks_.partition_count(conf);
    check_partitionable<Program>(parts, conf, ranks_.distributed());
    conf_.gpuCount = static_cast<int>(parts);  // what the engines see (one partition per rank, ...)
    const EngineSetup s =
        set_up_engines<Program, Engine, Exchange>(graph, conf_, ranks_, parts, plan_, engines_, order_, setup_);
    setup_.lap("engines");
    shape_ = s.shape;
    hop_choice_ = s.hop_choice;
    if (s.hops != 0) use_hops(s.hops);
    if (parts > 1) {
      exchange_ = std::make_unique<Exchange>(plan_, engines_, ReplicatedState<Program>::of_program(),
                                             ranks_.transport(), conf_.tuning.sparseRefresh);
      holdings_ = ranks_.share_holdings(plan_, s.graph_bytes, s.whole_graph_bytes);
      by_id_.set_up(parts, plan_.global_vertices, ranks_.ownership().partitions_of(parts), engines_, ranks_.transport(),
                    conf_.combinerOpType, conf_.tuning.byIdOnDevices);
      setup_.lap("exchange");
    }
    use_config(conf_);
  }
  bool verbose() const { return conf_.verbose && ranks_.reports(); }
  PartitionLayout& layout(std::uint32_t i) { return plan_.partitions[ranks_.ownership().partition(i)]; }

 public:
  PartitionedSession(const PartitionedSession&) = delete;
  PartitionedSession& operator=(const PartitionedSession&) = delete;

  // Medusa::Run: one call of `iteration` per superstep until a vote or maxIteration stops it.
  // A function medusa-cc registered as replayable (replayable_iteration.h) may have batches of its
  // supersteps launched again without being called. Its registered plan (medusa/plan.h) takes the
  // fusion decisions of the calls that follow it (plan_cursor.h).
  RunStats Run(void (*iteration)()) {
    MEDUSA_REQUIRE(iteration != nullptr, "Device::Run: the iteration function is null");
    plan_cursor_.begin_run(medusa::detail::plan_of(iteration));
    const ScheduledRun<PartitionedSession> scheduled(*this, medusa::detail::schedule_of(iteration));
    return ranks_.ending_job_on_failure([&] {
      return run_guarded([iteration] { iteration(); }, medusa::detail::is_replayable_iteration(iteration));
    });
  }
  template <class F>
  RunStats Run(F&& iteration) {
    plan_cursor_.begin_run(nullptr);
    return ranks_.ending_job_on_failure([&] { return run_guarded([&iteration] { iteration(); }, false); });
  }

  // Copies the kDownload fields back into `graph` (each vertex from its owner, each edge from its
  // tail's partition; edges back to input order). Distributed: rank 0 gets the whole result, and
  // so does every rank when every rank holds the graph (else the others' graphs stay as they are).
  void Dump_Result(GraphType& graph) {
    ranks_.ending_job_on_failure([&] {
      const GraphHolders holders = shape_.holders;
      const bool whole = holders != GraphHolders::NoRank && (ranks_.reports() || holders == GraphHolders::EveryRank);
      MEDUSA_REQUIRE(holders != GraphHolders::NoRank || !ranks_.reports() || graph.vertex_count() == shape_.vertices,
                     "Dump_Result: the graph has " + std::to_string(graph.vertex_count()) +
                         " vertices, but the partition files are of a graph of " + std::to_string(shape_.vertices));
      MEDUSA_REQUIRE(!whole || (graph.vertex_count() == shape_.vertices && graph.edge_count() == shape_.edges),
                     "Dump_Result: the graph has " + std::to_string(graph.vertex_count()) +
                         " vertices and " + std::to_string(graph.edge_count()) +
                         " edges, but the device data was built for " +
                         std::to_string(shape_.vertices) + " and " + std::to_string(shape_.edges));
      if (!ranks_.distributed()) {
        for (auto& e : engines_) e->download(graph);
        return;
      }
      if (ranks_.reports() && holders != GraphHolders::NoRank)
        for (auto& e : engines_) e->download(graph);
      collect_results<Program>(ranks_.transport(), plan_, engines_, graph, holders);
    });
  }

  // Combiner(op) of the iteration function.
  template <class Op>
  void combine(const Op& op) {
    plan_cursor_.call(PlanCall::combiner_with());
    combine_with(op);
  }
  // The fold of Combiner(op) and of an unfused Combiner().
  template <class Op>
  void combine_with(const Op& op) {
    if constexpr (Program::uses.sends_by_id)
      if (!common::is_builtin_combiner_op<Op>::value)
        MEDUSA_THROW("Combiner(op): the program sends by vertex id (sendMsgTo), which folds with the built-in "
                     "combiner of Config::combinerOpType; call Combiner() instead");
    flush_deferred();
    by_id_.deliver_sends(engines_, ranks_.transport(), static_cast<int>(conf_.combinerOpType));
    for (auto& e : engines_) e->combine(op);
  }

  // ---- SessionBase ----
  void init_message_buffer(const void* value, const std::type_info& type) override {
    const Message init = message_from_value<Message>(value, type);
    const plan::Step* planned = plan_cursor_.call(PlanCall::fill());
    flush_deferred();
    last_fill_ = init;
    if (pull_fusion_ && plan_defers_fill(planned)) {  // a fused pass writes every slot: the fill waits to see if one follows
      fill_deferred_ = true;
      deferred_fill_ = init;
    } else {
      for (auto& e : engines_) e->init_message_buffer(init);
    }
    message_hop_ = hops_;
  }
  void combine_builtin() override {
    plan_cursor_.call(PlanCall::combiner());
    if (in_edges_.held()) {
      MEDUSA_REQUIRE(!Program::uses.sends_by_id, "an in-edge ELIST functor in a program that sends by vertex id "
                                                 "(sendMsgTo): its pulled Combiner does not fold sends by id yet");
      return in_edges_.run();
    }  // InitMessageBuffer; EMV<ELIST>::Run(in-edges); Combiner()
    if (parts_ > 1 && Program::uses.sends_by_id) flush_deferred();  // (the sends are delivered before the fold)
    if (deferred_push_) {  // InitMessageBuffer; EMV<ELIST>::Run(All); Combiner(): one pass
      const auto fused = std::move(deferred_fused_);
      clear_deferred();
      fused(deferred_fill_);
      ++stats_.fused_passes;
      return;
    }
    visit_builtin_combiner<Message>(conf_.combinerOpType, [this](const auto& op) { this->combine_with(op); });
  }
  std::uint32_t superstep() const override { return superstep_; }
  const Config& config() const override { return conf_; }

  // ---- For the executors ----
  template <ApiKind K, class Element>
  void launch(Domain domain, const Element& element) {
    check_domain(K, domain, Program::uses);
    check_partitioned_adds<K, Element>(parts_);  // (every rank's partitions)
    by_id_.template before_launch<K, Element>(engines_, ranks_.transport(), [this] { flush_deferred(); });
    [[maybe_unused]] const plan::Step* planned = plan_cursor_.call(PlanCall::run(K, domain));
    if constexpr (K == VERTEX && Engine::kFusesVertexIntoGather) {
      if (domain == Domain::All && gather_pending() && plan_joins_vertex(planned)) {  // runs in the fused pass's gather
        return visit_builtin_combiner<Message>(conf_.combinerOpType, [&](const auto& op) {
          dispatch<VERTEX>(domain, [&](Engine& e, const LaunchRange& r) {
            if (e.gather_pending()) e.issue_pending_gather(op, element);  // (over the same vertices)
            else e.template launch<VERTEX>(domain, element, r);
          });
        });
      }
    }
    if constexpr (K == VERTEX && Engine::kBatchesSupersteps) {
      if (domain == Domain::Received && plan_holds_receivers(planned)) {  // may run in the superstep's end
        flush_deferred();
        bool held = true;
        for (auto& e : engines_) held = e->hold_receiver_vertex(element) && held;
        if (held) {
          if (parts_ > 1) fresh_hop_ = vertex_side_limit();  // (as dispatch() would)
          return;
        }
        for (auto& e : engines_) e->issue_held_vertex();  // (held by some partitions only: issued as made)
      }
    }
    const auto push = [this, domain, element] {  // (a copy: a deferred launch outlives the call)
      dispatch<K>(domain, [&](Engine& e, const LaunchRange& r) {
        e.template launch<K>(domain, element, r);
      });
    };
    if constexpr (K == EDGE && Program::uses.combiner_consumes_slots) {
      if (can_defer_edges(domain))
        return defer(push, [element](Engine& e, const auto& op, const Message& fill) {
          if constexpr (may_push_combine<std::decay_t<decltype(op)>, Message>) e.push_fold_edges(element, op, fill);
        });
    }
    flush_deferred();
    push();
  }
  template <class Element>
  void launch_elist_edges(Domain domain, const Element& element) {
    check_domain(ELIST, domain, Program::uses);
    check_partitioned_adds<ELIST, Element>(parts_, ElistForm::PerEdge);
    by_id_.template before_launch<ELIST, Element>(engines_, ranks_.transport(), [this] { flush_deferred(); });
    plan_cursor_.call(PlanCall::run(ELIST, domain));
    const auto push = [this, domain, element] {
      dispatch<ELIST>(domain, [&](Engine& e, const LaunchRange& r) {
        e.launch_elist_edges(domain, element, r);
      });
    };
    if (this->template can_defer<Element>(domain))
      return defer(push, [element, domain](Engine& e, const auto& op, const Message& fill) {
        e.fused_combine(element, op, fill, domain);
      });
    flush_deferred();
    push();
  }
  // An ELIST functor over in-edges (in_edge_pull.h), held until the Combiner() that must follow it.
  template <class Element>
  void launch_elist_in_edges(Domain domain, const Element& element) {
    PendingInEdges::check_launch(domain, parts_ == 1 || Program::uses.in_edges);
    check_partitioned_adds<ELIST, Element>(parts_, ElistForm::InEdges);
    plan_cursor_.call(PlanCall::run(ELIST, domain));
    if (fill_awaits_launch() && Program::uses.combiner_consumes_slots) fill_deferred_ = false;  // (no slot read)
    flush_deferred();
    in_edges_.hold([this, element, fill = last_fill_] {
      if (parts_ > 1) {  // each owned vertex's out-row reads its targets' fields, replicas included
        if (fresh_hop_ == 0) {
          refresh_fields();
          for (std::uint32_t p = 0; p < engines_.size(); ++p) exchange_->wait(p);
        }
        message_hop_ = 0;  // (one hop: the owned vertices have every message)
      }
      visit_builtin_combiner<Message>(conf_.combinerOpType, [&](const auto& op) {
        for (auto& e : engines_) e->pull_in_edges(element, op, fill);
      });
    });
  }
  // Whether InitMessageBuffer + EDGE/ELIST + Combiner runs as one pull pass (pull_fusion.h).
  bool pull_fusion() const { return pull_fusion_; }

  // Statistics of the last Run().
  const RunStats& last_stats() const { return stats_; }
  std::uint32_t partitions() const { return parts_; }
  std::uint32_t replication_hops() const { return hops_; }
  const PartitionPlan& plan() const { return plan_; }
  // Each rank's host bytes of partition layouts, in rank order (empty with one partition).
  const RankGroup::Holdings& holdings() const { return holdings_; }
  Engine& engine(std::uint32_t i) { return *engines_[i]; }  // (i = p in one process)

  std::string report() const {
    std::string r;
    if (parts_ > 1) {
      r += "medusa: partitioned run: " + plan_.describe() + "\n" + ranks_.describe() +
           ranks_.describe_holdings(holdings_, parts_);
      if (!hop_choice_.empty()) r += "medusa: " + hop_choice_ + "\n";
      r += "medusa: refreshed per round: " + exchange_->describe() + "\n";
      if (const std::string by_id = by_id_.describe(); !by_id.empty()) r += "medusa: " + by_id + "\n";
    }
    r += describe_tuning(conf_) + "\n";
    r += "medusa: " + order_.describe() + "\n";
    r += "medusa: " + setup_.describe() + "\n";
    if (Program::uses.messages)
      r += std::string("medusa: Combiner() folds with ") + combiner_op_name(conf_.combinerOpType) + "\n";
    for (const auto& e : engines_) r += e->report();
    return r;
  }

 private:
  // Calls launch(engine, range) on every engine with the ranges fresh replicas allow.
  template <ApiKind K, class Launch>
  void dispatch(Domain, const Launch& launch) {
    if (parts_ == 1) {
      launch(*engines_.front(), LaunchRange::whole(static_cast<VertexId>(shape_.vertices)));
      return;
    }
    const auto each = [&](const auto& range_of) {
      for (std::uint32_t i = 0; i < engines_.size(); ++i) launch(*engines_[i], range_of(layout(i)));
    };
    if constexpr (K == ELIST || K == EDGE) {
      if (fresh_hop_ == 0) {
        refresh_fields();
        // Owned heads read no replica: they run while the copies are in flight.
        each([](const PartitionLayout& l) { return LaunchRange{0, 0, l.owned_count()}; });
        for (std::uint32_t p = 0; p < engines_.size(); ++p) exchange_->wait(p);
        each([&](const PartitionLayout& l) {
          return LaunchRange{0, l.owned_count(), l.vertices_within(fresh_hop_)};
        });
      } else {
        each([&](const PartitionLayout& l) { return LaunchRange{0, 0, l.vertices_within(fresh_hop_)}; });
      }
      message_hop_ = std::min(message_hop_, fresh_hop_ - 1);
    } else if constexpr (K == MESSAGE) {  // every local slot
      each([](const PartitionLayout& l) { return LaunchRange::whole(l.vertex_count()); });
    } else {  // VERTEX, MLIST: vertices whose fields and messages are both current
      const std::uint32_t limit = vertex_side_limit();
      each([&](const PartitionLayout& l) { return LaunchRange{l.vertices_within(limit), 0, 0}; });
      fresh_hop_ = limit;
    }
  }
  // The hops a vertex-side launch runs over on each partition; the vertices beyond fall out of date.
  std::uint32_t vertex_side_limit() const {
    return aggregates_owned_only<Program>() ? 0 : std::min(fresh_hop_, message_hop_);
  }

  template <class Pred>
  bool any_engine(const Pred& pred) const {
    return any_of_engines(engines_, pred);
  }
  template <class Pred>
  bool all_engines(const Pred& pred) const {
    return all_of_engines(engines_, pred);
  }
  // The Config that launches follow: the session's, or one Run's with a source schedule applied.
  friend class ScheduledRun<PartitionedSession>;
  void use_config(const Config& conf) {
    conf_ = conf;
    pull_fusion_ = conf_.pullFusion && all_engines([](const Engine& e) { return e.pull_fusion(); });
    for (auto& e : engines_) {
      // Batches of an engine built for the fused forms rely on them (receiver queues, queued frontiers).
      Tuning run = conf_.tuning;
      if ((e->pull_fusion() && !conf_.pullFusion) || run.pushCombine == Toggle::Off || Program::uses.sends_by_id ||
          (parts_ > 1 && Program::uses.reads_by_id))  // (a mirror refresh is issued between launches, not in a batch)
        run.superstepBatch = SuperstepBatching::Off;
      e->set_run_tuning(run);
    }
  }
  void refresh_fields() {
    stats_.exchange_bytes += exchange_->refresh_fields();
    stats_.exchange_refreshes += 1;
    fresh_hop_ = hops_;
  }

  template <class Iteration>
  RunStats run_guarded(const Iteration& iteration, bool replayable) {
    try {
      if constexpr (Engine::kBatchesSupersteps)
        for (auto& e : engines_) e->begin_run(replayable);
      return run_supersteps(iteration);
    } catch (...) {
      clear_deferred();
      for (auto& e : engines_) e->abandon();
      throw;
    }
  }

  template <class Iteration>
  RunStats run_supersteps(const Iteration& iteration) {
    medusa::detail::CurrentSessionScope scope(this);
    StepStateGuard step_guard;
    stats_ = RunStats{};
    batch_refreshes_ = BatchRefreshCounts{};
    ranks_.reset_timing();
    if (exchange_) exchange_->begin_run();
    const auto start = std::chrono::steady_clock::now();
    if (conf_.maxIteration == 0) stats_.stop_reason = "maxIteration";
    for (std::uint32_t step = 0; conf_.maxIteration != 0; ++step) {
      superstep_ = step;
      if constexpr (Engine::kBatchesSupersteps) {
        if (const std::uint32_t n = batches_.replay_length(step, conf_.maxIteration); n != 0) {
          const auto o = batches_.replay(step, replay_state());
          stats_.batched_supersteps += n;
          stats_.replayed_supersteps += n;
          batch_refreshes_.replayed(stats_);
          step += n - 1;
          if (o->stopped) stats_.replayed_supersteps -= step - o->stop_step;
          if (finish_batch(*o, step, step + 1 >= conf_.maxIteration)) break;
          continue;
        }
      }
      host_votes_.fill(0);
      host_step_ = medusa::detail::StepState{host_votes_.data(), step};
      medusa::detail::bind_host_step_state(&host_step_);
      begin_aggregates<Program>(engines_, step, conf_);
      for (auto& e : engines_) e->begin_superstep(step);
      plan_cursor_.begin_superstep();
      iteration();
      plan_cursor_.end_superstep(stats_);
      // A VERTEX launch the engine held as the superstep's last operation ends the batched superstep
      // (nothing else can be deferred after it: every later call would have issued it).
      if (!vertex_held()) flush_deferred();
      const bool last = step + 1 >= conf_.maxIteration;
      refresh_frontier_flags();
      if constexpr (Engine::kBatchesSupersteps) {
        if (batches_.batching()) {
          ++stats_.batched_supersteps;
          const auto o = batches_.end_superstep(host_votes_, last, replay_state());
          if (!o) continue;  // more of the batch to issue
          batch_refreshes_.read_back(stats_);
          if (finish_batch(*o, step, last)) break;
          continue;
        }
      }
      for (auto& e : engines_) e->finish_superstep();
      request_aggregates<Program>(engines_, conf_);
      StepCounts total;
      total.votes = host_votes_;
      for (auto& e : engines_) total.add(e->collect());
      if constexpr (Engine::kBatchesSupersteps) {
        batches_.start_together(replay_state());
        batch_refreshes_.read_back(stats_);  // (a batch starts from here, or none)
      }
      ranks_.reduce_step(total.votes, total.active_vertices, total.active_edges, step);
      end_aggregates<Program>(engines_, conf_, ranks_);
      check_message_overflow(total.votes.data(), conf_.messagesPerEdge, step, "a functor");
      stats_.supersteps = step + 1;
      if (verbose()) print_superstep(step, total, parts_ > 1);
      const StopDecision d =
          decide_stop(total.votes.data(), step, conf_, Program::uses, total.bucketed_vertices);
      if (d.stop) {
        stats_.stop_reason = d.reason;
        break;
      }
    }
    for (auto& e : engines_) stats_.edges_visited += e->take_edges_visited();
    if constexpr (Engine::kBatchesSupersteps) {
      stats_.queued_supersteps = ~std::uint32_t{0};
      for (auto& e : engines_)
        stats_.queued_supersteps = std::min(stats_.queued_supersteps, e->take_queued_supersteps());
    }
    if constexpr (Engine::kFusesVertexIntoGather)
      for (auto& e : engines_) stats_.source_passes_skipped += e->take_source_prefetches();
    stats_.partitions = parts_;
    stats_.replication_hops = hops_;
    if (parts_ > 1) stats_.replication_factor = plan_.replication_factor();
    if (exchange_) {
      stats_.exchange_seconds = exchange_->transfer_seconds();
      stats_.exchange_sparse_bytes = exchange_->take_sparse_bytes();  // (counted on the devices)
      stats_.exchange_bytes += stats_.exchange_sparse_bytes;
    }
    stats_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ranks_.combine_stats(stats_);
    if (verbose()) print_run(stats_, plan_cursor_.describe(stats_), exchange_ != nullptr);
    return stats_;
  }

  // The session's host state that its launches depend on besides the iteration and the engines'
  // (PartitionBatches: a recorded batch replays only when it repeats): the replica freshness.
  std::uint64_t replay_state() const { return (std::uint64_t{fresh_hop_} << 32) | message_hop_; }
  // The owners' SetActive flags of this superstep, copied to their replicas before the frontiers
  // are promoted (in a batch too: the copies are steps of the batched superstep). Replicated fields
  // that a vertex-side launch left stale go with them, in the same packs and copies, instead of in a
  // refresh of their own at the next edge-side launch: nothing runs between the two. (At the last
  // superstep that refresh is one that nothing reads.)
  void refresh_frontier_flags() {
    if (!exchange_) return;
    // A VERTEX launch held for the superstep's end sets flags that the refresh copies: each
    // partition issues it now, joined with the part of the end that needs no other partition.
    if constexpr (Engine::kBatchesSupersteps)
      for (auto& e : engines_) e->join_held_vertex_before_exchange();
    if (!Program::uses.vertex_frontier) return;
    if (fresh_hop_ < hops_ && refreshes_fields_with_flags()) {
      stats_.exchange_bytes += exchange_->refresh_fields_and_flags();
      fresh_hop_ = hops_;
    } else {
      stats_.exchange_bytes += exchange_->refresh_flags();
    }
    stats_.exchange_refreshes += 1;
    for (std::uint32_t p = 0; p < engines_.size(); ++p) exchange_->wait(p);
  }

  // Whether the superstep's end refreshes stale fields with the flags: one hop (a vertex frontier
  // keeps programs to one anyway: multi_hop.h), and no reads by id (their mirrors refresh apart).
  bool refreshes_fields_with_flags() const { return hops_ == 1 && !Program::uses.reads_by_id; }

  // After a batch's read-back (the engine's superstep_batch.cuh) issued with superstep `step`: the
  // supersteps it completed, and whether the run stops.
  template <class Outcome>
  bool finish_batch(const Outcome& o, std::uint32_t step, bool last) {
    if (!o.stopped) {
      stats_.supersteps = step + 1;
      if (last) stats_.stop_reason = "maxIteration";
      return last;
    }
    stats_.supersteps = o.stop_step + 1;
    stats_.batched_supersteps -= step - o.stop_step;  // (the batch's supersteps after the stop did nothing)
    std::array<int, kVoteSlots> votes{};
    votes[kVoteTooManyMessages] = o.too_many_messages ? 1 : 0;
    check_message_overflow(votes.data(), conf_.messagesPerEdge, o.stop_step, "a functor");
    stats_.stop_reason = o.stop_reason;
    return true;
  }

  void use_hops(std::uint32_t hops) {
    hops_ = hops;
    conf_.replicationHops = hops_;  // (the engines' choice of fused forms depends on it)
    fresh_hop_ = hops_;
    message_hop_ = hops_;
  }

  SetupClock setup_;  // (first: it starts with the constructor)
  Config conf_;
  RankGroup ranks_;           // this process, or the MPI job's ranks
  std::uint32_t parts_ = 1;   // partitions over every rank
  PartitionPlan plan_;  // every partition's sizes and routes, the local graphs of this rank's only
  RankGroup::Holdings holdings_;
  GraphShape shape_;  // who holds the user's graph; the whole graph's counts
  VertexOrderChoice order_;  // of the whole graph, or of each partition's owned vertices
  std::string hop_choice_;
  std::vector<std::unique_ptr<Engine>> engines_;
  PartitionBatches<Engine> batches_{engines_};  // (kBatchesSupersteps)
  BatchRefreshCounts batch_refreshes_;
  std::unique_ptr<Exchange> exchange_;
  ByIdExchange<Program, Engine> by_id_;  // reads and sends by vertex id across partitions
  bool pull_fusion_ = false;
  PendingInEdges in_edges_;
  PlanCursor plan_cursor_;  // the registered plan of the Run's function, call by call
  Message last_fill_{};  // of the last InitMessageBuffer
  std::uint32_t hops_ = 1, fresh_hop_ = 1, message_hop_ = 1;
  std::uint32_t superstep_ = 0;
  std::array<int, kVoteSlots> host_votes_{};
  medusa::detail::StepState host_step_{nullptr, 0};  // (this session's: detail::host_step_state)
  RunStats stats_;
};

}  // namespace medusa::common

#include <medusa/backend/common/session_exec.h>
