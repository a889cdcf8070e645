// Each EMV kind, domain and built-in combiner, written the way medusa-cc emits a program: a
// ProgramTraits specialization, proxies over the SoA arrays, element functors and EmvLaunch
// specializations. Backend-neutral: also compiled as CUDA by test/runtime/cuda.
#define MEDUSA_GENERATED 1
#include <medusa/medusa.h>

#include "support/emv_launch.h"
#include "support/random_graph.h"
#include "support/scoped_env.h"
#include "support/test_graphs.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <climits>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace kinds_test {

struct Vertex {
  int value = 0;  // kUpload only (and read on the edge side: kEdgeRead)
  int out = 0;    // kDownload only
  int count = 0;  // both
};
struct Edge {
  int weight = 0;  // kUpload only
  int seen = 0;    // both
};

}  // namespace kinds_test

template <>
struct medusa::ProgramTraits<kinds_test::Vertex, kinds_test::Edge> {
  using Vertex = kinds_test::Vertex;
  using Edge = kinds_test::Edge;
  using Message = int;
  struct VertexArrays {
    int* value;
    int* out;
    int* count;
  };
  struct EdgeArrays {
    int* weight;
    int* seen;
  };
  static constexpr std::array<medusa::FieldSpec, 3> vertex_fields{{
      {"value", offsetof(Vertex, value), sizeof(int), medusa::kUpload | medusa::kEdgeRead},
      {"out", offsetof(Vertex, out), sizeof(int), medusa::kDownload},
      {"count", offsetof(Vertex, count), sizeof(int), medusa::kUpload | medusa::kDownload},
  }};
  static constexpr std::array<medusa::FieldSpec, 2> edge_fields{{
      {"weight", offsetof(Edge, weight), sizeof(int), medusa::kUpload},
      {"seen", offsetof(Edge, seen), sizeof(int), medusa::kUpload | medusa::kDownload},
  }};
  static VertexArrays bind_vertex(void* const* a) {
    return {static_cast<int*>(a[0]), static_cast<int*>(a[1]), static_cast<int*>(a[2])};
  }
  static EdgeArrays bind_edge(void* const* a) {
    return {static_cast<int*>(a[0]), static_cast<int*>(a[1])};
  }
  static constexpr medusa::ProgramUses uses =
      medusa::ProgramUses::of(medusa::kUsesVertexFrontier | medusa::kUsesEdgeFrontier | medusa::kUsesReceived |
                              medusa::kUsesMessages);
};

