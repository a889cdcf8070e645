// Tuning: the schedule settings resolved once from Config, then the MEDUSA_* environment.
#include <medusa/config.h>
#include <medusa/error.h>
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
      fusion("MEDUSA_PULL_FUSION", "off"), loads("MEDUSA_GATHER_LOADS", "plain"), batch("MEDUSA_SUPERSTEP_BATCH", "");
  medusa::Config conf;
  conf.vertexOrder = medusa::VertexOrder::Degree;
  const medusa::Config r = medusa::resolve_tuning(conf);
  CHECK(r.tuning.combiner == medusa::CombinerStrategy::Cub);
  CHECK(r.vertexOrder == medusa::VertexOrder::Input);
  CHECK_FALSE(r.pullFusion);
  CHECK(r.tuning.gatherLoadsAhead == medusa::Toggle::Off);
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
