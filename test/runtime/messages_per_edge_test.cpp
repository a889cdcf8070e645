// The paper's m: several message slots per edge, and the error when a functor sends more.
#define MEDUSA_GENERATED 1
#include <medusa/medusa.h>

#include "support/emv_launch.h"
#include "support/random_graph.h"

#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <vector>

namespace multi_msg_test {
struct Vertex {
  int value = 0;
  int sends = 0;  // messages per edge this vertex sends
  long long total = 0;
  int slots = 0;
};
struct Edge {};
}  // namespace multi_msg_test

template <>
struct medusa::ProgramTraits<multi_msg_test::Vertex, multi_msg_test::Edge> {
  using Vertex = multi_msg_test::Vertex;
  using Edge = multi_msg_test::Edge;
  using Message = long long;
  struct VertexArrays {
    int* value;
    int* sends;
    long long* total;
    int* slots;
  };
  struct EdgeArrays {};
  static constexpr std::array<medusa::FieldSpec, 4> vertex_fields{{
      {"value", offsetof(Vertex, value), sizeof(int), medusa::kUpload | medusa::kEdgeRead},
      {"sends", offsetof(Vertex, sends), sizeof(int), medusa::kUpload | medusa::kEdgeRead},
      {"total", offsetof(Vertex, total), sizeof(long long), medusa::kDownload},
      {"slots", offsetof(Vertex, slots), sizeof(int), medusa::kDownload},
  }};
  static constexpr std::array<medusa::FieldSpec, 0> edge_fields{};
  static VertexArrays bind_vertex(void* const* a) {
    return {static_cast<int*>(a[0]), static_cast<int*>(a[1]), static_cast<long long*>(a[2]),
            static_cast<int*>(a[3])};
  }
  static EdgeArrays bind_edge(void* const*) { return {}; }
  static constexpr medusa::ProgramUses uses = medusa::ProgramUses::of(medusa::kUsesMessages);
};

namespace multi_msg_test {
using Program = medusa::ProgramTraits<Vertex, Edge>;
using Ctx = medusa::KernelCtx<long long>;
using VA = Program::VertexArrays;
using EA = Program::EdgeArrays;

struct VertexProxy : medusa::VertexHandle<long long> {
  const int& value;
  const int& sends;
  long long& total;
  int& slots;
};
MEDUSA_HD inline VertexProxy make_vertex(const Ctx& c, const VA& va, medusa::VertexId id) {
  return VertexProxy{{&c, id}, va.value[id], va.sends[id], va.total[id], va.slots[id]};
}
struct EdgeProxy : medusa::EdgeHandle<long long> {
  using message_type = long long;
  using arrays_type = EA;
  static MEDUSA_HD EdgeProxy make(const Ctx& c, const EA&, medusa::EdgeIndex e,
                                  medusa::VertexId head, medusa::VertexId tail) {
    return EdgeProxy{{&c, e, head, tail}};
  }
};

struct SendSeveral {  // ELIST: message k along each edge is value * (k + 1) + superstep
  MEDUSA_HD void operator()(VertexProxy& v, medusa::EdgeList<EdgeProxy>& el) const {
    for (std::uint32_t i = 0; i < el.size(); ++i) {
      for (int k = 0; k < v.sends; ++k) {
        el[i].sendMsg(static_cast<long long>(v.value) * (k + 1) + medusa::Superstep());
      }
    }
  }
};
struct Collect {  // MLIST: sums every slot, counts them
  MEDUSA_HD void operator()(VertexProxy& v, medusa::MessageList<long long>& ml) const {
    long long s = 0;
    for (std::uint32_t i = 0; i < ml.size(); ++i) s += ml[i];
    v.total = s;
    v.slots = static_cast<int>(ml.size());
  }
};
struct TakeCombined {
  MEDUSA_HD void operator()(VertexProxy& v) const { v.total = v.combined_msg(); }
};

struct SendSeveral_element {
  SendSeveral f;
  MEDUSA_HD void operator()(const Ctx& c, const VA& va, const EA& ea, medusa::VertexId id) const {
    VertexProxy v = make_vertex(c, va, id);
    medusa::EdgeList<EdgeProxy> el(&c, &ea, id);
    f(v, el);
  }
};
struct Collect_element {
  Collect f;
  MEDUSA_HD void operator()(const Ctx& c, const VA& va, const EA&, medusa::VertexId id) const {
    VertexProxy v = make_vertex(c, va, id);
    medusa::MessageList<long long> ml(&c, id);
    f(v, ml);
  }
};
struct TakeCombined_element {
  TakeCombined f;
  MEDUSA_HD void operator()(const Ctx& c, const VA& va, const EA&, medusa::VertexId id) const {
    VertexProxy v = make_vertex(c, va, id);
    f(v);
  }
};
}  // namespace multi_msg_test