namespace kinds_test {

using Program = medusa::ProgramTraits<Vertex, Edge>;
using Ctx = medusa::KernelCtx<int>;
using VA = Program::VertexArrays;
using EA = Program::EdgeArrays;
using medusa::EdgeIndex;
using medusa::VertexId;

// ---- proxies -----------------------------------------------------------------------------------
struct VertexProxy : medusa::VertexHandle<int> {
  int& value;
  int& out;
  int& count;
};
MEDUSA_HD inline VertexProxy make_vertex(const Ctx& c, const VA& va, VertexId id) {
  return VertexProxy{{&c, id}, va.value[id], va.out[id], va.count[id]};
}
struct HeadProxy : medusa::VertexHandle<int> {
  const int& value;
};
struct EdgeProxy : medusa::EdgeHandle<int> {
  using message_type = int;
  using arrays_type = EA;
  int& weight;
  int& seen;
  const VA* va;  // for head(); null in edge lists
  static MEDUSA_HD EdgeProxy make(const Ctx& c, const EA& a, EdgeIndex e, VertexId head,
                                  VertexId tail) {
    return EdgeProxy{{&c, e, head, tail}, a.weight[e], a.seen[e], nullptr};
  }
  MEDUSA_HD HeadProxy head() const {
    return HeadProxy{{medusa_ctx_, medusa_head_}, va->value[medusa_head_]};
  }
};
MEDUSA_HD inline EdgeProxy make_edge(const Ctx& c, const VA& va, const EA& ea, EdgeIndex e) {
  return EdgeProxy{{&c, e, c.edge_src[e], c.out_dst[e]}, ea.weight[e], ea.seen[e], &va};
}

// ---- user functors (as the user wrote them, with MEDUSA_HD added) --------------------------------
struct DoubleValue {  // VERTEX
  MEDUSA_HD void operator()(VertexProxy& v) const {
    v.count = v.out + 1000;  // `out` is download-only: the device starts from 0
    v.out = 2 * v.value + static_cast<int>(medusa::Superstep());
    v.value = -1;  // upload-only: never copied back
  }
};
struct SendWeightPlusHead {  // EDGE
  MEDUSA_HD void operator()(EdgeProxy& e) const {
    e.sendMsg(e.weight + e.head().value);
    e.seen = e.weight * 3 + e.head().value;
  }
};
struct SendPosition {  // ELIST
  MEDUSA_HD void operator()(VertexProxy& v, medusa::EdgeList<EdgeProxy>& el) const {
    for (std::uint32_t i = 0; i < el.size(); ++i) el[i].sendMsg(v.value * 1000 + static_cast<int>(i));
    v.count = static_cast<int>(v.edge_count());
  }
};
struct SumList {  // MLIST
  MEDUSA_HD void operator()(VertexProxy& v, medusa::MessageList<int>& ml) const {
    int s = 0;
    for (std::uint32_t i = 0; i < ml.size(); ++i) s += ml[i];
    v.out = s;
    v.count = static_cast<int>(ml.size()) * 10000 + static_cast<int>(v.in_edge_count());
  }
};
struct TripleMessage {  // MESSAGE
  MEDUSA_HD void operator()(int& msg) const { msg = msg * 3; }
};
struct TakeCombined {  // VERTEX
  MEDUSA_HD void operator()(VertexProxy& v) const { v.out = v.combined_msg(); }
};
struct MarkReceived {  // VERTEX over Domain::Received
  MEDUSA_HD void operator()(VertexProxy& v) const { v.out = 1; }
};
struct SendAtWeightStep {  // EDGE: sends only in the superstep equal to its weight
  MEDUSA_HD void operator()(EdgeProxy& e) const {
    if (e.weight == static_cast<int>(medusa::Superstep())) e.sendMsg(1);
  }
};
struct SendByWeightStep {  // ELIST, edge-parallel: edge i sends when weight % 3 is the superstep
  MEDUSA_HD void operator()(VertexProxy& v, medusa::EdgeList<EdgeProxy>& el) const {
    for (std::uint32_t i = 0; i < el.size(); ++i) edge(v, el, i);
  }
  MEDUSA_HD void edge(VertexProxy& v, medusa::EdgeList<EdgeProxy>& el, std::uint32_t i) const {
    EdgeProxy e = el[i];
    if (e.weight % 3 == static_cast<int>(medusa::Superstep())) e.sendMsg(e.weight * 10 + v.value);
  }
};
struct SendValue {  // ELIST, edge-parallel, the same message along every out-edge (uniform)
  MEDUSA_HD void operator()(VertexProxy& v, medusa::EdgeList<EdgeProxy>& el) const {
    for (std::uint32_t i = 0; i < el.size(); ++i) el[i].sendMsg(message(v));
  }
  MEDUSA_HD int message(VertexProxy& v) const { return v.value * 3 + 1; }
};
struct SendLevel {  // ELIST, edge-parallel: every source sends the same message (BFS's next level)
  MEDUSA_HD void operator()(VertexProxy& v, medusa::EdgeList<EdgeProxy>& el) const {
    for (std::uint32_t i = 0; i < el.size(); ++i) el[i].sendMsg(message(v));
  }
  MEDUSA_HD int message(VertexProxy&) const { return static_cast<int>(medusa::Superstep()) * 2 + 5; }
};
struct KeepCombined {  // VERTEX (over Domain::Received in the pull-fusion probe)
  MEDUSA_HD void operator()(VertexProxy& v) const { v.count = v.combined_msg(); }
};
struct SumSlots {  // MLIST: reads the buffer a fused Combiner must have left as the launch would
  MEDUSA_HD void operator()(VertexProxy& v, medusa::MessageList<int>& ml) const {
    int s = 0;
    for (std::uint32_t i = 0; i < ml.size(); ++i) s = s * 7 + ml[i];
    v.out = s;
  }
};
struct CountVisits {  // VERTEX
  MEDUSA_HD void operator()(VertexProxy& v) const { v.out = v.out + 1; }
};
struct ActivateOddEdges {  // EDGE, superstep 0 / count visits of active edges afterwards
  MEDUSA_HD void operator()(EdgeProxy& e) const {
    if (medusa::Superstep() == 0) {
      if (e.weight % 2 != 0) e.SetActive();
    } else {
      e.seen = e.seen + 100;
    }
  }
};
struct ActivateEvenVertices {  // VERTEX: superstep 0 activates, later supersteps count visits
  MEDUSA_HD void operator()(VertexProxy& v) const {
    if (medusa::Superstep() == 0) {
      if (v.value % 2 == 0) v.SetActive();
    } else {
      v.out = v.out + 1;
    }
  }
};

struct RecordIds {  // VERTEX: what a functor sees of its vertex's identity
  MEDUSA_HD void operator()(VertexProxy& v) const {
    v.out = static_cast<int>(v.id());
    v.count = static_cast<int>(v.edge_count()) * 1000 + static_cast<int>(v.in_edge_count());
  }
};
struct SendHeadId {  // EDGE
  MEDUSA_HD void operator()(EdgeProxy& e) const {
    e.seen = static_cast<int>(e.head_id()) * 1000 + static_cast<int>(e.tail_id());
    e.sendMsg(static_cast<int>(e.head_id()));
  }
};

// ---- element functors ----------------------------------------------------------------------------
template <class F>
struct VertexElement {
  F f;
  MEDUSA_HD void operator()(const Ctx& c, const VA& va, const EA&, VertexId id) const {
    VertexProxy v = make_vertex(c, va, id);
    f(v);
  }
};
template <class F>
struct EdgeElement {
  F f;
  MEDUSA_HD void operator()(const Ctx& c, const VA& va, const EA& ea, EdgeIndex e) const {
    EdgeProxy p = make_edge(c, va, ea, e);
    f(p);
  }
};
struct SendPosition_element {
  SendPosition f;
  MEDUSA_HD void operator()(const Ctx& c, const VA& va, const EA& ea, VertexId id) const {
    VertexProxy v = make_vertex(c, va, id);
    medusa::EdgeList<EdgeProxy> el(&c, &ea, id);
    f(v, el);
  }
};
struct SumList_element {
  SumList f;
  MEDUSA_HD void operator()(const Ctx& c, const VA& va, const EA&, VertexId id) const {
    VertexProxy v = make_vertex(c, va, id);
    medusa::MessageList<int> ml(&c, id);
    f(v, ml);
  }
};
struct SendByWeightStep_edge_element {  // what medusa-cc emits for a proven-independent edge loop
  SendByWeightStep f;
  MEDUSA_HD void operator()(const Ctx& c, const VA& va, const EA& ea, VertexId id, std::uint32_t i) const {
    VertexProxy v = make_vertex(c, va, id);
    medusa::EdgeList<EdgeProxy> el(&c, &ea, id);
    f.edge(v, el, i);
  }
};
template <class Send>
struct UniformSendElement {  // what medusa-cc emits for a uniform send (medusa_source_message)
  Send f;
  MEDUSA_HD void operator()(const Ctx& c, const VA& va, const EA& ea, VertexId id, std::uint32_t i) const {
    VertexProxy v = make_vertex(c, va, id);
    medusa::EdgeList<EdgeProxy> el(&c, &ea, id);
    el[i].sendMsg(f.message(v));
  }
  MEDUSA_HD int medusa_source_message(const Ctx& c, const VA& va, const EA&, VertexId id) const {
    VertexProxy v = make_vertex(c, va, id);
    return f.message(v);
  }
};
using SendValue_edge_element = UniformSendElement<SendValue>;
using SendLevel_edge_element = UniformSendElement<SendLevel>;
struct SumSlots_element {
  SumSlots f;
  MEDUSA_HD void operator()(const Ctx& c, const VA& va, const EA&, VertexId id) const {
    VertexProxy v = make_vertex(c, va, id);
    medusa::MessageList<int> ml(&c, id);
    f(v, ml);
  }
};
struct TripleMessage_element {
  TripleMessage f;
  MEDUSA_HD void operator()(const Ctx& c, const VA&, const EA&, EdgeIndex slot) const {
    f(c.messages[slot]);
  }
};

}  // namespace kinds_test

