// The superstep plan of an iteration function as data the runtime executes
// (docs/design/superstep-plan.md). medusa-cc emits one constant array of steps per iteration
// function, after the plan's comment, and registers it once, at static initialization:
//
//   static constexpr medusa::plan::Step medusa_plan_steps_BFS[] = {
//       {medusa::plan::Form::FrontierPass, medusa::ELIST, medusa::plan::Over::Active},  // 1.
//       {medusa::plan::Form::ReceiverVertex, medusa::VERTEX, medusa::plan::Over::Received},  // 2.
//   };
//   static const bool medusa_plan_of_BFS = medusa::detail::register_plan(
//       &::BFS, medusa::plan::IterationPlan{"BFS", medusa_plan_steps_BFS, 2});
//
// Device::Run(BFS) then takes its fusion decisions from the step of each call
// (backend/common/plan_cursor.h); the choices that depend on the data (frontier direction) stay
// run-time choices, and a superstep whose calls depart from the plan falls back to the run-time
// rules. Without a registered plan (hand-written programs, lambdas) the run-time rules decide.
#pragma once

#include <medusa/types.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>

namespace medusa::plan {

// The form a step gives the operations it covers (their calls: plan_cursor.h, calls_of).
enum class Form : std::uint8_t {
  Fill,            // InitMessageBuffer as its own launch: every slot filled
  Launch,          // EMV<K>::Run as its own launch
  Combine,         // Combiner(): the built-in operator's segmented reduction
  CombineWith,     // Combiner(op): a user-defined operator
  PullGather,      // InitMessageBuffer + ELIST over all + Combiner(): one pull pass
  FrontierPass,    // the same over Active: one pass, pulled or pushed by frontier density (run time)
  PushCombine,     // InitMessageBuffer + EDGE over all + Combiner(): folded into the combined values
  Unfused,         // InitMessageBuffer + a pass + Combiner() as three launches (a source schedule)
  InEdgePull,      // InitMessageBuffer + ELIST over an InEdgeList + Combiner()
  JoinedVertex,    // VERTEX over all, joined to the gather before it (CUDA)
  ReceiverVertex,  // VERTEX over Received, in the superstep's end when batched (CUDA)
  AsCalled,        // operations under branches or loops: the run-time rules decide
  AggregateFold,   // the global aggregates' fold: no call of its own
};

// The domain of a step's EMV<K>::Run; Any when the source does not fix it.
enum class Over : std::uint8_t { All, Active, Received, Any };

struct Step {
  Form form;
  ApiKind kind;  // of the step's EMV<K>::Run (VERTEX for steps without one)
  Over over;
};

struct IterationPlan {
  const char* function;  // as the source spells it ("BFS", "ns::Step")
  const Step* steps;
  std::size_t count;
};

inline const char* form_name(Form f) {
  switch (f) {
    case Form::Fill: return "fill";
    case Form::Launch: return "launch";
    case Form::Combine: return "Combiner()";
    case Form::CombineWith: return "Combiner(op)";
    case Form::PullGather: return "pull gather";
    case Form::FrontierPass: return "frontier pass (direction at run time)";
    case Form::PushCombine: return "push-combine";
    case Form::Unfused: return "three launches";
    case Form::InEdgePull: return "in-edge pull";
    case Form::JoinedVertex: return "VERTEX joined to the gather";
    case Form::ReceiverVertex: return "VERTEX over the receivers";
    case Form::AsCalled: return "issued as called";
    case Form::AggregateFold: return "aggregate fold";
  }
  return "?";
}

}  // namespace medusa::plan

namespace medusa::detail {

using PlannedFunction = void (*)();

class RegisteredPlans {
 public:
  static RegisteredPlans& instance() {
    static RegisteredPlans registry;
    return registry;
  }
  void add(PlannedFunction f, const plan::IterationPlan& p) {
    const std::lock_guard<std::mutex> lock(mutex_);
    plans_[f] = p;
  }
  const plan::IterationPlan* find(PlannedFunction f) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto at = plans_.find(f);
    return at == plans_.end() ? nullptr : &at->second;  // (entries are never erased)
  }

 private:
  mutable std::mutex mutex_;
  std::map<PlannedFunction, plan::IterationPlan> plans_;
};

inline bool register_plan(PlannedFunction f, const plan::IterationPlan& p) {
  if (f != nullptr) RegisteredPlans::instance().add(f, p);
  return true;
}
// The registered plan of `f`, or nullptr.
inline const plan::IterationPlan* plan_of(PlannedFunction f) {
  return f == nullptr ? nullptr : RegisteredPlans::instance().find(f);
}

}  // namespace medusa::detail
