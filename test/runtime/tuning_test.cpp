// Tuning: the schedule settings resolved once from Config, then the MEDUSA_* environment; a source
// schedule (schedule.h) fills what both left at auto.
#include <medusa/config.h>
#include <medusa/error.h>
#include <medusa/schedule.h>
#include <medusa/tuning.h>

#include "support/scoped_env.h"

#include <catch2/catch.hpp>

#include <string>

TEST_CASE("resolve_tuning keeps Config's choices when the environment sets nothing", "[runtime]") {
  const medusa_test::ScopedEnv combiner("MEDUSA_COMBINER", nullptr), order("MEDUSA_VERTEX_ORDER", nullptr);
  medusa::Config conf;
  conf.vertexOrder = medusa::VertexOrder::Degree;
  conf.tuning.combiner = medusa::CombinerStrategy::Warp;
  const medusa::Config r = medusa::resolve_tuning(conf);
  CHECK(r.vertexOrder == medusa::VertexOrder::Degree);
  CHECK(r.tuning.combiner == medusa::CombinerStrategy::Warp);
  CHECK(r.tuning.frontierPull == medusa::FrontierPull::Auto);
}

TEST_CASE("resolve_tuning: the environment overrides Config", "[runtime]") {
  const medusa_test::ScopedEnv combiner("MEDUSA_COMBINER", "cub"), order("MEDUSA_VERTEX_ORDER", "input"),
      fusion("MEDUSA_PULL_FUSION", "off"), loads("MEDUSA_GATHER_LOADS", "plain"), batch("MEDUSA_SUPERSTEP_BATCH", ""),
      sparse("MEDUSA_SPARSE_REFRESH", "off");
  medusa::Config conf;
  conf.vertexOrder = medusa::VertexOrder::Degree;
  const medusa::Config r = medusa::resolve_tuning(conf);
  CHECK(r.tuning.combiner == medusa::CombinerStrategy::Cub);
  CHECK(r.vertexOrder == medusa::VertexOrder::Input);
  CHECK_FALSE(r.pullFusion);
  CHECK(r.tuning.gatherLoadsAhead == medusa::Toggle::Off);
  CHECK(r.tuning.sparseRefresh == medusa::Toggle::Off);
  CHECK(r.tuning.superstepBatch == medusa::SuperstepBatching::Auto);  // empty: unset
  const std::string d = medusa::describe_tuning(r);
  CHECK(d.find("MEDUSA_COMBINER=cub (environment)") != std::string::npos);
  CHECK(d.find("MEDUSA_FRONTIER_PULL=auto") != std::string::npos);
  CHECK(d.find("MEDUSA_FRONTIER_PULL=auto (environment)") == std::string::npos);
}

TEST_CASE("resolve_tuning rejects a value it does not know and names the allowed ones", "[runtime]") {
  const medusa_test::ScopedEnv combiner("MEDUSA_COMBINER", "grup4");
  CHECK_THROWS_WITH(medusa::resolve_tuning(medusa::Config{}),
                    Catch::Contains("MEDUSA_COMBINER=grup4 is not a value Medusa knows; use one of: auto, "
                                    "group4, warp, cub"));
}

TEST_CASE("MEDUSA_DEPENDENT_LAUNCH is on unless set to off, and checked like the others", "[runtime]") {
  {
    const medusa_test::ScopedEnv launch("MEDUSA_DEPENDENT_LAUNCH", nullptr);
    CHECK(medusa::dependent_launch_from_env());
  }
  {
    const medusa_test::ScopedEnv launch("MEDUSA_DEPENDENT_LAUNCH", "off");
    CHECK_FALSE(medusa::dependent_launch_from_env());
  }
  const medusa_test::ScopedEnv launch("MEDUSA_DEPENDENT_LAUNCH", "no");
  CHECK_THROWS_WITH(medusa::dependent_launch_from_env(), Catch::Contains("use one of: on, off"));
}

TEST_CASE("apply_schedule: a source schedule fills only what Config and the environment left at auto",
          "[runtime]") {
  const medusa_test::ScopedEnv pull("MEDUSA_FRONTIER_PULL", nullptr), fusion("MEDUSA_PULL_FUSION", nullptr),
      vertex("MEDUSA_VERTEX_FUSION", "on"), batch("MEDUSA_SUPERSTEP_BATCH", nullptr), end("MEDUSA_END_FUSION", nullptr);
  medusa::Config conf;
  conf.tuning.superstepBatch = medusa::SuperstepBatching::Always;  // Config's choice stands
  const medusa::Config resolved = medusa::resolve_tuning(conf);
  const medusa::Schedule schedule =
      medusa::Schedule{}.push().no_gather_fusion().no_vertex_fusion().no_batching().no_end_fusion();
  const medusa::Config run = medusa::apply_schedule(resolved, schedule);
  CHECK(run.tuning.frontierPull == medusa::FrontierPull::Never);
  CHECK_FALSE(run.pullFusion);
  CHECK(run.tuning.endFusion == medusa::Toggle::Off);
  CHECK(run.tuning.vertexFusion == medusa::Toggle::On);                  // the environment's
  CHECK(run.tuning.superstepBatch == medusa::SuperstepBatching::Always);  // Config's
  CHECK(run.tuning.pushCombine == medusa::Toggle::Auto);                  // the schedule left it
  const std::string d = medusa::describe_tuning(run, &resolved, "bfs.cpp:42");
  CHECK(d.find("MEDUSA_FRONTIER_PULL=never (source bfs.cpp:42)") != std::string::npos);
  CHECK(d.find("MEDUSA_PULL_FUSION=off (source bfs.cpp:42)") != std::string::npos);
  CHECK(d.find("MEDUSA_VERTEX_FUSION=on (environment)") != std::string::npos);
  CHECK(d.find("MEDUSA_SUPERSTEP_BATCH=always (Config)") != std::string::npos);
  CHECK(d.find("MEDUSA_PUSH_COMBINE=auto") != std::string::npos);
}

TEST_CASE("Schedule: each call names one setting, in a constant", "[runtime]") {
  constexpr medusa::Schedule s = medusa::Schedule{}.pull().no_source_prefetch().batching();
  static_assert(s.frontierPull == medusa::FrontierPull::Always);
  static_assert(s.sourcePrefetch == medusa::Toggle::Off);
  static_assert(s.superstepBatch == medusa::SuperstepBatching::Always);
  static_assert(s.vertexFusion == medusa::Toggle::Auto && s.gatherFusion == medusa::Toggle::Auto);
  CHECK(medusa::Schedule{}.push().pull().frontierPull == medusa::FrontierPull::Always);  // the last call wins
}