MEDUSA_TEST_EMV_LAUNCH(kinds_test::DoubleValue, VERTEX, kinds_test::VertexElement<kinds_test::DoubleValue>, kinds_test::Program)
MEDUSA_TEST_EMV_LAUNCH(kinds_test::SendWeightPlusHead, EDGE, kinds_test::EdgeElement<kinds_test::SendWeightPlusHead>, kinds_test::Program)
MEDUSA_TEST_EMV_LAUNCH(kinds_test::SendPosition, ELIST, kinds_test::SendPosition_element, kinds_test::Program)
MEDUSA_TEST_EMV_LAUNCH(kinds_test::SumList, MLIST, kinds_test::SumList_element, kinds_test::Program)
MEDUSA_TEST_EMV_LAUNCH(kinds_test::TripleMessage, MESSAGE, kinds_test::TripleMessage_element, kinds_test::Program)
MEDUSA_TEST_EMV_LAUNCH(kinds_test::TakeCombined, VERTEX, kinds_test::VertexElement<kinds_test::TakeCombined>, kinds_test::Program)
MEDUSA_TEST_EMV_LAUNCH(kinds_test::MarkReceived, VERTEX, kinds_test::VertexElement<kinds_test::MarkReceived>, kinds_test::Program)
MEDUSA_TEST_EMV_LAUNCH(kinds_test::SendAtWeightStep, EDGE, kinds_test::EdgeElement<kinds_test::SendAtWeightStep>, kinds_test::Program)
MEDUSA_TEST_EMV_EDGES_LAUNCH(kinds_test::SendByWeightStep, kinds_test::SendByWeightStep_edge_element, kinds_test::Program)
MEDUSA_TEST_EMV_EDGES_LAUNCH(kinds_test::SendValue, kinds_test::SendValue_edge_element, kinds_test::Program)
MEDUSA_TEST_EMV_EDGES_LAUNCH(kinds_test::SendLevel, kinds_test::SendLevel_edge_element, kinds_test::Program)
MEDUSA_TEST_EMV_LAUNCH(kinds_test::KeepCombined, VERTEX, kinds_test::VertexElement<kinds_test::KeepCombined>, kinds_test::Program)
MEDUSA_TEST_EMV_LAUNCH(kinds_test::SumSlots, MLIST, kinds_test::SumSlots_element, kinds_test::Program)
MEDUSA_TEST_EMV_LAUNCH(kinds_test::CountVisits, VERTEX, kinds_test::VertexElement<kinds_test::CountVisits>, kinds_test::Program)
MEDUSA_TEST_EMV_LAUNCH(kinds_test::ActivateOddEdges, EDGE, kinds_test::EdgeElement<kinds_test::ActivateOddEdges>, kinds_test::Program)
MEDUSA_TEST_EMV_LAUNCH(kinds_test::RecordIds, VERTEX, kinds_test::VertexElement<kinds_test::RecordIds>, kinds_test::Program)
MEDUSA_TEST_EMV_LAUNCH(kinds_test::SendHeadId, EDGE, kinds_test::EdgeElement<kinds_test::SendHeadId>, kinds_test::Program)
MEDUSA_TEST_EMV_LAUNCH(kinds_test::ActivateEvenVertices, VERTEX, kinds_test::VertexElement<kinds_test::ActivateEvenVertices>, kinds_test::Program)

namespace kinds_test {

using GraphT = medusa::Graph<Vertex, Edge>;

// A random graph with self loops, duplicates and vertices without in-edges; value = 3v + 1,
// weight = input index + 1.
GraphT make_graph(std::uint32_t n, std::uint64_t m, std::uint64_t seed) {
  const auto el = medusa_test::random_graph(n, m, seed);
  GraphT g(n);
  for (VertexId v = 0; v < n; ++v) g.vertex(v).value = static_cast<int>(3 * v + 1);
  for (std::size_t i = 0; i < el.src.size(); ++i) {
    Edge e;
    e.weight = static_cast<int>(i) + 1;
    g.AddEdge(el.src[i], el.dst[i], e);
  }
  g.AddEdge(0, 0, Edge{7, 0});  // a self loop for sure
  g.AddEdge(1, 2, Edge{8, 0});  // and a duplicate pair
  g.AddEdge(1, 2, Edge{9, 0});
  return g;
}

medusa::Config one_step() {
  medusa::Config c;
  c.maxIteration = 1;
  return c;
}

}  // namespace kinds_test

using namespace kinds_test;

TEST_CASE("VERTEX over all vertices with upload and download directions", "[runtime]") {
  GraphT g = make_graph(40, 200, 1);
  for (VertexId v = 0; v < g.vertex_count(); ++v) g.vertex(v).out = 77;  // written, so uploaded too
  auto once = medusa::Init_Device_DS(g, one_step());
  once.Run([] { medusa::EMV<medusa::VERTEX>::Run(DoubleValue{}); });
  once.Dump_Result(g);
  for (VertexId v = 0; v < g.vertex_count(); ++v) {
    REQUIRE(g.vertex(v).value == static_cast<int>(3 * v + 1));  // upload-only: not copied back
    REQUIRE(g.vertex(v).out == 2 * static_cast<int>(3 * v + 1));
    REQUIRE(g.vertex(v).count == 77 + 1000);  // the device's `out` started from the host's 77
  }

  medusa::Config conf;
  conf.maxIteration = 3;
  auto device = medusa::Init_Device_DS(g, conf);
  const medusa::RunStats stats = device.Run([] { medusa::EMV<medusa::VERTEX>::Run(DoubleValue{}); });
  CHECK(stats.supersteps == 3);
  CHECK(stats.stop_reason == "maxIteration");
  device.Dump_Result(g);
  for (VertexId v = 0; v < g.vertex_count(); ++v) {
    REQUIRE(g.vertex(v).out == 2 * -1 + 2);         // superstep 2 saw value -1
    REQUIRE(g.vertex(v).count == 2 * -1 + 1 + 1000);  // `out` of superstep 1
  }
}

