// ScheduleFold: a schedule set in the source, folded into a plan made without it.
#include "medusa-cc/ScheduleFold.h"

#include <catch2/catch.hpp>

using namespace medusa::cc;

namespace {
SuperstepPlan sssp_plan() {
  SuperstepPlan p;
  p.function = "SSSP";
  p.steps = {{"InitMessageBuffer + EMV<EDGE>::Run(Relax) + Combiner()", "push-combine", "no slot is read after it"},
             {"EMV<VERTEX>::Run(Update)", "launch", "one thread per element"}};
  p.run_time = {"vertex order: by degree"};
  return p;
}
ScheduleInfo at_line_9() {
  ScheduleInfo s;
  s.function = "SSSP";
  s.where = "sssp.cpp:9";
  return s;
}
}  // namespace

TEST_CASE("a schedule's settings are spelled as the calls that make them", "[frontend]") {
  ScheduleInfo s = at_line_9();
  s.frontier_pull = 2;
  s.superstep_batch = 2;
  s.vertex_fusion = 2;
  CHECK(scheduleSettings(s) == "push(), no_vertex_fusion(), no_batching()");
  CHECK(scheduleExpression(s) == "medusa::Schedule{}.push().no_vertex_fusion().no_batching()");
  CHECK(scheduleExpression(at_line_9()) == "medusa::Schedule{}");
}

TEST_CASE("a folded setting becomes the reason of the step it changes", "[frontend]") {
  const ProgramModel model;
  SuperstepPlan plan = sssp_plan();
  ScheduleInfo s = at_line_9();
  s.push_combine = 2;  // no_push_combine()
  s.superstep_batch = 2;
  CHECK(foldSchedule(plan, s, model).empty());
  CHECK(plan.steps[0].form == "three launches: fill, the pass, Combiner()");
  CHECK(plan.steps[0].why == "set in the source (sssp.cpp:9): no_push_combine()");
  CHECK(plan.steps[1].why == "one thread per element");  // untouched
  CHECK(plan.run_time.back() == "batches: none: set in the source (sssp.cpp:9): no_batching()");
  CHECK(plan.schedule == "set in the source (sssp.cpp:9): no_push_combine(), no_batching()");
}

TEST_CASE("a setting the plan cannot honour is an error, one that changes nothing a warning", "[frontend]") {
  const ProgramModel model;
  SuperstepPlan plan = sssp_plan();
  plan.steps[0].form = "push-combine under MEDUSA_MIN / MEDUSA_MAX, else three passes";
  ScheduleInfo s = at_line_9();
  s.push_combine = 1;   // push_combine(): the operator is not proven min / max
  s.end_fusion = 2;     // no_end_fusion(): no VERTEX launch over Received
  const std::vector<ScheduleIssue> issues = foldSchedule(plan, s, model);
  REQUIRE(issues.size() == 2);
  CHECK(issues[0].error);
  CHECK(issues[0].message.find("push_combine() cannot push under this program's Combiner()") == 0);
  CHECK_FALSE(issues[1].error);
  CHECK(issues[1].message.find("no_end_fusion() changes nothing") == 0);
}
