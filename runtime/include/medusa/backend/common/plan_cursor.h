// Follows a registered superstep plan (medusa/plan.h) through the calls of one superstep: each
// Medusa call of the iteration function is matched against the plan's next call, and the session
// takes its fusion decisions from the step that call belongs to. A call that is not the plan's
// next one (the function branched differently at run time), or a superstep that ends before the
// plan does, departs: the rest of that superstep falls back to the run-time rules
// (partitioned_session.h's deferred-call peephole), and RunStats::plan_departures counts it.
#pragma once

#include <medusa/config.h>
#include <medusa/plan.h>
#include <medusa/types.h>

#include <cstdint>
#include <cstdio>
#include <string>

namespace medusa::common {

// One Medusa call as the iteration function issues it.
struct PlanCall {
  enum class Op : std::uint8_t { InitMessageBuffer, Run, Combiner, CombinerWith };
  Op op;
  ApiKind kind = VERTEX;  // Run only
  Domain domain = Domain::All;

  static PlanCall fill() { return {Op::InitMessageBuffer}; }
  static PlanCall run(ApiKind k, Domain d) { return {Op::Run, k, d}; }
  static PlanCall combiner() { return {Op::Combiner}; }
  static PlanCall combiner_with() { return {Op::CombinerWith}; }
};

// How many calls a step covers, and its i-th.
inline std::uint32_t calls_of(const plan::Step& s) {
  switch (s.form) {
    case plan::Form::PullGather:
    case plan::Form::FrontierPass:
    case plan::Form::PushCombine:
    case plan::Form::Unfused:
    case plan::Form::InEdgePull: return 3;
    case plan::Form::AsCalled:
    case plan::Form::AggregateFold: return 0;
    default: return 1;
  }
}
inline PlanCall call_of(const plan::Step& s, std::uint32_t i) {
  switch (s.form) {
    case plan::Form::Fill: return PlanCall::fill();
    case plan::Form::Combine: return PlanCall::combiner();
    case plan::Form::CombineWith: return PlanCall::combiner_with();
    default: break;
  }
  const PlanCall run{PlanCall::Op::Run, s.kind, Domain::All};
  if (calls_of(s) == 1) return run;
  return i == 0 ? PlanCall::fill() : i == 1 ? run : PlanCall::combiner();
}
inline bool matches(const PlanCall& planned, plan::Over over, const PlanCall& c) {
  if (planned.op != c.op) return false;
  if (c.op != PlanCall::Op::Run) return true;
  if (planned.kind != c.kind) return false;
  switch (over) {
    case plan::Over::All: return c.domain == Domain::All;
    case plan::Over::Active: return c.domain == Domain::Active;
    case plan::Over::Received: return c.domain == Domain::Received;
    case plan::Over::Any: return true;
  }
  return false;
}

class PlanCursor {
 public:
  // A Run of a function with plan `p` (nullptr: none registered, the run-time rules decide).
  void begin_run(const plan::IterationPlan* p) {
    plan_ = p;
    issued_as_called_ = false;
    if (p != nullptr)
      for (std::size_t i = 0; i < p->count; ++i) issued_as_called_ |= p->steps[i].form == plan::Form::AsCalled;
  }
  void end_run() { plan_ = nullptr; }
  // Whether the session follows a plan in this Run (a plan with branches is issued as called).
  bool following() const { return plan_ != nullptr && !issued_as_called_; }

  void begin_superstep() {
    step_ = 0;
    call_ = 0;
    departed_ = !following();
    if (!departed_) skip_callless();
  }
  // The plan's step of call `c`, or nullptr where the run-time rules decide (no plan, departed).
  const plan::Step* call(const PlanCall& c) {
    if (departed_) return nullptr;
    if (step_ == plan_->count || !matches(call_of(plan_->steps[step_], call_), plan_->steps[step_].over, c)) {
      depart();
      return nullptr;
    }
    const plan::Step* s = &plan_->steps[step_];
    if (++call_ == calls_of(*s)) {
      ++step_;
      call_ = 0;
      skip_callless();
    }
    return s;
  }
  // The superstep's last call was issued; counts it as followed or departed.
  void end_superstep(RunStats& stats) {
    if (!following()) return;
    if (!departed_ && step_ != plan_->count) depart();
    if (departed_) ++stats.plan_departures;
    else ++stats.plan_supersteps;
  }

  // For Config::verbose after a Run.
  std::string describe(const RunStats& stats) const {
    if (plan_ == nullptr) return "";
    std::string r = std::string("medusa: plan of ") + plan_->function + ": ";
    if (issued_as_called_) return r + "issued as called (its operations are under branches or loops)";
    return r + "followed in " + std::to_string(stats.plan_supersteps) + " issued supersteps, departed from in " +
           std::to_string(stats.plan_departures) + " (those fell back to the run-time rules)";
  }

 private:
  void skip_callless() {
    while (step_ < plan_->count && calls_of(plan_->steps[step_]) == 0) ++step_;
  }
  void depart() { departed_ = true; }

  const plan::IterationPlan* plan_ = nullptr;
  bool issued_as_called_ = false;
  std::size_t step_ = 0;   // the step of the next call
  std::uint32_t call_ = 0;  // that call's position within its step
  bool departed_ = true;
};

// The decisions the session takes from a step (`s` nullptr: the run-time rules decide alone).
// InitMessageBuffer waits for a fused pass: the plan fuses it with the launch and Combiner after it.
inline bool plan_defers_fill(const plan::Step* s) {
  return s == nullptr || s->form == plan::Form::PullGather || s->form == plan::Form::FrontierPass ||
         s->form == plan::Form::PushCombine || s->form == plan::Form::InEdgePull;
}
// A VERTEX launch over all joins a pending gather.
inline bool plan_joins_vertex(const plan::Step* s) { return s == nullptr || s->form == plan::Form::JoinedVertex; }
// A VERTEX launch over the receivers may be held for the superstep's end.
inline bool plan_holds_receivers(const plan::Step* s) {
  return s == nullptr || s->form == plan::Form::ReceiverVertex;
}

}  // namespace medusa::common