TEST_CASE("EDGE sends along rID slots and writes edge fields back in input order", "[runtime]") {
  // (Partitioned and, under mpirun, distributed: each edge field comes back from its partition.)
  for (const medusa_test::PartitionCase& pc : medusa_test::partition_cases(/*multi_hop=*/false)) {
    INFO(pc.name);
    GraphT g = make_graph(50, 300, 2);
    auto device = medusa::Init_Device_DS(g, pc.apply(one_step()));
    const auto stats = device.Run([] {
      medusa::InitMessageBuffer(0);
      medusa::EMV<medusa::EDGE>::Run(SendWeightPlusHead{});
      medusa::Combiner();
      medusa::EMV<medusa::VERTEX>::Run(TakeCombined{});
    });
    CHECK(stats.edges_visited == g.edge_count());
    device.Dump_Result(g);
    std::vector<int> expected(g.vertex_count(), 0);
    for (EdgeIndex i = 0; i < g.edge_count(); ++i) {
      const int head_value = static_cast<int>(3 * g.edge_src(i) + 1);
      expected[g.edge_dst(i)] += g.edge(i).weight + head_value;
      REQUIRE(g.edge(i).seen == g.edge(i).weight * 3 + head_value);
    }
    for (VertexId v = 0; v < g.vertex_count(); ++v) REQUIRE(g.vertex(v).out == expected[v]);
  }
}

TEST_CASE("ELIST sends along out-edges in input order and MLIST reads a vertex's slots", "[runtime]") {
  GraphT g = make_graph(30, 150, 3);
  auto device = medusa::Init_Device_DS(g, one_step());
  device.Run([] {
    medusa::InitMessageBuffer(0);
    medusa::EMV<medusa::ELIST>::Run(SendPosition{});
    medusa::EMV<medusa::MLIST>::Run(SumList{});
  });
  device.Dump_Result(g);
  std::vector<int> sum(g.vertex_count(), 0), indeg(g.vertex_count(), 0), pos(g.vertex_count(), 0);
  for (EdgeIndex i = 0; i < g.edge_count(); ++i) {
    const VertexId u = g.edge_src(i);
    sum[g.edge_dst(i)] += static_cast<int>(3 * u + 1) * 1000 + pos[u]++;
    ++indeg[g.edge_dst(i)];
  }
  for (VertexId v = 0; v < g.vertex_count(); ++v) {
    REQUIRE(g.vertex(v).out == sum[v]);
    REQUIRE(g.vertex(v).count == indeg[v] * 10000 + indeg[v]);
  }
}

TEST_CASE("MESSAGE visits every slot and vertices without messages get the identity", "[runtime]") {
  GraphT g(5);
  for (VertexId v = 0; v < 5; ++v) g.vertex(v).value = static_cast<int>(3 * v + 1);
  g.AddEdge(0, 1, Edge{2, 0});
  g.AddEdge(2, 1, Edge{5, 0});
  g.AddEdge(1, 3, Edge{4, 0});
  medusa::Config conf = one_step();
  conf.combinerOpType = medusa::MEDUSA_MIN;
  auto device = medusa::Init_Device_DS(g, conf);
  device.Run([] {
    medusa::InitMessageBuffer(INT_MAX);
    medusa::EMV<medusa::EDGE>::Run(SendWeightPlusHead{});
    medusa::EMV<medusa::MESSAGE>::Run(TripleMessage{});
    medusa::Combiner();
    medusa::EMV<medusa::VERTEX>::Run(TakeCombined{});
  });
  device.Dump_Result(g);
  // values: v0 = 1, v1 = 4, v2 = 7
  CHECK(g.vertex(1).out == 3 * (2 + 1));  // min(3*(2+1), 3*(5+7))
  CHECK(g.vertex(3).out == 3 * (4 + 4));
  CHECK(g.vertex(0).out == INT_MAX);      // no in-edges: the InitMessageBuffer value
  CHECK(g.vertex(4).out == INT_MAX);
}

TEST_CASE("Every built-in combiner operator on an int message", "[runtime]") {
  // Vertex 3 receives 2, 3, 0 (weights + head value 0 via head 4 with value 0 set below);
  // vertex 2 receives 5, 6; vertex 1 receives nothing.
  struct Case {
    medusa::CombinerOp op;
    int init;
    int at3, at2, at1;
  };
  const Case cases[] = {
      {medusa::MEDUSA_SUM, 0, 5, 11, 0},       {medusa::MEDUSA_MIN, INT_MAX, 0, 5, INT_MAX},
      {medusa::MEDUSA_MAX, INT_MIN, 3, 6, INT_MIN}, {medusa::MEDUSA_PRODUCT, 1, 0, 30, 1},
      {medusa::MEDUSA_AND, 1, 0, 1, 1},        {medusa::MEDUSA_OR, 0, 1, 1, 0},
      {medusa::MEDUSA_LOGICAL_AND, 1, 0, 1, 1}, {medusa::MEDUSA_LOGICAL_OR, 0, 1, 1, 0},
      {medusa::MEDUSA_BIT_OR, 0, 3, 7, 0},     {medusa::MEDUSA_BIT_AND, -1, 0, 4, -1},
      {medusa::MEDUSA_BIT_XOR, 0, 1, 3, 0},
  };
  for (const Case& k : cases) {
    GraphT g(5);
    for (VertexId v = 0; v < 5; ++v) g.vertex(v).value = 0;
    g.AddEdge(4, 3, Edge{2, 0});
    g.AddEdge(0, 3, Edge{3, 0});
    g.AddEdge(4, 3, Edge{0, 0});
    g.AddEdge(0, 2, Edge{5, 0});
    g.AddEdge(4, 2, Edge{6, 0});
    medusa::Config conf = one_step();
    conf.combinerOpType = k.op;
    auto device = medusa::Init_Device_DS(g, conf);
    const int init = k.init;
    device.Run([init] {
      medusa::InitMessageBuffer(init);
      medusa::EMV<medusa::EDGE>::Run(SendWeightPlusHead{});
      medusa::Combiner();
      medusa::EMV<medusa::VERTEX>::Run(TakeCombined{});
    });
    device.Dump_Result(g);
    INFO("operator " << static_cast<int>(k.op));
    CHECK(g.vertex(3).out == k.at3);
    CHECK(g.vertex(2).out == k.at2);
    CHECK(g.vertex(1).out == k.at1);
  }
}

