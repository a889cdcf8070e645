// SSSP two ways, hand-translated as medusa-cc would, checked against Dijkstra (integer weights
// 1..20, exact):
//  SSSP-N: an EDGE functor reading its head's distance over all edges, MIN combiner;
//  SSSP-Q: ELIST over the SetActive frontier, VERTEX over Domain::Received.
// Backend-neutral.
#define MEDUSA_GENERATED 1
#include <medusa/medusa.h>

#include "support/cpu_reference.h"
#include "support/emv_launch.h"
#include "support/random_graph.h"
#include "support/test_graphs.h"

#include <catch2/catch.hpp>

#include <array>
#include <cstddef>

namespace sssp_test {

constexpr int kUnreached = medusa_test::kUnreached;
constexpr int kMaxWeight = 20;

struct VertexN {
  int dist = kUnreached;
};
struct EdgeN {
  int weight = 1;
};
struct VertexQ {
  int dist = kUnreached;
};
struct EdgeQ {
  int weight = 1;
};

}  // namespace sssp_test

template <>
struct medusa::ProgramTraits<sssp_test::VertexN, sssp_test::EdgeN> {
  using Vertex = sssp_test::VertexN;
  using Edge = sssp_test::EdgeN;
  using Message = int;
  struct VertexArrays {
    int* dist;
  };
  struct EdgeArrays {
    int* weight;
  };
  static constexpr std::array<medusa::FieldSpec, 1> vertex_fields{{
      {"dist", offsetof(Vertex, dist), sizeof(int), medusa::kUpload | medusa::kDownload |
       medusa::kEdgeRead}}};
  static constexpr std::array<medusa::FieldSpec, 1> edge_fields{{
      {"weight", offsetof(Edge, weight), sizeof(int), medusa::kUpload}}};
  static VertexArrays bind_vertex(void* const* a) { return {static_cast<int*>(a[0])}; }
  static EdgeArrays bind_edge(void* const* a) { return {static_cast<int*>(a[0])}; }
  // SsspN's Combiner consumes its slots, as medusa-cc would find: on one GPU its EDGE launch is
  // pushed into the combined values.
  static constexpr medusa::ProgramUses uses =
      medusa::ProgramUses::of(medusa::kUsesContinueVote | medusa::kUsesMessages |
                              medusa::kUsesCombinerConsumesSlots);
};

template <>
struct medusa::ProgramTraits<sssp_test::VertexQ, sssp_test::EdgeQ> {
  using Vertex = sssp_test::VertexQ;
  using Edge = sssp_test::EdgeQ;
  using Message = int;
  struct VertexArrays {
    int* dist;
  };
  struct EdgeArrays {
    int* weight;
  };
  static constexpr std::array<medusa::FieldSpec, 1> vertex_fields{{
      {"dist", offsetof(Vertex, dist), sizeof(int), medusa::kUpload | medusa::kDownload |
       medusa::kEdgeRead}}};
  static constexpr std::array<medusa::FieldSpec, 1> edge_fields{{
      {"weight", offsetof(Edge, weight), sizeof(int), medusa::kUpload}}};
  static VertexArrays bind_vertex(void* const* a) { return {static_cast<int*>(a[0])}; }
  static EdgeArrays bind_edge(void* const* a) { return {static_cast<int*>(a[0])}; }
  static constexpr medusa::ProgramUses uses =
      medusa::ProgramUses::of(medusa::kUsesContinueVote | medusa::kUsesVertexFrontier | medusa::kUsesReceived |
                              medusa::kUsesMessages);
};

