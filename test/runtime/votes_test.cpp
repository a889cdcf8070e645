// Iteration control: Continue() and Halt() votes, maxIteration and Superstep(). Backend-neutral.
#define MEDUSA_GENERATED 1
#include <medusa/medusa.h>
#include <medusa/backend/common/partition_votes.h>

#include "support/emv_launch.h"
#include "support/scoped_env.h"

#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace votes_test {
struct Vertex {
  int until = 0;    // vote Continue() while Superstep() < until; Halt() at -until when negative
  int last = -1;    // the last superstep this vertex saw
  int visits = 0;
};
struct Edge {};
}  // namespace votes_test

template <>
struct medusa::ProgramTraits<votes_test::Vertex, votes_test::Edge> {
  using Vertex = votes_test::Vertex;
  using Edge = votes_test::Edge;
  using Message = int;
  struct VertexArrays {
    int* until;
    int* last;
    int* visits;
  };
  struct EdgeArrays {};
  static constexpr std::array<medusa::FieldSpec, 3> vertex_fields{{
      {"until", offsetof(Vertex, until), sizeof(int), medusa::kUpload},
      {"last", offsetof(Vertex, last), sizeof(int), medusa::kUpload | medusa::kDownload},
      {"visits", offsetof(Vertex, visits), sizeof(int), medusa::kUpload | medusa::kDownload},
  }};
  static constexpr std::array<medusa::FieldSpec, 0> edge_fields{};
  static VertexArrays bind_vertex(void* const* a) {
    return {static_cast<int*>(a[0]), static_cast<int*>(a[1]), static_cast<int*>(a[2])};
  }
  static EdgeArrays bind_edge(void* const*) { return {}; }
  static constexpr medusa::ProgramUses uses =
      medusa::ProgramUses::of(medusa::kUsesContinueVote | medusa::kUsesHaltVote);
};

namespace votes_test {
using Program = medusa::ProgramTraits<Vertex, Edge>;
using Ctx = medusa::KernelCtx<int>;

struct VertexProxy : medusa::VertexHandle<int> {
  const int& until;
  int& last;
  int& visits;
};
struct Vote {
  MEDUSA_HD void operator()(VertexProxy& v) const {
    const int s = static_cast<int>(medusa::Superstep());
    v.last = s;
    v.visits = v.visits + 1;
    if (v.until >= 0 && s < v.until) medusa::Continue();
    if (v.until < 0) {
      medusa::Continue();
      if (s == -v.until) medusa::Halt();
    }
  }
};
struct Vote_element {
  Vote f;
  MEDUSA_HD void operator()(const Ctx& c, const Program::VertexArrays& va,
                            const Program::EdgeArrays&, medusa::VertexId id) const {
    VertexProxy v{{&c, id}, va.until[id], va.last[id], va.visits[id]};
    f(v);
  }
};
}  // namespace votes_test

MEDUSA_TEST_EMV_LAUNCH(votes_test::Vote, VERTEX, votes_test::Vote_element, votes_test::Program)

using namespace votes_test;

namespace {
medusa::Graph<Vertex, Edge> make_graph(const std::vector<int>& until) {
  medusa::Graph<Vertex, Edge> g(static_cast<medusa::VertexId>(until.size()));
  for (std::size_t v = 0; v < until.size(); ++v) g.vertex(static_cast<medusa::VertexId>(v)).until = until[v];
  return g;
}
void iteration() { medusa::EMV<medusa::VERTEX>::Run(Vote{}); }
// The same iteration, registered as medusa-cc registers a straight line of operations: the CUDA
// backend may replay recorded batches of its supersteps without calling it.
void replayable_iteration() { medusa::EMV<medusa::VERTEX>::Run(Vote{}); }
const bool replayable_registered = medusa::detail::register_replayable_iteration(&replayable_iteration);
}  // namespace

