// Schedule settings written in the program, apart from the algorithm (in the spirit of GraphIt's
// schedules): a constant medusa::Schedule per iteration function, e.g.
//
//   // ---- Schedule
//   MEDUSA_SCHEDULE(BFS, medusa::Schedule{}.push().no_batching());
//
// medusa-cc reads it as a constant, folds it into the function's superstep plan (each step it
// changes says "set in the source (file:line)") and rejects a setting that would be wrong. The
// generated code registers it; Device::Run(BFS) then runs with it as that Run's tuning, for the
// settings that Config::tuning and the environment left at auto (docs/medusa-cc.md, docs/tuning.md).
// Compiled without medusa-cc, MEDUSA_SCHEDULE only declares a constant.
#pragma once

#include <medusa/tuning.h>

#include <string>

namespace medusa {

struct Config;

// Every setting starts at Auto (Medusa's own choice); each call names one choice.
struct Schedule {
  FrontierPull frontierPull = FrontierPull::Auto;  // frontier passes: pull() / push()
  Toggle gatherFusion = Toggle::Auto;          // InitMessageBuffer + ELIST + Combiner() as one pass
  Toggle pushCombine = Toggle::Auto;           // InitMessageBuffer + EDGE + Combiner() as one pass
  Toggle vertexFusion = Toggle::Auto;          // a VERTEX launch joined to the gather before it
  Toggle sourcePrefetch = Toggle::Auto;        // next superstep's source messages in that VERTEX step
  SuperstepBatching superstepBatch = SuperstepBatching::Auto;  // no_batching() / batching()
  Toggle endFusion = Toggle::Auto;             // a VERTEX launch over receivers in the superstep's end

  // Frontier passes (an ELIST over Domain::Active) pulled over every in-edge, or pushed over the
  // frontier's out-edges, in every superstep (instead of by frontier size).
  constexpr Schedule pull() const { Schedule s = *this; s.frontierPull = FrontierPull::Always; return s; }
  constexpr Schedule push() const { Schedule s = *this; s.frontierPull = FrontierPull::Never; return s; }
  // Fusions switched off: each operation as its own launch.
  constexpr Schedule no_gather_fusion() const { Schedule s = *this; s.gatherFusion = Toggle::Off; return s; }
  constexpr Schedule no_push_combine() const { Schedule s = *this; s.pushCombine = Toggle::Off; return s; }
  constexpr Schedule no_vertex_fusion() const { Schedule s = *this; s.vertexFusion = Toggle::Off; return s; }
  constexpr Schedule no_source_prefetch() const { Schedule s = *this; s.sourcePrefetch = Toggle::Off; return s; }
  constexpr Schedule no_end_fusion() const { Schedule s = *this; s.endFusion = Toggle::Off; return s; }
  // Fusions required: medusa-cc rejects the schedule unless its analyses allow the fused form.
  constexpr Schedule push_combine() const { Schedule s = *this; s.pushCombine = Toggle::On; return s; }
  constexpr Schedule vertex_fusion() const { Schedule s = *this; s.vertexFusion = Toggle::On; return s; }
  // Also on graphs with many edges per vertex, where Auto does not prefetch.
  constexpr Schedule source_prefetch() const { Schedule s = *this; s.sourcePrefetch = Toggle::On; return s; }
  // Sparse supersteps issued in batches: never, or every superstep that can be (from the second).
  constexpr Schedule no_batching() const { Schedule s = *this; s.superstepBatch = SuperstepBatching::Off; return s; }
  constexpr Schedule batching() const { Schedule s = *this; s.superstepBatch = SuperstepBatching::Always; return s; }
};

// What MEDUSA_SCHEDULE declares: the function and its schedule, a constant medusa-cc reads.
struct ScheduleOf {
  void (*function)();
  Schedule schedule;
};

#define MEDUSA_SCHEDULE_CONCAT_(a, b) a##b
#define MEDUSA_SCHEDULE_NAME_(line) MEDUSA_SCHEDULE_CONCAT_(medusa_schedule_at_line_, line)
// MEDUSA_SCHEDULE(IterationFunction, medusa::Schedule{}.pull()...): at namespace scope.
#define MEDUSA_SCHEDULE(function, ...) \
  [[maybe_unused]] static constexpr ::medusa::ScheduleOf MEDUSA_SCHEDULE_NAME_(__LINE__){&function, __VA_ARGS__}

// The Config one Run uses: `conf` (resolved: Config, then the environment) with each setting of
// `schedule` applied where `conf` left it at auto and the environment did not set it.
Config apply_schedule(const Config& conf, const Schedule& schedule);

namespace detail {

using ScheduledFunction = void (*)();

struct RegisteredSchedule {
  Schedule schedule;
  std::string where;  // "bfs.cpp:42", the MEDUSA_SCHEDULE line
};

// Generated code registers each schedule medusa-cc accepted, once, at static initialization:
//   static const bool medusa_schedule_BFS =
//       medusa::detail::register_schedule(&::BFS, medusa::Schedule{}.push(), "bfs.cpp:42");
bool register_schedule(ScheduledFunction function, const Schedule& schedule, const char* where);
// The registered schedule of `function`, or nullptr.
const RegisteredSchedule* schedule_of(ScheduledFunction function);

}  // namespace detail
}  // namespace medusa