MEDUSA_TEST_EMV_LAUNCH(multi_msg_test::SendSeveral, ELIST, multi_msg_test::SendSeveral_element, multi_msg_test::Program)
MEDUSA_TEST_EMV_LAUNCH(multi_msg_test::Collect, MLIST, multi_msg_test::Collect_element, multi_msg_test::Program)
MEDUSA_TEST_EMV_LAUNCH(multi_msg_test::TakeCombined, VERTEX, multi_msg_test::TakeCombined_element, multi_msg_test::Program)

using namespace multi_msg_test;

namespace {
medusa::Graph<Vertex, Edge> make_graph(int sends) {
  const auto el = medusa_test::random_graph(60, 500, 11);
  medusa::Graph<Vertex, Edge> g(el.vertex_count);
  for (medusa::VertexId v = 0; v < el.vertex_count; ++v) {
    g.vertex(v).value = static_cast<int>(v) + 1;
    g.vertex(v).sends = sends;
  }
  g.SetEdges(el.src, el.dst);
  return g;
}
}  // namespace

TEST_CASE("m > 1: every message along an edge gets its own slot", "[runtime]") {
  for (std::uint32_t m : {2u, 3u}) {
    auto g = make_graph(2);
    medusa::Config conf;
    conf.messagesPerEdge = m;
    conf.maxIteration = 3;  // send counts must restart every superstep
    auto device = medusa::Init_Device_DS(g, conf);
    const auto stats = device.Run([] {
      medusa::InitMessageBuffer(0);
      medusa::EMV<medusa::ELIST>::Run(SendSeveral{});
      medusa::EMV<medusa::MLIST>::Run(Collect{});
    });
    CHECK(stats.supersteps == 3);
    device.Dump_Result(g);
    std::vector<long long> expected(g.vertex_count(), 0);
    std::vector<int> indeg(g.vertex_count(), 0);
    for (medusa::EdgeIndex i = 0; i < g.edge_count(); ++i) {
      const long long value = g.edge_src(i) + 1;
      expected[g.edge_dst(i)] += value + 2 + 2 * value + 2;  // superstep 2, k = 0 and 1
      ++indeg[g.edge_dst(i)];
    }
    INFO("m = " << m);
    for (medusa::VertexId v = 0; v < g.vertex_count(); ++v) {
      REQUIRE(g.vertex(v).total == expected[v]);
      REQUIRE(g.vertex(v).slots == indeg[v] * static_cast<int>(m));
    }
  }
}

TEST_CASE("m > 1 with the built-in combiner", "[runtime]") {
  auto g = make_graph(2);
  medusa::Config conf;
  conf.messagesPerEdge = 2;
  conf.maxIteration = 1;
  conf.combinerOpType = medusa::MEDUSA_MAX;
  auto device = medusa::Init_Device_DS(g, conf);
  device.Run([] {
    medusa::InitMessageBuffer(-1);
    medusa::EMV<medusa::ELIST>::Run(SendSeveral{});
    medusa::Combiner();
    medusa::EMV<medusa::VERTEX>::Run(TakeCombined{});
  });
  device.Dump_Result(g);
  std::vector<long long> expected(g.vertex_count(), -1);
  for (medusa::EdgeIndex i = 0; i < g.edge_count(); ++i) {
    const long long top = 2LL * (g.edge_src(i) + 1);
    if (top > expected[g.edge_dst(i)]) expected[g.edge_dst(i)] = top;
  }
  for (medusa::VertexId v = 0; v < g.vertex_count(); ++v) REQUIRE(g.vertex(v).total == expected[v]);
}

TEST_CASE("More than m messages along one edge is an error", "[runtime]") {
  auto g = make_graph(3);
  medusa::Config conf;
  conf.messagesPerEdge = 2;
  auto device = medusa::Init_Device_DS(g, conf);
  CHECK_THROWS_WITH(device.Run([] {
    medusa::InitMessageBuffer(0);
    medusa::EMV<medusa::ELIST>::Run(SendSeveral{});
  }),
                    Catch::Contains("messagesPerEdge") && Catch::Contains("more than"));
  // With m = 1 sends are not counted (no atomics on the hot path): a later send overwrites.
  medusa::Config zero;
  zero.messagesPerEdge = 0;
  CHECK_THROWS_WITH(medusa::Init_Device_DS(g, zero), Catch::Contains("messagesPerEdge"));
}

TEST_CASE("A message buffer larger than the memory is refused with needed vs available", "[runtime]") {
  auto g = make_graph(1);  // 500 edges
  medusa::Config conf;
  conf.messagesPerEdge = 1u << 31;  // 500 * 2^31 slots of 8 bytes: about 8 TiB
  CHECK_THROWS_WITH(medusa::Init_Device_DS(g, conf), Catch::Contains("needs") && Catch::Contains("TiB"));
}
