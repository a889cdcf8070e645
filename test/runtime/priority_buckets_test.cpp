// The bucket logic of SetActive(priority) on the host (host/priority_buckets.h): the lowest bucket
// runs first, deferred vertices run later, a vertex keeps its lowest priority, and a superstep
// without a Continue vote does not end the run while vertices wait (stop_decision.h); the delta
// setting (Config::priorityDelta, MEDUSA_PRIORITY_DELTA).
#include <medusa/backend/common/priorities.h>
#include <medusa/backend/common/stop_decision.h>
#include <medusa/backend/host/priority_buckets.h>
#include <medusa/config.h>
#include <medusa/device_api.h>
#include <medusa/program.h>
#include <medusa/tuning.h>

#include "support/scoped_env.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace {

using medusa::VertexId;
using medusa::host::PriorityBuckets;

// SetActive(priority) on each (vertex, priority), as a functor would during a superstep.
std::vector<VertexId> activate(PriorityBuckets& b, const std::vector<std::pair<VertexId, std::uint64_t>>& calls) {
  std::vector<VertexId> flagged;
  for (const auto& [v, p] : calls) {
    medusa::detail::priority_min(&b.next_priorities()[v], p);
    flagged.push_back(v);
  }
  std::sort(flagged.begin(), flagged.end());
  flagged.erase(std::unique(flagged.begin(), flagged.end()), flagged.end());
  return flagged;
}

}  // namespace

TEST_CASE("priority buckets: the lowest bucket runs first and deferred vertices run later", "[runtime][priorities]") {
  PriorityBuckets b;
  b.allocate(8, /*delta=*/10, 1.0);
  std::vector<VertexId> current;
  b.promote(activate(b, {{1, 25}, {2, 3}, {3, 17}, {4, 9}}), current);
  CHECK(current == std::vector<VertexId>{2, 4});  // bucket 0: priorities 0..9
  CHECK(b.bucket() == 0);
  CHECK(b.deferred() == 2);

  // Nothing new: the deferred bucket 1 must still run, then bucket 2, then nothing.
  b.promote({}, current);
  CHECK(current == std::vector<VertexId>{3});
  CHECK(b.bucket() == 1);
  b.promote({}, current);
  CHECK(current == std::vector<VertexId>{1});
  CHECK(b.bucket() == 2);
  CHECK(b.deferred() == 0);
  b.promote({}, current);
  CHECK(current.empty());
  CHECK(b.bucket() == PriorityBuckets::kNone);
}

TEST_CASE("priority buckets: a vertex activated again keeps its lowest priority, once", "[runtime][priorities]") {
  PriorityBuckets b;
  b.allocate(8, /*delta=*/10, 1.0);
  std::vector<VertexId> current;
  b.promote(activate(b, {{0, 0}, {5, 45}, {6, 38}}), current);
  CHECK(current == std::vector<VertexId>{0});
  // 5 moves down to bucket 1 (its entry in bucket 4 goes stale); 6 given a higher one stays in 3.
  b.promote(activate(b, {{5, 12}, {6, 51}, {5, 14}}), current);
  CHECK(current == std::vector<VertexId>{5});
  CHECK(b.bucket() == 1);
  CHECK(b.deferred() == 1);
  b.promote({}, current);
  CHECK(current == std::vector<VertexId>{6});
  CHECK(b.bucket() == 3);
  b.promote({}, current);  // 5's stale entry in bucket 4 does not run it again
  CHECK(current.empty());
  CHECK(b.deferred() == 0);
}

TEST_CASE("priority buckets: a lower bucket activated later runs before deferred higher ones", "[runtime][priorities]") {
  PriorityBuckets b;
  b.allocate(8, /*delta=*/1, 1.0);
  std::vector<VertexId> current;
  b.promote(activate(b, {{1, 5}, {2, 7}}), current);
  CHECK(current == std::vector<VertexId>{1});
  b.promote(activate(b, {{3, 2}}), current);
  CHECK(current == std::vector<VertexId>{3});
  b.promote({}, current);
  CHECK(current == std::vector<VertexId>{2});
}