TEST_CASE("Continue(): the run ends after the first superstep without a vote", "[runtime]") {
  auto g = make_graph({2, 5, 3, 0});
  auto device = medusa::Init_Device_DS(g);
  const medusa::RunStats stats = device.Run(iteration);  // a plain function, as in the paper
  CHECK(stats.supersteps == 6);  // superstep 5: nobody votes
  CHECK(stats.stop_reason == "no continue vote");
  CHECK(stats.seconds >= 0.0);
  device.Dump_Result(g);
  for (medusa::VertexId v = 0; v < 4; ++v) {
    CHECK(g.vertex(v).last == 5);
    CHECK(g.vertex(v).visits == 6);
  }
}

TEST_CASE("Halt(): one vote stops the run after that superstep", "[runtime]") {
  auto g = make_graph({100, -3, 100});
  auto device = medusa::Init_Device_DS(g);
  const auto stats = device.Run(iteration);
  CHECK(stats.supersteps == 4);
  CHECK(stats.stop_reason == "halt vote");
  device.Dump_Result(g);
  CHECK(g.vertex(2).last == 3);
}

TEST_CASE("maxIteration bounds the supersteps", "[runtime]") {
  auto g = make_graph({100, 100});
  medusa::Config conf;
  conf.maxIteration = 7;
  auto device = medusa::Init_Device_DS(g, conf);
  const auto stats = device.Run(&iteration);
  CHECK(stats.supersteps == 7);
  CHECK(stats.stop_reason == "maxIteration");
  device.Dump_Result(g);
  CHECK(g.vertex(0).visits == 7);
  // A second Run starts again from superstep 0 on the device data left by the first.
  const auto again = device.Run(iteration);
  CHECK(again.supersteps == 7);
  device.Dump_Result(g);
  CHECK(g.vertex(1).visits == 14);
  CHECK(g.vertex(1).last == 6);

  medusa::Config none;
  none.maxIteration = 0;
  auto idle = medusa::Init_Device_DS(g, none);
  CHECK(idle.Run(iteration).supersteps == 0);
}

namespace {
// Runs `iteration` once on make_graph(until) and downloads the results.
struct VoteRun {
  medusa::RunStats stats;
  std::vector<Vertex> vertices;
};
VoteRun run_votes(const std::vector<int>& until, const medusa::Config& conf = {},
                  void (*step)() = iteration) {
  auto g = make_graph(until);
  auto device = medusa::Init_Device_DS(g, conf);
  VoteRun r{device.Run(step), {}};
  device.Dump_Result(g);
  for (medusa::VertexId v = 0; v < g.vertex_count(); ++v) r.vertices.push_back(g.vertex(v));
  return r;
}
}  // namespace

TEST_CASE("Votes and maxIteration stop a long run exactly where they fall, batched or not", "[runtime]") {
  // Dozens of supersteps without a frontier: the CUDA backend issues them in batches of 16 after
  // the first few, so the stops below fall inside a batch, whose later supersteps must do nothing.
  const medusa_test::ScopedEnv batch("MEDUSA_SUPERSTEP_BATCH", nullptr), pull("MEDUSA_FRONTIER_PULL", nullptr);
  SECTION("Halt()") {
    const VoteRun r = run_votes({1000, -40});
    CHECK(r.stats.supersteps == 41);
    CHECK(r.stats.stop_reason == "halt vote");
    CHECK(r.vertices[0].last == 40);
    CHECK(r.vertices[0].visits == 41);
#if !defined(MEDUSA_BACKEND_HOST)
    CHECK(r.stats.batched_supersteps > 16);
#endif
    CHECK(r.stats.batched_supersteps <= r.stats.supersteps);
  }
  SECTION("no Continue()") {
    const VoteRun r = run_votes({37, 20});
    CHECK(r.stats.supersteps == 38);
    CHECK(r.stats.stop_reason == "no continue vote");
    CHECK(r.vertices[1].visits == 38);
  }
  SECTION("maxIteration, twice") {
    auto g = make_graph({1000});
    medusa::Config conf;
    conf.maxIteration = 30;
    auto device = medusa::Init_Device_DS(g, conf);
    CHECK(device.Run(iteration).supersteps == 30);
    const auto again = device.Run(iteration);  // a second run starts unbatched, from superstep 0
    CHECK(again.supersteps == 30);
    CHECK(again.stop_reason == "maxIteration");
    device.Dump_Result(g);
    CHECK(g.vertex(0).visits == 60);
    CHECK(g.vertex(0).last == 29);
  }
}

