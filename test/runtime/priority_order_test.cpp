// SetActive(priority) in a program that is not SSSP: every vertex asks, in superstep 0, to run again
// with its own priority, and records the superstep it ran in. The lowest bucket (priority / delta)
// must run first, one bucket per superstep, and the run must not stop while a bucket waits (no
// Continue vote after superstep 0). Backend-neutral: both engines must take the same buckets.
#define MEDUSA_GENERATED 1
#include <medusa/medusa.h>

#include "support/emv_launch.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <set>
#include <vector>

namespace priority_order_test {

struct Vertex {
  unsigned long long priority = 0;
  unsigned ran_at = UINT_MAX;  // the superstep after 0 in which it ran
};
struct Edge {};

}  // namespace priority_order_test

template <>
struct medusa::ProgramTraits<priority_order_test::Vertex, priority_order_test::Edge> {
  using Vertex = priority_order_test::Vertex;
  using Edge = priority_order_test::Edge;
  using Message = unsigned;
  struct VertexArrays {
    unsigned long long* priority;
    unsigned* ran_at;
  };
  struct EdgeArrays {};
  static constexpr std::array<medusa::FieldSpec, 2> vertex_fields{{
      {"priority", offsetof(Vertex, priority), sizeof(unsigned long long), medusa::kUpload},
      {"ran_at", offsetof(Vertex, ran_at), sizeof(unsigned), medusa::kUpload | medusa::kDownload}}};
  static constexpr std::array<medusa::FieldSpec, 0> edge_fields{};
  static VertexArrays bind_vertex(void* const* a) {
    return {static_cast<unsigned long long*>(a[0]), static_cast<unsigned*>(a[1])};
  }
  static EdgeArrays bind_edge(void* const*) { return {}; }
  static constexpr medusa::ProgramUses uses = medusa::ProgramUses::of(
      medusa::kUsesContinueVote | medusa::kUsesVertexFrontier | medusa::kUsesPriorities);
};

namespace priority_order_test {
using Program = medusa::ProgramTraits<Vertex, Edge>;
using Ctx = medusa::KernelCtx<unsigned>;

namespace medusa_gen_Schedule {
struct VertexH : medusa::VertexHandle<unsigned> {
  const unsigned long long& priority;
  unsigned& ran_at;
};
struct Schedule {
  MEDUSA_HD void operator()(VertexH& v) const {
    if (medusa::Superstep() == 0) {
      v.SetActive(v.priority);
      medusa::Continue();
    } else {
      v.ran_at = medusa::Superstep();
    }
  }
};
struct Schedule_element {
  Schedule f;
  MEDUSA_HD void operator()(const Ctx& c, const Program::VertexArrays& va, const Program::EdgeArrays&,
                            medusa::VertexId id) const {
    VertexH v{{&c, id}, va.priority[id], va.ran_at[id]};
    f(v);
  }
};
}  // namespace medusa_gen_Schedule
using Schedule = medusa_gen_Schedule::Schedule;
}  // namespace priority_order_test

MEDUSA_TEST_EMV_LAUNCH(priority_order_test::Schedule, VERTEX,
                       priority_order_test::medusa_gen_Schedule::Schedule_element, priority_order_test::Program)

