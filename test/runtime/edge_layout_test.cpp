// The edge layouts (common/edge_layout.h) under a thread-per-vertex ELIST loop that carries state
// from one edge to the next (so medusa-cc would not make it edge-parallel), reads and writes edge
// fields and sends along each edge. Every layout must give the result of the sequential loop over
// each vertex's out-edges in input order. Backend-neutral: also compiled as CUDA by
// test/runtime/cuda.
#define MEDUSA_GENERATED 1
#include <medusa/medusa.h>

#include "support/emv_launch.h"
#include "support/random_graph.h"

#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace layout_test {

struct Vertex {
  int running = 0;  // kDownload: the sum of the vertex's out-edge weights
  int received = 0; // kDownload: the sum of the messages it received
};
struct Edge {
  int weight = 0;  // kUpload
  int seen = 0;    // kDownload
};

}  // namespace layout_test

template <>
struct medusa::ProgramTraits<layout_test::Vertex, layout_test::Edge> {
  using Vertex = layout_test::Vertex;
  using Edge = layout_test::Edge;
  using Message = int;
  struct VertexArrays {
    int* running;
    int* received;
  };
  struct EdgeArrays {
    int* weight;
    int* seen;
  };
  static constexpr std::array<medusa::FieldSpec, 2> vertex_fields{{
      {"running", offsetof(Vertex, running), sizeof(int), medusa::kDownload},
      {"received", offsetof(Vertex, received), sizeof(int), medusa::kDownload},
  }};
  static constexpr std::array<medusa::FieldSpec, 2> edge_fields{{
      {"weight", offsetof(Edge, weight), sizeof(int), medusa::kUpload},
      {"seen", offsetof(Edge, seen), sizeof(int), medusa::kDownload},
  }};
  static VertexArrays bind_vertex(void* const* a) { return {static_cast<int*>(a[0]), static_cast<int*>(a[1])}; }
  static EdgeArrays bind_edge(void* const* a) { return {static_cast<int*>(a[0]), static_cast<int*>(a[1])}; }
  static constexpr medusa::ProgramUses uses =
      medusa::ProgramUses::of(medusa::kUsesVertexFrontier | medusa::kUsesMessages |
                              medusa::kUsesVertexEdgeLoops);
};

namespace layout_test {

using Program = medusa::ProgramTraits<Vertex, Edge>;
using Ctx = medusa::KernelCtx<int>;
using VA = Program::VertexArrays;
using EA = Program::EdgeArrays;
using medusa::EdgeIndex;
using medusa::VertexId;

struct VertexProxy : medusa::VertexHandle<int> {
  int& running;
  int& received;
};
struct EdgeProxy : medusa::EdgeHandle<int> {
  using message_type = int;
  using arrays_type = EA;
  const int& weight;
  int& seen;
  static MEDUSA_HD EdgeProxy make(const Ctx& c, const EA& a, EdgeIndex e, VertexId head, VertexId tail) {
    return EdgeProxy{{&c, e, head, tail}, a.weight[e], a.seen[e]};
  }
};

// ELIST: a running sum over the out-edges, so iteration i depends on iterations 0 .. i-1.
struct RunningSum {
  MEDUSA_HD void operator()(VertexProxy& v, medusa::EdgeList<EdgeProxy>& el) const {
    int running = 0;
    for (std::uint32_t i = 0; i < el.size(); ++i) {
      running += el[i].weight;
      el[i].seen = running * 100 + static_cast<int>(i);
      el[i].sendMsg(running + static_cast<int>(el[i].tail_id()));
    }
    v.running = running;
    if (running % 2 == 1) v.SetActive();
  }
};
struct TakeCombined {  // VERTEX
  MEDUSA_HD void operator()(VertexProxy& v) const { v.received = v.combined_msg(); }
};

struct RunningSum_element {
  RunningSum f;
  MEDUSA_HD void operator()(const Ctx& c, const VA& va, const EA& ea, VertexId id) const {
    VertexProxy v{{&c, id}, va.running[id], va.received[id]};
    medusa::EdgeList<EdgeProxy> el(&c, &ea, id);
    f(v, el);
  }
};
struct TakeCombined_element {
  TakeCombined f;
  MEDUSA_HD void operator()(const Ctx& c, const VA& va, const EA&, VertexId id) const {
    VertexProxy v{{&c, id}, va.running[id], va.received[id]};
    f(v);
  }
};

}  // namespace layout_test