TEST_CASE("Votes and maxIteration stop a replayed run exactly where they fall", "[runtime]") {
  // Hundreds of supersteps of a registered iteration: after two batches that record the same
  // launches, the CUDA backend replays the recording, and the stops below fall inside a replay.
  REQUIRE(replayable_registered);
  const medusa_test::ScopedEnv batch("MEDUSA_SUPERSTEP_BATCH", nullptr), pull("MEDUSA_FRONTIER_PULL", nullptr),
      replay("MEDUSA_BATCH_REPLAY", nullptr);
  SECTION("Halt()") {
    const VoteRun r = run_votes({1000, -203}, {}, replayable_iteration);
    CHECK(r.stats.supersteps == 204);
    CHECK(r.stats.stop_reason == "halt vote");
    CHECK(r.vertices[0].last == 203);
    CHECK(r.vertices[0].visits == 204);
#if !defined(MEDUSA_BACKEND_HOST)
    CHECK(r.stats.replayed_supersteps > 100);
#endif
    CHECK(r.stats.replayed_supersteps <= r.stats.batched_supersteps);
    CHECK(r.stats.batched_supersteps <= r.stats.supersteps);
  }
  SECTION("no Continue()") {
    const VoteRun r = run_votes({250, 20}, {}, replayable_iteration);
    CHECK(r.stats.supersteps == 251);
    CHECK(r.stats.stop_reason == "no continue vote");
    CHECK(r.vertices[1].visits == 251);
    CHECK(r.vertices[1].last == 250);
    CHECK(r.stats.replayed_supersteps <= r.stats.batched_supersteps);
  }
  SECTION("maxIteration, twice") {
    auto g = make_graph({1000});
    medusa::Config conf;
    conf.maxIteration = 301;
    auto device = medusa::Init_Device_DS(g, conf);
    const auto first = device.Run(replayable_iteration);
    CHECK(first.supersteps == 301);
    CHECK(first.stop_reason == "maxIteration");
    const auto again = device.Run(replayable_iteration);  // starts again from superstep 0
    CHECK(again.supersteps == 301);
    CHECK(again.stop_reason == "maxIteration");
#if !defined(MEDUSA_BACKEND_HOST)
    CHECK(again.replayed_supersteps > 200);
#endif
    device.Dump_Result(g);
    CHECK(g.vertex(0).visits == 602);
    CHECK(g.vertex(0).last == 300);
  }
}

TEST_CASE("The stop rule ORs every partition's votes with the host's", "[runtime]") {
  // partition_votes.h: what the end of a batched superstep applies on the device to k partitions.
  std::array<int, medusa::kVoteSlots> emptied{}, busy{}, halting{}, none{};
  busy[medusa::kVoteContinue] = 1;
  halting[medusa::kVoteContinue] = 1;
  halting[medusa::kVoteHalt] = 1;
  const auto stop = [&](std::vector<const int*> parts, const std::array<int, medusa::kVoteSlots>& host) {
    std::vector<const volatile int*> votes(parts.begin(), parts.end());
    return medusa::common::partitioned_vote_stop(votes.data(), static_cast<unsigned>(votes.size()), host.data(),
                                                 /*continue_vote=*/true);
  };
  using medusa::common::VoteStop;
  // One partition's frontier emptied (no Continue() there), the other's did not: the run goes on.
  CHECK(stop({emptied.data(), busy.data()}, none).stop == VoteStop::None);
  CHECK(stop({busy.data(), emptied.data()}, none).stop == VoteStop::None);
  CHECK_FALSE(stop({emptied.data(), busy.data()}, none).stops());
  CHECK(stop({emptied.data(), emptied.data()}, none).stop == VoteStop::NoContinue);
  CHECK(stop({emptied.data(), emptied.data()}, busy).stop == VoteStop::None);  // Continue() on the host
  // One Halt() stops them all; an overflow anywhere stops them too.
  CHECK(stop({busy.data(), busy.data(), halting.data()}, none).stop == VoteStop::Halt);
  std::array<int, medusa::kVoteSlots> overflowed = busy;
  overflowed[medusa::kVoteTooManyMessages] = 1;
  CHECK(stop({busy.data(), overflowed.data()}, none).too_many_messages);
  CHECK(stop({busy.data(), overflowed.data()}, none).stops());
}