namespace sssp_test {
using ProgramN = medusa::ProgramTraits<VertexN, EdgeN>;
using ProgramQ = medusa::ProgramTraits<VertexQ, EdgeQ>;
using Ctx = medusa::KernelCtx<int>;

// ---- SSSP-N --------------------------------------------------------------------------------------
namespace medusa_gen_Relax {
struct Head : medusa::VertexHandle<int> {
  const int& dist;
};
struct Edge : medusa::EdgeHandle<int> {
  const int& weight;
  const ProgramN::VertexArrays* va;
  MEDUSA_HD Head head() const { return Head{{medusa_ctx_, medusa_head_}, va->dist[medusa_head_]}; }
};
struct Relax {
  MEDUSA_HD void operator()(Edge& e) const {
    const int d = e.head().dist;
    if (d != kUnreached) e.sendMsg(d + e.weight);
  }
};
struct Relax_element {
  Relax f;
  MEDUSA_HD void operator()(const Ctx& c, const ProgramN::VertexArrays& va,
                            const ProgramN::EdgeArrays& ea, medusa::EdgeIndex e) const {
    Edge p{{&c, e, c.edge_src[e], c.out_dst[e]}, ea.weight[e], &va};
    f(p);
  }
};
}  // namespace medusa_gen_Relax
using Relax = medusa_gen_Relax::Relax;

namespace medusa_gen_Lower {
struct Vertex : medusa::VertexHandle<int> {
  int& dist;
};
struct Lower {
  MEDUSA_HD void operator()(Vertex& v) const {
    if (v.combined_msg() < v.dist) {
      v.dist = v.combined_msg();
      medusa::Continue();
    }
  }
};
struct Lower_element {
  Lower f;
  MEDUSA_HD void operator()(const Ctx& c, const ProgramN::VertexArrays& va,
                            const ProgramN::EdgeArrays&, medusa::VertexId id) const {
    Vertex v{{&c, id}, va.dist[id]};
    f(v);
  }
};
}  // namespace medusa_gen_Lower
using Lower = medusa_gen_Lower::Lower;

// ---- SSSP-Q --------------------------------------------------------------------------------------
namespace medusa_gen_RelaxOut {
struct Vertex : medusa::VertexHandle<int> {
  const int& dist;
};
struct Edge : medusa::EdgeHandle<int> {
  using message_type = int;
  using arrays_type = ProgramQ::EdgeArrays;
  const int& weight;
  static MEDUSA_HD Edge make(const Ctx& c, const arrays_type& a, medusa::EdgeIndex e,
                             medusa::VertexId head, medusa::VertexId tail) {
    return Edge{{&c, e, head, tail}, a.weight[e]};
  }
};
struct RelaxOut {
  MEDUSA_HD void operator()(Vertex& v, medusa::EdgeList<Edge>& el) const {
    for (std::uint32_t i = 0; i < el.size(); ++i) el[i].sendMsg(v.dist + el[i].weight);
  }
};
struct RelaxOut_element {
  RelaxOut f;
  MEDUSA_HD void operator()(const Ctx& c, const ProgramQ::VertexArrays& va,
                            const ProgramQ::EdgeArrays& ea, medusa::VertexId id) const {
    Vertex v{{&c, id}, va.dist[id]};
    medusa::EdgeList<Edge> el(&c, &ea, id);
    f(v, el);
  }
};
}  // namespace medusa_gen_RelaxOut
using RelaxOut = medusa_gen_RelaxOut::RelaxOut;

namespace medusa_gen_Improve {
struct Vertex : medusa::VertexHandle<int> {
  int& dist;
};
struct Improve {
  MEDUSA_HD void operator()(Vertex& v) const {
    if (v.combined_msg() < v.dist) {
      v.dist = v.combined_msg();
      v.SetActive();
      medusa::Continue();
    }
  }
};
struct Improve_element {
  Improve f;
  MEDUSA_HD void operator()(const Ctx& c, const ProgramQ::VertexArrays& va,
                            const ProgramQ::EdgeArrays&, medusa::VertexId id) const {
    Vertex v{{&c, id}, va.dist[id]};
    f(v);
  }
};
}  // namespace medusa_gen_Improve
using Improve = medusa_gen_Improve::Improve;

}  // namespace sssp_test

MEDUSA_TEST_EMV_LAUNCH(sssp_test::Relax, EDGE, sssp_test::medusa_gen_Relax::Relax_element, sssp_test::ProgramN)
MEDUSA_TEST_EMV_LAUNCH(sssp_test::Lower, VERTEX, sssp_test::medusa_gen_Lower::Lower_element, sssp_test::ProgramN)
MEDUSA_TEST_EMV_LAUNCH(sssp_test::RelaxOut, ELIST, sssp_test::medusa_gen_RelaxOut::RelaxOut_element, sssp_test::ProgramQ)
MEDUSA_TEST_EMV_LAUNCH(sssp_test::Improve, VERTEX, sssp_test::medusa_gen_Improve::Improve_element, sssp_test::ProgramQ)

