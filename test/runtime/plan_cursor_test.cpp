// PlanCursor (backend/common/plan_cursor.h): how the calls of one superstep are matched against a
// registered plan, without a session.
#include <medusa/backend/common/plan_cursor.h>

#include <catch2/catch.hpp>

namespace {
using medusa::common::PlanCall;
using medusa::common::PlanCursor;
using medusa::plan::Form;
using medusa::plan::Over;

// BFS-Q: the frontier pass, then Visit over the receivers; the aggregate fold has no call.
constexpr medusa::plan::Step kBfs[] = {{Form::FrontierPass, medusa::ELIST, Over::Active},
                                       {Form::ReceiverVertex, medusa::VERTEX, Over::Received},
                                       {Form::AggregateFold, medusa::VERTEX, Over::All}};
constexpr medusa::plan::IterationPlan kBfsPlan{"BFS", kBfs, 3};

void bfs_calls(PlanCursor& c, medusa::Domain expand_over) {
  CHECK(c.call(PlanCall::fill()) == &kBfs[0]);
  c.call(PlanCall::run(medusa::ELIST, expand_over));
  c.call(PlanCall::combiner());
  c.call(PlanCall::run(medusa::VERTEX, medusa::Domain::Received));
}
}  // namespace

TEST_CASE("PlanCursor follows a plan call by call and counts the supersteps that depart", "[runtime][plan]") {
  PlanCursor c;
  medusa::RunStats stats;
  c.begin_run(&kBfsPlan);
  REQUIRE(c.following());
  c.begin_superstep();
  bfs_calls(c, medusa::Domain::Active);
  c.end_superstep(stats);
  CHECK(stats.plan_supersteps == 1);
  CHECK(stats.plan_departures == 0);

  c.begin_superstep();  // ELIST over All where the plan has Active: the rest is the run-time rules'
  CHECK(c.call(PlanCall::fill()) == &kBfs[0]);
  CHECK(c.call(PlanCall::run(medusa::ELIST, medusa::Domain::All)) == nullptr);
  CHECK(c.call(PlanCall::combiner()) == nullptr);
  c.end_superstep(stats);
  CHECK(stats.plan_departures == 1);

  c.begin_superstep();  // a superstep that stops before the plan's last call departs too
  CHECK(c.call(PlanCall::fill()) == &kBfs[0]);
  c.end_superstep(stats);
  CHECK(stats.plan_departures == 2);

  c.begin_superstep();  // a call past the plan's end
  bfs_calls(c, medusa::Domain::Active);
  CHECK(c.call(PlanCall::combiner()) == nullptr);
  c.end_superstep(stats);
  CHECK(stats.plan_departures == 3);
  CHECK(stats.plan_supersteps == 1);
}

TEST_CASE("PlanCursor leaves plans with branches, and Runs without a plan, to the run-time rules", "[runtime][plan]") {
  constexpr medusa::plan::Step branchy[] = {{Form::PullGather, medusa::ELIST, Over::Any},
                                            {Form::AsCalled, medusa::VERTEX, Over::All}};
  const medusa::plan::IterationPlan plan{"Step", branchy, 2};
  PlanCursor c;
  medusa::RunStats stats;
  for (const medusa::plan::IterationPlan* p : {&plan, static_cast<const medusa::plan::IterationPlan*>(nullptr)}) {
    c.begin_run(p);
    CHECK_FALSE(c.following());
    c.begin_superstep();
    CHECK(c.call(PlanCall::fill()) == nullptr);
    c.end_superstep(stats);
  }
  CHECK(stats.plan_supersteps + stats.plan_departures == 0);
  CHECK(c.describe(stats).empty());  // (no plan in the last Run)
  c.begin_run(&plan);
  CHECK(c.describe(stats) == "medusa: plan of Step: issued as called (its operations are under branches or loops)");
}

TEST_CASE("A plan step over Any matches a Run over every domain", "[runtime][plan]") {
  constexpr medusa::plan::Step any[] = {{Form::Launch, medusa::EDGE, Over::Any}};
  const medusa::plan::IterationPlan plan{"F", any, 1};
  PlanCursor c;
  c.begin_run(&plan);
  for (medusa::Domain d : {medusa::Domain::All, medusa::Domain::Active}) {
    c.begin_superstep();
    CHECK(c.call(PlanCall::run(medusa::EDGE, d)) == &any[0]);
  }
  c.begin_superstep();
  CHECK(c.call(PlanCall::run(medusa::ELIST, medusa::Domain::All)) == nullptr);
}