TEST_CASE("Partitions stop at the same superstep whether batched or not", "[runtime]") {
  // One vertex votes Continue() long after the others: whichever partition holds it, the others run
  // out of votes of their own at superstep 5 and must go on. On the CUDA backend these supersteps
  // run in batches, whose ends apply the stop rule to every partition's votes at once.
  const medusa_test::ScopedEnv batch("MEDUSA_SUPERSTEP_BATCH", nullptr), pull("MEDUSA_FRONTIER_PULL", nullptr);
  for (const int parts : {2, 4}) {
    CAPTURE(parts);
    medusa::Config conf;
    conf.gpuCount = parts;
    conf.partitionsPerGpu = parts;  // one GPU is enough on the CUDA backend
    const VoteRun r = run_votes({5, 5, 5, 5, 5, 5, 5, 53}, conf);  // no Continue() on most partitions
    CHECK(r.stats.supersteps == 54);
    CHECK(r.stats.stop_reason == "no continue vote");
    for (const Vertex& v : r.vertices) {
      CHECK(v.visits == 54);
      CHECK(v.last == 53);
    }
#if !defined(MEDUSA_BACKEND_HOST)
    CHECK(r.stats.batched_supersteps > 16);
#endif
    const VoteRun h = run_votes({1000, 1000, 1000, 1000, 1000, 1000, 1000, -45}, conf);  // Halt() on one
    CHECK(h.stats.supersteps == 46);
    CHECK(h.stats.stop_reason == "halt vote");
    for (const Vertex& v : h.vertices) CHECK(v.visits == 46);
  }
}

TEST_CASE("Superstep() is 0 outside a run and Run restores the step state",
          "[runtime]") {
  CHECK(medusa::Superstep() == 0);
  auto g = make_graph({1});
  auto device = medusa::Init_Device_DS(g);
  CHECK(device.Run(iteration).supersteps == 2);
  CHECK(medusa::Superstep() == 0);  // the step state is restored after Run
}

TEST_CASE("Active and Received domains need the frontier / receiver tracking the program declared",
          "[runtime]") {
  auto g = make_graph({1, 2});
  auto device = medusa::Init_Device_DS(g);
  CHECK_THROWS_WITH(device.Run([] { medusa::EMV<medusa::VERTEX>::Run(Vote{}, medusa::Active); }),
                    Catch::Contains("vertex_frontier"));
  CHECK_THROWS_WITH(device.Run([] { medusa::EMV<medusa::VERTEX>::Run(Vote{}, medusa::Received); }),
                    Catch::Contains("ProgramUses::received"));
}

TEST_CASE("verbose mode reports the session and each superstep", "[runtime]") {
  auto g = make_graph({3});
  medusa::Config conf;
  conf.verbose = true;
  conf.gpuCount = 4;          // partitions
  conf.partitionsPerGpu = 4;  // one GPU is enough on the CUDA backend
  auto device = medusa::Init_Device_DS(g, conf);
  CHECK(device.Run(iteration).supersteps == 4);
  const std::string report = device.report();
#if defined(MEDUSA_BACKEND_HOST)
  CHECK(report.find("host backend") != std::string::npos);
#else
  CHECK(report.find("CUDA session") != std::string::npos);
#endif
  CHECK(report.find("partitioned run: 4 partitions") != std::string::npos);
  CHECK(report.find("medusa: tuning: MEDUSA_VERTEX_ORDER=auto") != std::string::npos);
}

TEST_CASE("Init_Device_DS stops at a schedule variable it does not know, naming the allowed values",
          "[runtime]") {
  const medusa_test::ScopedEnv bad("MEDUSA_FRONTIER_PULL", "sometimes");
  auto g = make_graph({1});
  CHECK_THROWS_WITH(medusa::Init_Device_DS(g), Catch::Contains("use one of: auto, always, never"));
}
