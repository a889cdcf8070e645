// In-edge ELIST functors (medusa/in_edges.h), as medusa-cc emits them, written by hand: one
// partition and k partitions (each owning its vertices' whole out-rows) fold every vertex's
// messages in its out-edge order. Backend-neutral.
#define MEDUSA_GENERATED 1
#include <medusa/medusa.h>

#include "support/emv_launch.h"
#include "support/test_graphs.h"

#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

// ---- Each vertex sums its out-neighbours' weights plus in-degrees, sent back against the edges.
namespace in_edges_test {
struct Vertex {
  float weight = 0;
  float out_weight = -1;
};
struct Edge {};
}  // namespace in_edges_test

template <>
struct medusa::ProgramTraits<in_edges_test::Vertex, in_edges_test::Edge> {
  using Vertex = in_edges_test::Vertex;
  using Edge = in_edges_test::Edge;
  using Message = float;
  struct VertexArrays {
    float* weight;
    float* out_weight;
  };
  struct EdgeArrays {};
  static constexpr std::array<medusa::FieldSpec, 2> vertex_fields{{
      {"weight", offsetof(Vertex, weight), sizeof(float), medusa::kUpload | medusa::kEdgeRead},
      {"out_weight", offsetof(Vertex, out_weight), sizeof(float), medusa::kDownload},
  }};
  static constexpr std::array<medusa::FieldSpec, 0> edge_fields{};
  static VertexArrays bind_vertex(void* const* a) { return {static_cast<float*>(a[0]), static_cast<float*>(a[1])}; }
  static EdgeArrays bind_edge(void* const*) { return {}; }
  static constexpr medusa::ProgramUses uses = medusa::ProgramUses::of(medusa::kUsesMessages | medusa::kUsesInEdges);
};

namespace in_edges_test {
using Program = medusa::ProgramTraits<Vertex, Edge>;
using Ctx = medusa::KernelCtx<float>;
struct EdgeProxy : medusa::EdgeHandle<float> {
  using message_type = float;
  using arrays_type = Program::EdgeArrays;
  static MEDUSA_HD EdgeProxy make(const Ctx& c, const arrays_type&, medusa::EdgeIndex e, medusa::VertexId head,
                                  medusa::VertexId tail) {
    return EdgeProxy{{&c, e, head, tail}};
  }
};
struct SendBack {};
struct SendBack_in_edge_element {
  SendBack f;
  MEDUSA_HD void operator()(const Ctx& c, const Program::VertexArrays& va, const Program::EdgeArrays& ea,
                            medusa::VertexId id, medusa::EdgeIndex eid, medusa::VertexId head) const {
    medusa::InEdgeList<EdgeProxy> in(&c, &ea, id, eid, head);
    in[0].sendMsg(va.weight[id] + static_cast<float>(in.size()));  // (size(): the whole graph's in-degree)
  }
};
struct Collect {};
struct Collect_element {
  Collect f;
  MEDUSA_HD void operator()(const Ctx& c, const Program::VertexArrays& va, const Program::EdgeArrays&,
                            medusa::VertexId id) const {
    va.out_weight[id] = c.combined[id];
  }
};
}  // namespace in_edges_test

template <>
struct medusa::EmvLaunch<in_edges_test::SendBack> {
  static constexpr medusa::ApiKind kind = medusa::ELIST;
  static void run(medusa::SessionBase& s, const in_edges_test::SendBack& f, medusa::Domain d) {
    medusa::exec::run_elist_in_edges(static_cast<medusa::Session<in_edges_test::Program>&>(s), d,
                                     in_edges_test::SendBack_in_edge_element{f});
  }
};
MEDUSA_TEST_EMV_LAUNCH(in_edges_test::Collect, VERTEX, in_edges_test::Collect_element, in_edges_test::Program)

// ---- The same with an edge field, which partitioned in-edge runs refuse.
namespace in_edges_weighted_test {
struct Vertex {
  float weight = 0;
};
struct Edge {
  float length = 0;
};
}  // namespace in_edges_weighted_test

template <>
struct medusa::ProgramTraits<in_edges_weighted_test::Vertex, in_edges_weighted_test::Edge> {
  using Vertex = in_edges_weighted_test::Vertex;
  using Edge = in_edges_weighted_test::Edge;
  using Message = float;
  struct VertexArrays {
    float* weight;
  };
  struct EdgeArrays {
    float* length;
  };
  static constexpr std::array<medusa::FieldSpec, 1> vertex_fields{{
      {"weight", offsetof(Vertex, weight), sizeof(float), medusa::kUpload | medusa::kEdgeRead},
  }};
  static constexpr std::array<medusa::FieldSpec, 1> edge_fields{{
      {"length", offsetof(Edge, length), sizeof(float), medusa::kUpload},
  }};
  static VertexArrays bind_vertex(void* const* a) { return {static_cast<float*>(a[0])}; }
  static EdgeArrays bind_edge(void* const* a) { return {static_cast<float*>(a[0])}; }
  static constexpr medusa::ProgramUses uses = medusa::ProgramUses::of(medusa::kUsesMessages | medusa::kUsesInEdges);
};

