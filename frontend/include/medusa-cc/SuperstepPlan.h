// The superstep plan of each iteration function: which form the runtime gives each of its Medusa
// operations (pull gather, push-combine, VERTEX joined to the pass before it, ...), and why, from
// medusa-cc's analyses. --emit-model shows it as "superstep_plans"; the generated code carries it
// as a comment (docs/design/superstep-plan.md). The rules are those the runtime applies to one
// partition; choices that depend on the data are listed as run-time choices.
#pragma once

#include "medusa-cc/ProgramModel.h"
#include "medusa-cc/ScheduleFold.h"

#include <map>
#include <string>
#include <vector>

namespace medusa::cc {

// One plan per entry of model.iterations. `edge_parallel`: ELIST functors with an independent
// edge loop get edge-parallel elements (medusa-cc's --no-edge-parallel turns them off).
// model.schedules are folded in (ScheduleFold.h); `issues`, when given, gets what they raise, by
// function.
std::vector<SuperstepPlan> planSupersteps(const ProgramModel& model, bool edge_parallel,
                                          std::vector<std::pair<std::string, ScheduleIssue>>* issues = nullptr);

// The plan as comment lines ("// ..."), for the generated code.
std::string planComment(const SuperstepPlan& plan);

// The values of the iteration_plan template: the plan as the constexpr medusa::plan::Step array
// that the runtime runs (runtime/include/medusa/plan.h).
std::map<std::string, std::string> planCode(const SuperstepPlan& plan);

}  // namespace medusa::cc