TEST_CASE("Domain::Received visits only vertices that got a message this superstep", "[runtime]") {
  GraphT g(6);
  g.AddEdge(0, 1, Edge{1, 0});
  g.AddEdge(0, 4, Edge{1, 0});
  g.AddEdge(4, 4, Edge{1, 0});
  g.AddEdge(2, 3, Edge{1, 0});
  auto device = medusa::Init_Device_DS(g, one_step());
  device.Run([] {
    medusa::InitMessageBuffer(0);
    medusa::EMV<medusa::EDGE>::Run(SendWeightPlusHead{});
    medusa::EMV<medusa::VERTEX>::Run(MarkReceived{}, medusa::Received);
  });
  device.Dump_Result(g);
  const int expected[6] = {0, 1, 0, 1, 1, 0};
  for (VertexId v = 0; v < 6; ++v) CHECK(g.vertex(v).out == expected[v]);
}

TEST_CASE("MLIST over Domain::Received and Domain::Active", "[runtime]") {
  GraphT g(6);
  for (VertexId v = 0; v < 6; ++v) g.vertex(v).count = -5;
  g.AddEdge(0, 1, Edge{1, 0});
  g.AddEdge(2, 1, Edge{2, 0});
  g.AddEdge(3, 4, Edge{3, 0});
  g.AddEdge(3, 5, Edge{0, 0});  // vertex 5 has an in-edge but receives nothing
  g.SetActive(5);
  auto device = medusa::Init_Device_DS(g, one_step());
  device.Run([] {
    medusa::InitMessageBuffer(0);
    medusa::EMV<medusa::EDGE>::Run(SendAtWeightStep{});  // only the weight-0 edge 3->5 sends
    medusa::EMV<medusa::MLIST>::Run(SumList{}, medusa::Received);
  });
  device.Dump_Result(g);
  CHECK(g.vertex(5).count == 10001);  // one slot, in-degree 1
  CHECK(g.vertex(1).count == -5);     // not visited
  CHECK(g.vertex(4).count == -5);

  GraphT h(6);
  for (VertexId v = 0; v < 6; ++v) h.vertex(v).count = -5;
  h.AddEdge(0, 1, Edge{1, 0});
  h.AddEdge(2, 1, Edge{2, 0});
  h.SetActive(1);
  h.SetActive(4);
  auto device2 = medusa::Init_Device_DS(h, one_step());
  device2.Run([] {
    medusa::InitMessageBuffer(7);
    medusa::EMV<medusa::MLIST>::Run(SumList{}, medusa::Active);
  });
  device2.Dump_Result(h);
  CHECK(h.vertex(1).out == 14);  // two untouched slots hold the InitMessageBuffer value
  CHECK(h.vertex(1).count == 20002);
  CHECK(h.vertex(4).count == 0);
  CHECK(h.vertex(0).count == -5);
}

TEST_CASE("InitMessageBuffer clears the Received set of the previous superstep", "[runtime]") {
  GraphT g(5);
  g.AddEdge(0, 1, Edge{0, 0});  // sends in superstep 0
  g.AddEdge(2, 3, Edge{1, 0});  // sends in superstep 1
  g.AddEdge(4, 3, Edge{1, 0});
  medusa::Config conf;
  conf.maxIteration = 2;
  auto device = medusa::Init_Device_DS(g, conf);
  device.Run([] {
    medusa::InitMessageBuffer(0);
    medusa::EMV<medusa::EDGE>::Run(SendAtWeightStep{});
    medusa::EMV<medusa::VERTEX>::Run(CountVisits{}, medusa::Received);
  });
  device.Dump_Result(g);
  const int expected[5] = {0, 1, 0, 1, 0};
  for (VertexId v = 0; v < 5; ++v) CHECK(g.vertex(v).out == expected[v]);
}

// Pull fusion (InitMessageBuffer; edge-parallel ELIST over all vertices or a frontier; Combiner as
// one pass) must leave exactly what the three steps leave: combined values, receiver flags and
// every message slot, which later supersteps (here without InitMessageBuffer) and MLIST read.
struct FusionProbe {
  std::vector<int> out, count, seen;
  medusa::RunStats stats;
};
// Which call after the fused Combiner is the first to touch the message slots.
enum class FirstSlotReader { SecondCombiner, Mlist, NextSuperstep };
template <class Send = SendByWeightStep>
FusionProbe run_fusion_probe(medusa::CombinerOp op, int init, bool fuse,
                             medusa::Domain domain = medusa::Domain::All,
                             FirstSlotReader reader = FirstSlotReader::SecondCombiner,
                             std::uint32_t supersteps = 3) {
  GraphT g = make_graph(200, 300, 5);
  for (VertexId v = 0; v < g.vertex_count(); ++v) {
    g.vertex(v).count = -9;
    if (v % 3 == 0) g.SetActive(v);
  }
  medusa::Config conf;
  conf.maxIteration = supersteps;
  conf.combinerOpType = op;
  conf.pullFusion = fuse;
  auto device = medusa::Init_Device_DS(g, conf);
  FusionProbe p;
  p.stats = device.Run([init, domain, reader] {
    if (medusa::Superstep() == 0) medusa::InitMessageBuffer(init);
    // NextSuperstep: later supersteps launch over the (by then empty) frontier, so their Combiner
    // folds the slots superstep 0 left.
    const bool later = medusa::Superstep() > 0 && reader == FirstSlotReader::NextSuperstep;
    medusa::EMV<medusa::ELIST>::Run(Send{}, later ? medusa::Domain::Active : domain);
    medusa::Combiner();
    if (reader == FirstSlotReader::SecondCombiner) medusa::Combiner();  // reads the slots left
    medusa::EMV<medusa::VERTEX>::Run(KeepCombined{}, medusa::Received);
    if (reader != FirstSlotReader::NextSuperstep) medusa::EMV<medusa::MLIST>::Run(SumSlots{});
  });
  device.Dump_Result(g);
  for (VertexId v = 0; v < g.vertex_count(); ++v) {
    p.out.push_back(g.vertex(v).out);
    p.count.push_back(g.vertex(v).count);
  }
  return p;
}

