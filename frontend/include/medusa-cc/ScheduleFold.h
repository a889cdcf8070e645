// Folds a schedule set in the source (MEDUSA_SCHEDULE: runtime/include/medusa/schedule.h) into
// the superstep plan of its function: each step it changes gets the form the runtime will give it
// and "set in the source (file:line): setting" as its reason. A setting the plan cannot honour
// (a fusion the analyses did not prove, pulls of a frontier pass that is not fused, batches of a
// program with an edge frontier, ...) is an error; one that changes nothing is a warning.
#pragma once

#include "medusa-cc/ProgramModel.h"

#include <string>
#include <vector>

namespace medusa::cc {

struct ScheduleIssue {
  bool error = true;
  std::string message;  // what is wrong and what to do, without the function's name
};

// The spelling of a schedule's settings: "pull(), no_vertex_fusion()".
std::string scheduleSettings(const ScheduleInfo& schedule);
// The C++ expression of a schedule: "medusa::Schedule{}.pull().no_vertex_fusion()".
std::string scheduleExpression(const ScheduleInfo& schedule);

// `plan` (made without a schedule) with `schedule` folded in; the issues it raises.
std::vector<ScheduleIssue> foldSchedule(SuperstepPlan& plan, const ScheduleInfo& schedule, const ProgramModel& model);

}  // namespace medusa::cc