TEST_CASE("priority buckets: a huge delta is one bucket, and auto picks from the first priorities", "[runtime][priorities]") {
  std::vector<VertexId> current;
  PriorityBuckets one;
  one.allocate(8, ~std::uint64_t{0} - 1, 1.0);
  one.promote(activate(one, {{1, 1}, {2, 1000000}, {3, ~std::uint64_t{0} - 2}}), current);
  CHECK(current == std::vector<VertexId>{1, 2, 3});

  PriorityBuckets automatic;
  automatic.allocate(8, /*delta=auto*/ 0, /*mean out-degree=*/4.0);
  automatic.promote(activate(automatic, {{1, 0}}), current);  // all 0: not chosen yet
  CHECK(automatic.delta() == 0);
  CHECK(current == std::vector<VertexId>{1});
  automatic.promote(activate(automatic, {{2, 10}, {3, 30}}), current);
  CHECK(automatic.delta() == 160);  // 32 x mean 20 / degree 4
  CHECK(current == std::vector<VertexId>{2, 3});
}

TEST_CASE("the auto delta is the same for any order of the first priorities, past 64 bits of sum",
          "[runtime][priorities]") {
  using medusa::common::PrioritySum;
  using medusa::common::auto_priority_delta;
  CHECK(auto_priority_delta(PrioritySum{}, 4.0) == 0);  // nothing given yet: not chosen
  // The CUDA engine adds them by atomics in any order: the sum is exact, so the delta is the same.
  const std::vector<std::uint64_t> given{(1ull << 63) + 5, 3, (1ull << 63) + 1, 7, 1ull << 62};
  PrioritySum forward, backward;
  for (std::uint64_t p : given) forward.add(p);
  for (auto it = given.rbegin(); it != given.rend(); ++it) backward.add(*it);
  CHECK(forward.high == 1);  // (carried past 64 bits)
  CHECK(forward.low == backward.low);
  CHECK(forward.high == backward.high);
  CHECK(auto_priority_delta(forward, 2.0) == 1000000000000000000ull);  // (capped at 10^18)
  PrioritySum small;
  small.add(10);
  small.add(30);
  CHECK(auto_priority_delta(small, 4.0) == 160);  // 32 x mean 20 / degree 4
  CHECK(auto_priority_delta(small, 0.0) == 640);  // (no edges: degree 1)
  PrioritySum tiny;
  tiny.add(1);
  CHECK(auto_priority_delta(tiny, 1000.0) == 1);  // (never 0)
}

TEST_CASE("a superstep without a Continue vote ends the run only when no bucket holds a vertex", "[runtime][priorities]") {
  medusa::Config conf;
  const auto uses = medusa::ProgramUses::of(medusa::kUsesContinueVote | medusa::kUsesVertexFrontier |
                                            medusa::kUsesPriorities);
  int no_votes[medusa::kVoteSlots] = {0, 0, 0};
  CHECK(medusa::common::decide_stop(no_votes, 3, conf, uses, /*bucketed=*/0).stop);
  CHECK_FALSE(medusa::common::decide_stop(no_votes, 3, conf, uses, /*bucketed=*/5).stop);
  int halt[medusa::kVoteSlots] = {0, 1, 0};
  CHECK(medusa::common::decide_stop(halt, 3, conf, uses, /*bucketed=*/5).stop);  // Halt still halts
  conf.maxIteration = 4;
  CHECK(medusa::common::decide_stop(no_votes, 3, conf, uses, /*bucketed=*/5).stop);
}

TEST_CASE("MEDUSA_PRIORITY_DELTA overrides Config::priorityDelta: auto or a positive integer", "[runtime][priorities]") {
  medusa::Config conf;
  conf.priorityDelta = 64;
  {
    const medusa_test::ScopedEnv delta("MEDUSA_PRIORITY_DELTA", nullptr);
    CHECK(medusa::resolve_tuning(conf).priorityDelta == 64);
    CHECK(medusa::describe_tuning(conf).find("MEDUSA_PRIORITY_DELTA=64 (Config)") != std::string::npos);
  }
  {
    const medusa_test::ScopedEnv delta("MEDUSA_PRIORITY_DELTA", "1000");
    CHECK(medusa::resolve_tuning(conf).priorityDelta == 1000);
  }
  {
    const medusa_test::ScopedEnv delta("MEDUSA_PRIORITY_DELTA", "auto");
    CHECK(medusa::resolve_tuning(conf).priorityDelta == 0);
  }
  for (const char* bad : {"0", "-3", "12x", "far"}) {
    const medusa_test::ScopedEnv delta("MEDUSA_PRIORITY_DELTA", bad);
    CHECK_THROWS_WITH(medusa::resolve_tuning(conf),
                      Catch::Contains(std::string("MEDUSA_PRIORITY_DELTA=") + bad +
                                      " is not a value Medusa knows; use auto or a positive integer"));
  }
}