namespace {
void gather_back() {
  medusa::InitMessageBuffer(0.0f);
  medusa::EMV<medusa::ELIST>::Run(in_edges_test::SendBack{});
  medusa::Combiner();
  medusa::EMV<medusa::VERTEX>::Run(in_edges_test::Collect{});
}
void gather_back_without_combiner() {
  medusa::InitMessageBuffer(0.0f);
  medusa::EMV<medusa::ELIST>::Run(in_edges_test::SendBack{});
  medusa::EMV<medusa::VERTEX>::Run(in_edges_test::Collect{});
}

// Weights of very different sizes: their float sum depends on the order it is taken in.
float weight_of(medusa::VertexId v) {
  return (static_cast<float>(v % 17) - 5.0f) * (v % 3 == 0 ? 1.0e7f : 1.0f) + 0.1f * static_cast<float>(v % 7);
}

// Out-degrees 0-4 with repeats and self loops, a few hubs; edges in input order.
std::vector<std::pair<medusa::VertexId, medusa::VertexId>> test_edges(medusa::VertexId n) {
  std::vector<std::pair<medusa::VertexId, medusa::VertexId>> edges;
  for (medusa::VertexId v = 0; v < n; ++v) {
    for (medusa::VertexId k = 0; k < v % 5; ++k) edges.push_back({v, (v * 31 + k * 101) % n});
    if (v % 97 == 0)
      for (medusa::VertexId k = 0; k < 400; ++k) edges.push_back({v, (k * 13) % n});
  }
  return edges;
}

bool same_bits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }
}  // namespace

TEST_CASE("InEdgeList: each vertex folds what its out-edges' tails send back, in its out-edge order, on any partitions",
          "[runtime]") {
  using namespace in_edges_test;
  const medusa::VertexId n = 3000;
  const auto edges = test_edges(n);
  std::vector<std::uint32_t> in_degree(n, 0);
  for (const auto& e : edges) ++in_degree[e.second];
  std::vector<float> want(n, 0.0f);  // the Combiner's fold: fill, then each out-edge in input order
  for (const auto& [u, w] : edges) want[u] = want[u] + (weight_of(w) + static_cast<float>(in_degree[w]));
  for (const medusa_test::PartitionCase& pc : medusa_test::partition_cases(/*multi_hop=*/false)) {
    INFO(pc.name);
    medusa::Graph<Vertex, Edge> g(n);
    for (medusa::VertexId v = 0; v < n; ++v) g.vertex(v).weight = weight_of(v);
    for (const auto& [u, w] : edges) g.AddEdge(u, w);
    medusa::Config conf;
    conf.combinerOpType = medusa::MEDUSA_SUM;
    conf.maxIteration = 2;  // (the second superstep refreshes the replicas again)
    auto device = medusa::Init_Device_DS(g, pc.apply(conf));
    device.Run(gather_back);
    device.Dump_Result(g);
    std::size_t bad = 0;
    for (medusa::VertexId v = 0; v < n; ++v)
      if (!same_bits(g.vertex(v).out_weight, want[v]) && bad++ < 5)
        UNSCOPED_INFO("vertex " << v << ": " << g.vertex(v).out_weight << " vs " << want[v]);
    CHECK(bad == 0);
    if (pc.parts == 1 && !pc.distributed)
      CHECK_THROWS_WITH(device.Run(gather_back_without_combiner), Catch::Contains("must be followed by Combiner()"));
  }
}

TEST_CASE("InEdgeList on several partitions: a program with edge fields is refused", "[runtime]") {
  using namespace in_edges_weighted_test;
  medusa::Graph<Vertex, Edge> g(4);
  g.AddEdge(0, 1);
  g.AddEdge(1, 2);
  medusa::Config conf;
  conf.gpuCount = 2;
  conf.partitionsPerGpu = 2;
  CHECK_THROWS_WITH(medusa::Init_Device_DS(g, conf),
                    Catch::Contains("ELIST functor over in-edges (InEdgeList) and edge fields") &&
                        Catch::Contains("run it with gpuCount = 1"));
}
