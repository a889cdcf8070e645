// Global aggregates (medusa/aggregate.h), as medusa-cc emits them, written by hand.
// Backend-neutral.
#define MEDUSA_GENERATED 1
#include <medusa/medusa.h>

#include "support/emv_launch.h"
#include "support/test_graphs.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

// ---- A program with aggregates: every superstep each vertex adds its value and increments it.
namespace aggregate_test {
struct Vertex {
  int value = 0;
  int seen = -1;  // total.value() as the vertex saw it in the last superstep
};
struct Edge {};
struct AbsMax {
  MEDUSA_HD float operator()(const float& a, const float& b) const { return std::fabs(a) < std::fabs(b) ? b : a; }
};
medusa::Aggregate<int, medusa::MEDUSA_SUM> total;
medusa::Aggregate<long long, medusa::MEDUSA_MIN> low;
medusa::CustomAggregate<float, AbsMax> widest{0.0f};
// Composes maps t -> a t + b (mod 2^32; a in the high word): associative but not commutative, so
// its value shows the order of the folds (a user's operator must commute; this one is a probe).
struct ThenApply {
  MEDUSA_HD unsigned long long operator()(const unsigned long long& p, const unsigned long long& q) const {
    const auto pa = static_cast<std::uint32_t>(p >> 32), pb = static_cast<std::uint32_t>(p);
    const auto qa = static_cast<std::uint32_t>(q >> 32), qb = static_cast<std::uint32_t>(q);
    return static_cast<unsigned long long>(qa * pa) << 32 | static_cast<std::uint32_t>(qa * pb + qb);
  }
};
inline constexpr unsigned long long kIdentityMap = 1ULL << 32;
MEDUSA_HD inline unsigned long long map_of(int value) {
  return static_cast<unsigned long long>(2u * static_cast<std::uint32_t>(value) + 1u) << 32 |
         static_cast<std::uint32_t>(value + 7);
}
medusa::CustomAggregate<unsigned long long, ThenApply> sequence{kIdentityMap};
}  // namespace aggregate_test

template <>
struct medusa::ProgramTraits<aggregate_test::Vertex, aggregate_test::Edge> {
  using Vertex = aggregate_test::Vertex;
  using Edge = aggregate_test::Edge;
  using Message = int;
  struct VertexArrays {
    int* value;
    int* seen;
  };
  struct EdgeArrays {};
  static constexpr std::array<medusa::FieldSpec, 2> vertex_fields{{
      {"value", offsetof(Vertex, value), sizeof(int), medusa::kUpload | medusa::kDownload},
      {"seen", offsetof(Vertex, seen), sizeof(int), medusa::kDownload},
  }};
  static constexpr std::array<medusa::FieldSpec, 0> edge_fields{};
  static VertexArrays bind_vertex(void* const* a) { return {static_cast<int*>(a[0]), static_cast<int*>(a[1])}; }
  static EdgeArrays bind_edge(void* const*) { return {}; }
  static constexpr medusa::ProgramUses uses = medusa::ProgramUses::of(medusa::kUsesNothing);
};

namespace aggregate_test {
using Program = medusa::ProgramTraits<Vertex, Edge>;
using Ctx = medusa::KernelCtx<int>;
namespace gen {
struct VertexProxy : medusa::VertexHandle<int> {
  int& value;
  int& seen;
};
static constexpr medusa::AggregateRefOf<decltype(::aggregate_test::total), 0> total{};
static constexpr medusa::AggregateRefOf<decltype(::aggregate_test::low), 1> low{};
static constexpr medusa::AggregateRefOf<decltype(::aggregate_test::widest), 2> widest{};
static constexpr medusa::AggregateRefOf<decltype(::aggregate_test::sequence), 3> sequence{};
struct Count {
  MEDUSA_HD void operator()(VertexProxy& v) const {
    v.seen = total.value();
    total.add(v.value);
    low.add(v.value);
    widest.add(-static_cast<float>(v.value));
    sequence.add(map_of(v.value));
    v.value = v.value + 1;
  }
};
struct Count_element {
  using medusa_aggregates_added =
      medusa::AddedAggregates<decltype(total), decltype(low), decltype(widest), decltype(sequence)>;
  Count f;
  MEDUSA_HD void operator()(const Ctx& c, const Program::VertexArrays& va, const Program::EdgeArrays&,
                            medusa::VertexId id) const {
    VertexProxy v{{&c, id}, va.value[id], va.seen[id]};
    f(v);
  }
};
}  // namespace gen
using Count = gen::Count;
}  // namespace aggregate_test

MEDUSA_TEST_EMV_LAUNCH(aggregate_test::Count, VERTEX, aggregate_test::gen::Count_element, aggregate_test::Program)

namespace aggregate_test {
const bool registered = medusa::detail::register_aggregate<Program>(total, 0) &&
                        medusa::detail::register_aggregate<Program>(low, 1) &&
                        medusa::detail::register_aggregate<Program>(widest, 2) &&
                        medusa::detail::register_aggregate<Program>(sequence, 3);
bool halt_at_total = false;
int halt_threshold = 0;
void iteration() {
  if (halt_at_total && total.value() >= halt_threshold) medusa::Halt();
  medusa::EMV<medusa::VERTEX>::Run(Count{});
}
}  // namespace aggregate_test