TEST_CASE("Pull fusion leaves the combined values, receivers and message slots unchanged", "[runtime]") {
  for (const auto& [op, init] : {std::pair{medusa::MEDUSA_SUM, 0}, std::pair{medusa::MEDUSA_MIN, INT_MAX},
                                 std::pair{medusa::MEDUSA_MAX, -5}}) {
    INFO("operator " << static_cast<int>(op));
    const FusionProbe fused = run_fusion_probe(op, init, true);
    const FusionProbe plain = run_fusion_probe(op, init, false);
    CHECK(fused.out == plain.out);
    CHECK(fused.count == plain.count);
    CHECK(fused.stats.edges_visited == plain.stats.edges_visited);
    CHECK(std::count(plain.count.begin(), plain.count.end(), -9) > 0);  // some never received
  }
}

TEST_CASE("Slots a uniform pull pass leaves pending read as the launch would have written them",
          "[runtime]") {
  // One message per source (medusa_source_message): the fused pass over all vertices writes no
  // slot; the first call that touches them (a second Combiner, MLIST, the next superstep's launch
  // and Combiner without InitMessageBuffer) must see what the unfused launch wrote.
  for (FirstSlotReader reader : {FirstSlotReader::SecondCombiner, FirstSlotReader::Mlist,
                                 FirstSlotReader::NextSuperstep}) {
    for (const auto& [op, init] : {std::pair{medusa::MEDUSA_SUM, 0}, std::pair{medusa::MEDUSA_MIN, INT_MAX}}) {
      INFO("reader " << static_cast<int>(reader) << ", operator " << static_cast<int>(op));
      // One superstep (two for NextSuperstep): later ones would rewrite every slot alike.
      const std::uint32_t steps = reader == FirstSlotReader::NextSuperstep ? 2 : 1;
      const FusionProbe fused = run_fusion_probe<SendValue>(op, init, true, medusa::Domain::All, reader, steps);
      const FusionProbe plain = run_fusion_probe<SendValue>(op, init, false, medusa::Domain::All, reader, steps);
      CHECK(fused.out == plain.out);
      CHECK(fused.count == plain.count);
      CHECK(fused.stats.edges_visited == plain.stats.edges_visited);
    }
  }
}

TEST_CASE("Pulling a frontier leaves the combined values, receivers and message slots unchanged",
          "[runtime]") {
  // Forced pull: superstep 0 pulls the seeded third of the vertices (the later supersteps have no
  // InitMessageBuffer to fuse with).
  for (const auto& [op, init] : {std::pair{medusa::MEDUSA_SUM, 0}, std::pair{medusa::MEDUSA_MIN, INT_MAX},
                                 std::pair{medusa::MEDUSA_MAX, -5}}) {
    INFO("operator " << static_cast<int>(op));
    FusionProbe pulled;
    {
      const medusa_test::ScopedEnv always("MEDUSA_FRONTIER_PULL", "always");
      pulled = run_fusion_probe(op, init, true, medusa::Domain::Active);
    }
    const medusa_test::ScopedEnv never("MEDUSA_FRONTIER_PULL", "never");
    const FusionProbe pushed = run_fusion_probe(op, init, true, medusa::Domain::Active);
    const FusionProbe all = run_fusion_probe(op, init, true, medusa::Domain::All);
    CHECK(pulled.out == pushed.out);
    CHECK(pulled.count == pushed.count);
    CHECK(pulled.stats.edges_visited == pushed.stats.edges_visited);
    CHECK(pushed.stats.edges_visited < all.stats.edges_visited);
    CHECK(pulled.out != all.out);  // the frontier matters: only a third of the vertices sent
  }
}

// The frontier fused with the Combiner (pulled, or for min / max pushed into the combined values)
// against the three steps issued as written.
template <class Send>
void check_fused_frontier(medusa::CombinerOp op, int init, FirstSlotReader reader,
                                  const char* frontier_pull) {
  const std::uint32_t steps = reader == FirstSlotReader::NextSuperstep ? 2 : 1;
  FusionProbe fused;
  {
    const medusa_test::ScopedEnv env("MEDUSA_FRONTIER_PULL", frontier_pull);
    fused = run_fusion_probe<Send>(op, init, true, medusa::Domain::Active, reader, steps);
  }
  const FusionProbe plain = run_fusion_probe<Send>(op, init, false, medusa::Domain::Active, reader, steps);
  CHECK(fused.out == plain.out);
  CHECK(fused.count == plain.count);
  CHECK(fused.stats.edges_visited == plain.stats.edges_visited);
  CHECK(std::count(plain.count.begin(), plain.count.end(), -9) > 0);  // some never received
}

TEST_CASE("A fused frontier of uniform sends leaves pending slots that read as pushed", "[runtime]") {
  // Slots of inactive sources hold the fill value. Pulled (always): SendLevel's sources all send
  // one message, so under min, max and logical or the pass stops at a vertex's first active
  // source; SendValue's messages differ, so it folds every in-edge. Not pulled (never): under
  // min and max the frontier is pushed into the combined values; the others run as written.
  for (FirstSlotReader reader : {FirstSlotReader::SecondCombiner, FirstSlotReader::Mlist,
                                 FirstSlotReader::NextSuperstep}) {
    for (const auto& [op, init] : {std::pair{medusa::MEDUSA_SUM, 0}, std::pair{medusa::MEDUSA_MIN, INT_MAX},
                                   std::pair{medusa::MEDUSA_MAX, -5}, std::pair{medusa::MEDUSA_OR, 0}}) {
      INFO("reader " << static_cast<int>(reader) << ", operator " << static_cast<int>(op));
      for (const char* frontier_pull : {"always", "never"}) {
        INFO("MEDUSA_FRONTIER_PULL=" << frontier_pull);
        check_fused_frontier<SendLevel>(op, init, reader, frontier_pull);
        check_fused_frontier<SendValue>(op, init, reader, frontier_pull);
      }
    }
  }
}

TEST_CASE("A pushed frontier of edge-dependent sends leaves pending slots that read as written",
          "[runtime]") {
  // SendByWeightStep's message depends on the edge, and only some edges send. Under min and max a
  // fused frontier is pushed at any density (never) unless pulls are forced (always): the push
  // writes the frontier's slots (the fill value where an edge sent nothing) and leaves the others
  // pending as the fill value, which the next superstep must still find after the frontier moved.
  for (FirstSlotReader reader : {FirstSlotReader::SecondCombiner, FirstSlotReader::Mlist,
                                 FirstSlotReader::NextSuperstep}) {
    for (const auto& [op, init] : {std::pair{medusa::MEDUSA_MIN, INT_MAX}, std::pair{medusa::MEDUSA_MAX, -5},
                                   std::pair{medusa::MEDUSA_SUM, 0}}) {
      INFO("reader " << static_cast<int>(reader) << ", operator " << static_cast<int>(op));
      for (const char* frontier_pull : {"always", "never", "auto"}) {
        INFO("MEDUSA_FRONTIER_PULL=" << frontier_pull);
        check_fused_frontier<SendByWeightStep>(op, init, reader, frontier_pull);
      }
    }
  }
}