MEDUSA_TEST_EMV_LAUNCH(layout_test::RunningSum, ELIST, layout_test::RunningSum_element, layout_test::Program)
MEDUSA_TEST_EMV_LAUNCH(layout_test::TakeCombined, VERTEX, layout_test::TakeCombined_element, layout_test::Program)

namespace layout_test {

using GraphT = medusa::Graph<Vertex, Edge>;

// Degrees skewed enough for a hybrid to leave edges in CSR: vertex 0 has `hub` out-edges, the
// others a few random ones. weight = input index % 7 + 1.
GraphT make_graph(std::uint32_t n, std::uint64_t m, std::uint32_t hub, std::uint64_t seed) {
  const auto el = medusa_test::random_graph(n, m, seed);
  GraphT g(n);
  std::uint64_t index = 0;
  auto add = [&](VertexId u, VertexId v) {
    Edge e;
    e.weight = static_cast<int>(index++ % 7) + 1;
    g.AddEdge(u, v, e);
  };
  for (std::uint32_t i = 0; i < hub; ++i) add(0, i % n);
  for (std::size_t i = 0; i < el.src.size(); ++i) add(el.src[i], el.dst[i]);
  return g;
}

struct Expected {
  std::vector<int> running, received, seen;
};
// The sequential loop over each vertex's out-edges in input order, superstep 0 over all
// vertices, superstep 1 over those with an odd sum (the messages of superstep 1 are what stays).
Expected reference(const GraphT& g) {
  const VertexId n = g.vertex_count();
  Expected x{std::vector<int>(n, 0), std::vector<int>(n, 0), std::vector<int>(g.edge_count(), 0)};
  std::vector<int> position(n, 0);
  std::vector<int> sent_step1(n, 0);
  for (EdgeIndex i = 0; i < g.edge_count(); ++i) {
    const VertexId u = g.edge_src(i);
    x.running[u] += g.edge(i).weight;
    x.seen[i] = x.running[u] * 100 + position[u]++;
  }
  for (EdgeIndex i = 0; i < g.edge_count(); ++i) {
    const VertexId u = g.edge_src(i), v = g.edge_dst(i);
    if (x.running[u] % 2 != 1) continue;
    sent_step1[v] += x.seen[i] / 100 + static_cast<int>(v);  // the prefix sum at edge i, plus the tail
  }
  x.received = sent_step1;
  return x;
}

void run_and_check(medusa::Layout layout, std::uint32_t n, std::uint64_t m, std::uint32_t hub) {
  GraphT g = make_graph(n, m, hub, 11);
  medusa::Config conf;
  conf.maxIteration = 2;
  conf.layout = layout;
  auto device = medusa::Init_Device_DS(g, conf);
  device.Run([] {
    medusa::InitMessageBuffer(0);
    medusa::EMV<medusa::ELIST>::Run(RunningSum{}, medusa::Superstep() == 0 ? medusa::All : medusa::Active);
    medusa::Combiner();
    medusa::EMV<medusa::VERTEX>::Run(TakeCombined{});
  });
  device.Dump_Result(g);
  const Expected x = reference(g);
  for (VertexId v = 0; v < n; ++v) {
    REQUIRE(g.vertex(v).running == x.running[v]);
    REQUIRE(g.vertex(v).received == x.received[v]);
  }
  for (EdgeIndex i = 0; i < g.edge_count(); ++i) REQUIRE(g.edge(i).seen == x.seen[i]);
}

}  // namespace layout_test

TEST_CASE("Every edge layout gives a thread-per-vertex ELIST loop its edges in order", "[runtime]") {
  using medusa::Layout;
  for (Layout layout : {Layout::CSR, Layout::ColumnMajor, Layout::Hybrid, Layout::Auto}) {
    INFO("layout " << static_cast<int>(layout));
    layout_test::run_and_check(layout, 300, 900, 0);   // near-uniform degrees
    layout_test::run_and_check(layout, 300, 900, 120); // one hub: a hybrid leaves its tail in CSR
  }
}

TEST_CASE("The session reports the layout it chose", "[runtime]") {
  layout_test::GraphT g = layout_test::make_graph(300, 900, 120, 11);
  medusa::Config conf;
  conf.layout = medusa::Layout::Hybrid;
  auto hybrid = medusa::Init_Device_DS(g, conf);
  CHECK_THAT(hybrid.report(), Catch::Contains("hybrid: out-edges 0..") && Catch::Contains("the rest CSR"));
  conf.layout = medusa::Layout::CSR;
  auto csr = medusa::Init_Device_DS(g, conf);
  CHECK_THAT(csr.report(), Catch::Contains("CSR (array of adjacency arrays); requested"));
}