namespace priority_order_test {

void schedule_step() { medusa::EMV<medusa::VERTEX>::Run(Schedule{}, medusa::Active); }

constexpr medusa::VertexId kVertices = 64;
// Scattered priorities with repeats, 0 (the first bucket) and ~0 (the last one, given no number).
unsigned long long priority_of(medusa::VertexId v) {
  if (v == 5) return ~0ull;
  return (v * 37ull) % 50;
}

struct Outcome {
  std::vector<unsigned> ran_at;
  std::uint32_t supersteps = 0, batched_supersteps = 0;
};
Outcome run(std::uint64_t delta, std::uint32_t partitions = 1,
            medusa::SuperstepBatching batching = medusa::SuperstepBatching::Auto) {
  medusa::Graph<Vertex, Edge> graph(kVertices);
  std::vector<medusa::VertexId> src, dst;
  for (medusa::VertexId v = 0; v < kVertices; ++v) src.push_back(v), dst.push_back((v + 1) % kVertices);
  graph.SetEdges(src, dst);  // (a ring: mean out-degree 1)
  for (medusa::VertexId v = 0; v < kVertices; ++v) {
    graph.vertex(v).priority = priority_of(v);
    graph.SetActive(v);
  }
  medusa::Config conf;
  conf.priorityDelta = delta;
  conf.gpuCount = partitions;
  conf.partitionsPerGpu = partitions;  // (one GPU is enough)
  conf.tuning.superstepBatch = batching;
  auto device = medusa::Init_Device_DS(graph, conf);
  Outcome out;
  const medusa::RunStats stats = device.Run(&schedule_step);
  out.supersteps = stats.supersteps;
  out.batched_supersteps = stats.batched_supersteps;
  device.Dump_Result(graph);
  for (medusa::VertexId v = 0; v < kVertices; ++v) out.ran_at.push_back(graph.vertex(v).ran_at);
  return out;
}

// The superstep each vertex must run in: 1 + the rank of its bucket among the non-empty ones.
std::vector<unsigned> expected_ran_at(std::uint64_t delta) {
  const auto bucket = [&](medusa::VertexId v) {
    const unsigned long long p = priority_of(v) == ~0ull ? ~0ull - 1 : priority_of(v);
    return p / delta;
  };
  std::set<unsigned long long> buckets;
  for (medusa::VertexId v = 0; v < kVertices; ++v) buckets.insert(bucket(v));
  std::vector<unsigned> ran;
  for (medusa::VertexId v = 0; v < kVertices; ++v)
    ran.push_back(1 + static_cast<unsigned>(std::distance(buckets.begin(), buckets.find(bucket(v)))));
  return ran;
}

}  // namespace priority_order_test

TEST_CASE("SetActive(priority) runs the lowest bucket first, one bucket per superstep, until none waits",
          "[runtime][priorities]") {
  using namespace priority_order_test;
  // Auto: 32 x the mean of the non-zero finite priorities given in superstep 0 / mean degree 1.
  double sum = 0;
  int given = 0;
  for (medusa::VertexId v = 0; v < kVertices; ++v)
    if (priority_of(v) != 0 && priority_of(v) != ~0ull) sum += static_cast<double>(priority_of(v)), ++given;
  const auto auto_delta = static_cast<std::uint64_t>(std::llround(32.0 * (sum / given)));
  for (std::uint64_t delta : {std::uint64_t{1}, std::uint64_t{7}, std::uint64_t{0}}) {
    INFO("delta " << delta);
    const std::uint64_t width = delta == 0 ? auto_delta : delta;
#if defined(MEDUSA_BACKEND_HOST)
    const std::vector<unsigned> expected = expected_ran_at(width);
#else  // the CUDA engine orders by bucket only with a delta set: auto is one bucket there
    const std::vector<unsigned> expected =
        delta == 0 ? std::vector<unsigned>(kVertices, 1u) : expected_ran_at(width);
#endif
    const Outcome got = run(delta);
    CHECK(got.ran_at == expected);
    CHECK(got.supersteps == 1 + *std::max_element(expected.begin(), expected.end()));
  }
}

TEST_CASE("SetActive(priority) in a partitioned run is one bucket: every vertex runs in superstep 1",
          "[runtime][priorities]") {
  using namespace priority_order_test;
  const Outcome got = run(/*delta=*/1, /*partitions=*/2);
  CHECK(got.ran_at == std::vector<unsigned>(kVertices, 1u));
  CHECK(got.supersteps == 2);
}

// Batches of supersteps (CUDA; the host engine has none): every superstep after 0 splits the far pile
// (nothing is activated), and the device stop rule must not stop while buckets hold vertices.
TEST_CASE("SetActive(priority) in batches of supersteps takes the same buckets", "[runtime][priorities]") {
  using namespace priority_order_test;
  for (std::uint64_t delta : {std::uint64_t{1}, std::uint64_t{7}}) {
    INFO("delta " << delta);
    const std::vector<unsigned> expected = expected_ran_at(delta);
    const Outcome got = run(delta, 1, medusa::SuperstepBatching::Always);
    CHECK(got.ran_at == expected);
    CHECK(got.supersteps == 1 + *std::max_element(expected.begin(), expected.end()));
#if !defined(MEDUSA_BACKEND_HOST)
    CHECK(got.batched_supersteps > 0);
#endif
  }
}