TEST_CASE("A launch between InitMessageBuffer and Combiner is issued as written, in order", "[runtime]") {
  // The ELIST launch waits for Combiner(); the MLIST launch in between must first see it run.
  GraphT g = make_graph(30, 120, 6);
  auto device = medusa::Init_Device_DS(g, one_step());
  device.Run([] {
    medusa::InitMessageBuffer(0);
    medusa::EMV<medusa::ELIST>::Run(SendByWeightStep{});
    medusa::EMV<medusa::MLIST>::Run(SumList{});
    medusa::Combiner();
    medusa::EMV<medusa::VERTEX>::Run(KeepCombined{});
  });
  device.Dump_Result(g);
  std::vector<int> expected(g.vertex_count(), 0);
  for (EdgeIndex i = 0; i < g.edge_count(); ++i)
    if (g.edge(i).weight % 3 == 0)
      expected[g.edge_dst(i)] += g.edge(i).weight * 10 + static_cast<int>(3 * g.edge_src(i) + 1);
  for (VertexId v = 0; v < g.vertex_count(); ++v) {
    REQUIRE(g.vertex(v).out == expected[v]);
    REQUIRE(g.vertex(v).count == expected[v]);
  }
}

TEST_CASE("SetActive on edges: Domain::Active for EDGE visits them in the next superstep", "[runtime]") {
  GraphT g = make_graph(20, 100, 4);
  medusa::Config conf;
  conf.maxIteration = 3;
  auto device = medusa::Init_Device_DS(g, conf);
  const auto stats = device.Run([] {
    if (medusa::Superstep() == 0) {
      medusa::EMV<medusa::EDGE>::Run(ActivateOddEdges{});
    } else {
      medusa::EMV<medusa::EDGE>::Run(ActivateOddEdges{}, medusa::Active);
    }
  });
  device.Dump_Result(g);
  std::uint64_t odd = 0;
  for (EdgeIndex i = 0; i < g.edge_count(); ++i) {
    const bool is_odd = g.edge(i).weight % 2 != 0;
    odd += is_odd;
    REQUIRE(g.edge(i).seen == (is_odd ? 100 : 0));  // active in superstep 1 only
  }
  CHECK(stats.edges_visited == g.edge_count() + odd);
}

TEST_CASE("SetActive on vertices and host seeds: Domain::Active for VERTEX", "[runtime]") {
  GraphT g(8);
  for (VertexId v = 0; v < 8; ++v) g.vertex(v).value = static_cast<int>(v);
  g.SetActive(3);
  g.SetActive(5);
  g.SetActive(3);  // duplicates collapse
  medusa::Config conf;
  conf.maxIteration = 3;
  auto device = medusa::Init_Device_DS(g, conf);
  device.Run([] { medusa::EMV<medusa::VERTEX>::Run(ActivateEvenVertices{}, medusa::Active); });
  device.Dump_Result(g);
  // superstep 0: 3 and 5 (odd) activate nobody; supersteps 1, 2 see an empty frontier.
  for (VertexId v = 0; v < 8; ++v) CHECK(g.vertex(v).out == 0);

  GraphT h(8);
  for (VertexId v = 0; v < 8; ++v) h.vertex(v).value = static_cast<int>(v);
  auto device2 = medusa::Init_Device_DS(h, conf);
  device2.Run([] {
    medusa::EMV<medusa::VERTEX>::Run(ActivateEvenVertices{},
                                     medusa::Superstep() == 0 ? medusa::All : medusa::Active);
  });
  device2.Dump_Result(h);
  // superstep 0 activates the even vertices; superstep 1 visits them; nobody re-activates.
  for (VertexId v = 0; v < 8; ++v) CHECK(h.vertex(v).out == (v % 2 == 0 ? 1 : 0));
}

TEST_CASE("Domains an API kind cannot run over are clear errors", "[runtime]") {
  GraphT g = make_graph(5, 10, 5);
  auto device = medusa::Init_Device_DS(g, one_step());
  CHECK_THROWS_WITH(device.Run([] { medusa::EMV<medusa::EDGE>::Run(SendWeightPlusHead{}, medusa::Received); }),
                    Catch::Contains("Received") && Catch::Contains("EDGE"));
  CHECK_THROWS_WITH(device.Run([] { medusa::EMV<medusa::MESSAGE>::Run(TripleMessage{}, medusa::Active); }),
                    Catch::Contains("MESSAGE") && Catch::Contains("Domain::All"));
}

TEST_CASE("EMV, InitMessageBuffer and Combiner outside Device::Run are errors", "[runtime]") {
  CHECK_THROWS_WITH(medusa::EMV<medusa::VERTEX>::Run(DoubleValue{}), Catch::Contains("outside Device::Run"));
  CHECK_THROWS_WITH(medusa::InitMessageBuffer(0), Catch::Contains("outside Device::Run"));
  CHECK_THROWS_WITH(medusa::Combiner(), Catch::Contains("outside Device::Run"));
}

TEST_CASE("An empty graph runs every kind without touching anything", "[runtime]") {
  const auto order = GENERATE(medusa::VertexOrder::Auto, medusa::VertexOrder::Degree);
  GraphT g;
  medusa::Config conf;
  conf.maxIteration = 2;
  conf.vertexOrder = order;
  auto device = medusa::Init_Device_DS(g, conf);
  const auto stats = device.Run([] {
    medusa::InitMessageBuffer(0);
    medusa::EMV<medusa::EDGE>::Run(SendWeightPlusHead{});
    medusa::EMV<medusa::ELIST>::Run(SendPosition{});
    medusa::EMV<medusa::MESSAGE>::Run(TripleMessage{});
    medusa::Combiner();
    medusa::EMV<medusa::MLIST>::Run(SumList{});
    medusa::EMV<medusa::VERTEX>::Run(TakeCombined{});
  });
  CHECK(stats.supersteps == 2);
  CHECK(stats.edges_visited == 0);
  device.Dump_Result(g);
  CHECK(g.vertex_count() == 0);
}