namespace sssp_test {
void SsspN() {
  medusa::InitMessageBuffer(kUnreached);
  medusa::EMV<medusa::EDGE>::Run(Relax{});
  medusa::Combiner();
  medusa::EMV<medusa::VERTEX>::Run(Lower{});
}
void SsspQ() {
  medusa::InitMessageBuffer(kUnreached);
  medusa::EMV<medusa::ELIST>::Run(RelaxOut{}, medusa::Active);
  medusa::Combiner();
  medusa::EMV<medusa::VERTEX>::Run(Improve{}, medusa::Received);
}

std::vector<int> weights_of(const medusa_test::EdgeList& el) {
  std::vector<int> w(el.src.size());
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = medusa_test::edge_weight(i, kMaxWeight);
  return w;
}

template <class Vertex, class Edge>
medusa::Graph<Vertex, Edge> weighted_graph(const medusa_test::EdgeList& el,
                                           const std::vector<int>& w, medusa::VertexId source) {
  medusa::Graph<Vertex, Edge> graph(el.vertex_count);
  for (std::size_t i = 0; i < el.src.size(); ++i) graph.AddEdge(el.src[i], el.dst[i], Edge{w[i]});
  graph.vertex(source).dist = 0;
  return graph;
}

template <class Vertex, class Edge>
void check_distances(const medusa::Graph<Vertex, Edge>& graph, const std::vector<int>& expected) {
  std::size_t mismatches = 0;
  for (medusa::VertexId v = 0; v < graph.vertex_count(); ++v) {
    if (graph.vertex(v).dist != expected[v] && mismatches++ < 5) {
      UNSCOPED_INFO("vertex " << v << ": dist " << graph.vertex(v).dist << ", expected " << expected[v]);
    }
  }
  CHECK(mismatches == 0);
}
}  // namespace sssp_test

TEST_CASE("SSSP-N (all edges, MIN combiner) matches Dijkstra", "[runtime]") {
  using namespace sssp_test;
  // Bellman-Ford over all edges needs one superstep per hop of the longest shortest path: on
  // road-NY that is thousands of full passes, so the all-edges version runs on the small inputs.
  for (const medusa_test::NamedGraph& input : medusa_test::integration_graphs(/*with_road=*/false)) {
    if (input.graph == nullptr) {
      WARN(medusa_test::missing_graph_message(input.name));
      continue;
    }
    const medusa_test::EdgeList& el = *input.graph;
    const std::vector<int> w = weights_of(el);
    const std::vector<int> expected = medusa_test::sssp_reference(el, w, 0);
    for (const medusa_test::PartitionCase& pc : medusa_test::partition_cases(/*multi_hop=*/true)) {
      INFO("graph " << input.name << ", " << pc.name);
      auto graph = weighted_graph<VertexN, EdgeN>(el, w, 0);
      medusa::Config conf;
      conf.combinerOpType = medusa::MEDUSA_MIN;
      auto device = medusa::Init_Device_DS(graph, pc.apply(conf));
      const medusa::RunStats stats = device.Run(SsspN);
      device.Dump_Result(graph);
      check_distances(graph, expected);
      CHECK(stats.stop_reason == "no continue vote");
    }
  }
}

TEST_CASE("SSSP-Q (frontier, Received domain) matches Dijkstra", "[runtime]") {
  using namespace sssp_test;
  for (const medusa_test::NamedGraph& input : medusa_test::integration_graphs()) {
    if (input.graph == nullptr) {
      WARN(medusa_test::missing_graph_message(input.name));
      continue;
    }
    const medusa_test::EdgeList& el = *input.graph;
    const std::vector<int> w = weights_of(el);
    const medusa::VertexId source = el.vertex_count - 1;
    const std::vector<int> expected = medusa_test::sssp_reference(el, w, source);
    for (const medusa_test::PartitionCase& pc : medusa_test::partition_cases(/*multi_hop=*/false)) {
      INFO("graph " << input.name << ", " << pc.name);
      auto graph = weighted_graph<VertexQ, EdgeQ>(el, w, source);
      graph.SetActive(source);
      medusa::Config conf;
      conf.combinerOpType = medusa::MEDUSA_MIN;
      auto device = medusa::Init_Device_DS(graph, pc.apply(conf));
      const medusa::RunStats stats = device.Run(SsspQ);
      device.Dump_Result(graph);
      check_distances(graph, expected);
      CHECK(stats.stop_reason == "no continue vote");
    }
  }
}