namespace {
medusa::Graph<aggregate_test::Vertex, aggregate_test::Edge> aggregate_graph(const std::vector<int>& values) {
  medusa::Graph<aggregate_test::Vertex, aggregate_test::Edge> g(static_cast<medusa::VertexId>(values.size()));
  for (std::size_t v = 0; v < values.size(); ++v) g.vertex(static_cast<medusa::VertexId>(v)).value = values[v];
  // A ring with chords, so that partitions have replicas.
  const auto n = static_cast<medusa::VertexId>(values.size());
  for (medusa::VertexId v = 0; v < n; ++v) {
    g.AddEdge(v, (v + 1) % n);
    g.AddEdge(v, (v * 7 + 3) % n);
  }
  return g;
}
}  // namespace

TEST_CASE("Aggregates: value() is the previous superstep's fold, in functors and after the run", "[runtime]") {
  using namespace aggregate_test;
  REQUIRE(registered);
  std::vector<int> values(1000);
  std::iota(values.begin(), values.end(), -300);  // -300 .. 699
  const long long n = static_cast<long long>(values.size());
  const long long sum = std::accumulate(values.begin(), values.end(), 0LL);
  for (int partitions : {1, 3}) {
#if !defined(MEDUSA_BACKEND_HOST)
    if (partitions > 1) continue;  // (several GPUs: the multi-GPU tests)
#endif
    auto g = aggregate_graph(values);
    medusa::Config conf;
    conf.maxIteration = 4;
    conf.gpuCount = partitions;
    auto device = medusa::Init_Device_DS(g, conf);
    halt_at_total = false;
    const medusa::RunStats stats = device.Run(iteration);
    CHECK(stats.supersteps == 4);
    device.Dump_Result(g);
    // Superstep s adds sum + n*s; superstep 3 saw superstep 2's fold.
    for (medusa::VertexId v = 0; v < g.vertex_count(); ++v) {
      CHECK(g.vertex(v).value == values[v] + 4);
      CHECK(g.vertex(v).seen == sum + 2 * n);
    }
    CHECK(total.value() == sum + 3 * n);
    CHECK(low.value() == -300 + 3);
    CHECK(widest.value() == -(699.0f + 3));
  }
}

TEST_CASE("Aggregates: the iteration function may halt on a value and each Run starts from the start value",
          "[runtime]") {
  using namespace aggregate_test;
  auto g = aggregate_graph(std::vector<int>(64, 1));  // superstep s adds 64 * (s + 1)
  auto device = medusa::Init_Device_DS(g);
  halt_at_total = true;
  halt_threshold = 64 * 3;  // reached by superstep 2; superstep 3 sees it, halts and still runs
  const medusa::RunStats stats = device.Run(iteration);
  CHECK(stats.supersteps == 4);
  CHECK(stats.stop_reason == "halt vote");
  CHECK(total.value() == 64 * 4);
  // Values are 5 now: superstep 0 adds 320, superstep 1 halts. Superstep 0 sees the start value 0,
  // not the 256 the last run ended with (which would halt it at once).
  const medusa::RunStats again = device.Run(iteration);
  halt_at_total = false;
  CHECK(again.supersteps == 2);
  CHECK(total.value() == 64 * 6);
}

#if defined(MEDUSA_BACKEND_HOST)
// Each partition folds its own adds and the session folds the partials in partition order, so over
// MPI ranks every fold (floating-point sums too) equals, bit for bit, one process's with the same
// partitions. `sequence` records the order. (Under mpirun, runtime.mpi-2, partition_cases() gives
// the distributed cases; OpenMP leaves these small launches on one thread, in vertex order.)
TEST_CASE("Aggregates over MPI ranks fold partials in partition order as one process does", "[runtime]") {
  using namespace aggregate_test;
  std::vector<int> values(1000);
  std::iota(values.begin(), values.end(), -300);
  unsigned long long in_vertex_order = kIdentityMap;  // superstep 3's, one partition
  for (int x : values) in_vertex_order = ThenApply{}(in_vertex_order, map_of(x + 3));
  const auto run = [&](const medusa::Config& conf) {
    auto g = aggregate_graph(values);
    auto device = medusa::Init_Device_DS(g, conf);
    halt_at_total = false;
    device.Run(iteration);
    return std::array<unsigned long long, 2>{sequence.value(), static_cast<unsigned long long>(total.value())};
  };
  for (medusa_test::PartitionCase pc : medusa_test::partition_cases(/*multi_hop=*/false)) {
    INFO(pc.name);
    medusa::Config conf;
    conf.maxIteration = 4;
    const std::array<unsigned long long, 2> got = run(pc.apply(conf));
    CHECK(static_cast<int>(got[1]) == std::accumulate(values.begin(), values.end(), 0) + 3 * 1000);
    if (pc.parts == 1 && !pc.distributed && pc.vertex_order != medusa::VertexOrder::Degree)
      CHECK(got[0] == in_vertex_order);
    if (!pc.distributed) continue;
    pc.distributed = false;  // the same partitions, every one in this process
    if (pc.parts == 1) pc.parts = medusa_test::test_mpi_ranks();
    CHECK(got == run(pc.apply(conf)));
  }
}
#endif