TEST_CASE("Init_Device_DS reports out-of-range vertex ids and Dump_Result checks sizes", "[runtime]") {
  GraphT g(3);
  g.AddEdge(0, 1);
  g.AddEdge(2, 9);
  CHECK_THROWS_WITH(medusa::Init_Device_DS(g), Catch::Contains("edge 1") && Catch::Contains("9"));
  GraphT ok(3);
  ok.AddEdge(0, 1);
  auto device = medusa::Init_Device_DS(ok);
  ok.AddVertex();
  CHECK_THROWS_WITH(device.Dump_Result(ok), Catch::Contains("Dump_Result"));
  CHECK(device.report().find("3 vertices") != std::string::npos);
  GraphT seeded(3);
  seeded.SetActive(5);
  CHECK_THROWS_WITH(medusa::Init_Device_DS(seeded), Catch::Contains("SetActive") && Catch::Contains("5"));
}

// Degree order renumbers the vertices on the device only (docs/design/vertex-order.md).
GraphT make_hub_graph() {
  GraphT g = make_graph(60, 300, 11);
  for (VertexId v = 0; v < 60; v += 2) g.AddEdge(59, v, Edge{1000 + static_cast<int>(v), 0});  // 59 leads
  for (VertexId v = 1; v < 60; v += 3) g.AddEdge(v, 41, Edge{2000 + static_cast<int>(v), 0});
  return g;
}

TEST_CASE("Degree vertex order: functors see the user's IDs and degrees", "[runtime]") {
  GraphT g = make_hub_graph();
  medusa::Config conf = one_step();
  conf.combinerOpType = medusa::MEDUSA_MIN;
  conf.vertexOrder = medusa::VertexOrder::Degree;
  auto device = medusa::Init_Device_DS(g, conf);
  CHECK(device.report().find("vertex order: by descending degree (requested)") != std::string::npos);
  device.Run([] {
    medusa::InitMessageBuffer(INT_MAX);
    medusa::EMV<medusa::EDGE>::Run(SendHeadId{});
    medusa::Combiner();
    medusa::EMV<medusa::VERTEX>::Run(TakeCombined{});
  });
  device.Dump_Result(g);
  std::vector<int> smallest_head(g.vertex_count(), INT_MAX);
  for (EdgeIndex i = 0; i < g.edge_count(); ++i) {
    INFO("edge " << i);
    REQUIRE(g.edge(i).seen == static_cast<int>(g.edge_src(i) * 1000 + g.edge_dst(i)));
    smallest_head[g.edge_dst(i)] = std::min(smallest_head[g.edge_dst(i)], static_cast<int>(g.edge_src(i)));
  }
  for (VertexId v = 0; v < g.vertex_count(); ++v) REQUIRE(g.vertex(v).out == smallest_head[v]);

  auto ids = medusa::Init_Device_DS(g, conf);
  ids.Run([] { medusa::EMV<medusa::VERTEX>::Run(RecordIds{}); });
  ids.Dump_Result(g);
  const medusa::Topology& t = g.topology();
  for (VertexId v = 0; v < g.vertex_count(); ++v) {
    INFO("vertex " << v);
    REQUIRE(g.vertex(v).out == static_cast<int>(v));
    REQUIRE(g.vertex(v).count == static_cast<int>(t.out_degree(v) * 1000 + t.in_degree(v)));
  }
}

TEST_CASE("Degree vertex order leaves every kind's results as the input order does", "[runtime]") {
  using Iteration = void (*)();
  const auto run = [](Iteration iteration, medusa::VertexOrder order, bool pull_fusion) {
    GraphT g = make_hub_graph();
    for (VertexId v = 0; v < g.vertex_count(); v += 5) g.SetActive(v);
    medusa::Config conf;
    conf.maxIteration = 2;  // the second superstep's frontier: ActivateEvenVertices' (then none)
    conf.vertexOrder = order;
    conf.pullFusion = pull_fusion;
    auto device = medusa::Init_Device_DS(g, conf);
    const medusa::RunStats stats = device.Run(iteration);
    device.Dump_Result(g);
    std::vector<int> fields;
    for (VertexId v = 0; v < g.vertex_count(); ++v) {
      fields.push_back(g.vertex(v).out);
      fields.push_back(g.vertex(v).count);
    }
    for (EdgeIndex i = 0; i < g.edge_count(); ++i) fields.push_back(g.edge(i).seen);
    return std::pair{fields, stats.edges_visited};
  };
  const std::vector<std::pair<const char*, Iteration>> iterations = {
      {"EDGE, Combiner, VERTEX", [] {
         medusa::InitMessageBuffer(0);
         medusa::EMV<medusa::EDGE>::Run(SendWeightPlusHead{});
         medusa::Combiner();
         medusa::EMV<medusa::VERTEX>::Run(TakeCombined{});
       }},
      {"ELIST over the frontier, MLIST in slot order", [] {
         medusa::InitMessageBuffer(0);
         medusa::EMV<medusa::ELIST>::Run(SendPosition{}, medusa::Domain::Active);
         medusa::EMV<medusa::MLIST>::Run(SumSlots{});
         medusa::EMV<medusa::VERTEX>::Run(ActivateEvenVertices{});
       }},
      {"uniform ELIST, Combiner, VERTEX over receivers", [] {
         medusa::InitMessageBuffer(0);
         medusa::EMV<medusa::ELIST>::Run(SendValue{}, medusa::Domain::Active);
         medusa::Combiner();
         medusa::EMV<medusa::VERTEX>::Run(KeepCombined{}, medusa::Domain::Received);
         medusa::EMV<medusa::VERTEX>::Run(ActivateEvenVertices{});
       }},
  };
  for (const auto& [name, iteration] : iterations) {
    for (bool pull_fusion : {true, false}) {
      INFO(name << ", pull fusion " << pull_fusion);
      const auto input = run(iteration, medusa::VertexOrder::Input, pull_fusion);
      const auto degree = run(iteration, medusa::VertexOrder::Degree, pull_fusion);
      CHECK(degree.first == input.first);
      CHECK(degree.second == input.second);
    }
  }
}
