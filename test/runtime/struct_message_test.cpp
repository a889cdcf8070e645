// A struct message type with a user-defined combiner operator (CombinerLaunch), and the errors
// for built-in operators / wrong InitMessageBuffer values on such a type. Backend-neutral.
#define MEDUSA_GENERATED 1
#include <medusa/medusa.h>

#include "support/emv_launch.h"

#include <catch2/catch.hpp>

#include <array>
#include <climits>
#include <cstddef>

namespace struct_msg_test {

// The best (shortest) offer a vertex received, and from whom.
struct Offer {
  int length;
  unsigned from;
};
struct Vertex {
  int base = 0;
  int best = 0;
  unsigned best_from = 0;
};
struct Edge {
  int length = 0;
};

}  // namespace struct_msg_test

template <>
struct medusa::ProgramTraits<struct_msg_test::Vertex, struct_msg_test::Edge> {
  using Vertex = struct_msg_test::Vertex;
  using Edge = struct_msg_test::Edge;
  using Message = struct_msg_test::Offer;
  struct VertexArrays {
    int* base;
    int* best;
    unsigned* best_from;
  };
  struct EdgeArrays {
    int* length;
  };
  static constexpr std::array<medusa::FieldSpec, 3> vertex_fields{{
      {"base", offsetof(Vertex, base), sizeof(int), medusa::kUpload | medusa::kEdgeRead},
      {"best", offsetof(Vertex, best), sizeof(int), medusa::kDownload},
      {"best_from", offsetof(Vertex, best_from), sizeof(unsigned), medusa::kDownload},
  }};
  static constexpr std::array<medusa::FieldSpec, 1> edge_fields{{
      {"length", offsetof(Edge, length), sizeof(int), medusa::kUpload},
  }};
  static VertexArrays bind_vertex(void* const* a) {
    return {static_cast<int*>(a[0]), static_cast<int*>(a[1]), static_cast<unsigned*>(a[2])};
  }
  static EdgeArrays bind_edge(void* const* a) { return {static_cast<int*>(a[0])}; }
  static constexpr medusa::ProgramUses uses = medusa::ProgramUses::of(medusa::kUsesMessages);
};

namespace struct_msg_test {

using Program = medusa::ProgramTraits<Vertex, Edge>;
using Ctx = medusa::KernelCtx<Offer>;
using VA = Program::VertexArrays;
using EA = Program::EdgeArrays;

struct VertexProxy : medusa::VertexHandle<Offer> {
  const int& base;
  int& best;
  unsigned& best_from;
};
struct EdgeProxy : medusa::EdgeHandle<Offer> {
  using message_type = Offer;
  using arrays_type = EA;
  const int& length;
  static MEDUSA_HD EdgeProxy make(const Ctx& c, const EA& a, medusa::EdgeIndex e,
                                  medusa::VertexId head, medusa::VertexId tail) {
    return EdgeProxy{{&c, e, head, tail}, a.length[e]};
  }
};

// User code.
struct SendOffers {  // ELIST
  MEDUSA_HD void operator()(VertexProxy& v, medusa::EdgeList<EdgeProxy>& el) const {
    for (std::uint32_t i = 0; i < el.size(); ++i) el[i].sendMsg(Offer{v.base + el[i].length, v.id()});
  }
};
struct KeepBest {  // VERTEX
  MEDUSA_HD void operator()(VertexProxy& v) const {
    const Offer o = v.combined_msg();
    v.best = o.length;
    v.best_from = o.from;
  }
};
// Associative and commutative: the shorter offer, ties broken by the smaller sender.
struct ShorterOffer {
  MEDUSA_HD Offer operator()(const Offer& a, const Offer& b) const {
    if (a.length != b.length) return a.length < b.length ? a : b;
    return a.from <= b.from ? a : b;
  }
};

struct SendOffers_element {
  SendOffers f;
  MEDUSA_HD void operator()(const Ctx& c, const VA& va, const EA& ea, medusa::VertexId id) const {
    VertexProxy v{{&c, id}, va.base[id], va.best[id], va.best_from[id]};
    medusa::EdgeList<EdgeProxy> el(&c, &ea, id);
    f(v, el);
  }
};
struct KeepBest_element {
  KeepBest f;
  MEDUSA_HD void operator()(const Ctx& c, const VA& va, const EA&, medusa::VertexId id) const {
    VertexProxy v{{&c, id}, va.base[id], va.best[id], va.best_from[id]};
    f(v);
  }
};

}  // namespace struct_msg_test

MEDUSA_TEST_EMV_LAUNCH(struct_msg_test::SendOffers, ELIST, struct_msg_test::SendOffers_element, struct_msg_test::Program)
MEDUSA_TEST_EMV_LAUNCH(struct_msg_test::KeepBest, VERTEX, struct_msg_test::KeepBest_element, struct_msg_test::Program)
MEDUSA_TEST_COMBINER_LAUNCH(struct_msg_test::ShorterOffer, struct_msg_test::Program)

using namespace struct_msg_test;

TEST_CASE("A struct message with a user-defined combiner operator", "[runtime]") {
  medusa::Graph<Vertex, Edge> g(5);
  const int bases[5] = {10, 1, 4, 0, 7};
  for (medusa::VertexId v = 0; v < 5; ++v) g.vertex(v).base = bases[v];
  g.AddEdge(0, 2, Edge{1});  // offer 11 from 0
  g.AddEdge(1, 2, Edge{9});  // offer 10 from 1
  g.AddEdge(4, 2, Edge{3});  // offer 10 from 4 (tie: 1 wins)
  g.AddEdge(3, 4, Edge{5});  // offer 5 from 3
  g.AddEdge(2, 4, Edge{2});  // offer 6 from 2
  medusa::Config conf;
  conf.maxIteration = 1;
  auto device = medusa::Init_Device_DS(g, conf);
  device.Run([] {
    medusa::InitMessageBuffer(Offer{INT_MAX, 99u});
    medusa::EMV<medusa::ELIST>::Run(SendOffers{});
    medusa::Combiner(ShorterOffer{});
    medusa::EMV<medusa::VERTEX>::Run(KeepBest{});
  });
  device.Dump_Result(g);
  CHECK(g.vertex(2).best == 10);
  CHECK(g.vertex(2).best_from == 1u);
  CHECK(g.vertex(4).best == 5);
  CHECK(g.vertex(4).best_from == 3u);
  CHECK(g.vertex(0).best == INT_MAX);  // no messages: the InitMessageBuffer value
  CHECK(g.vertex(0).best_from == 99u);
}

TEST_CASE("Built-in combiners on a struct message ask for Combiner(op)", "[runtime]") {
  medusa::Graph<Vertex, Edge> g(2);
  g.AddEdge(0, 1, Edge{1});
  medusa::Config conf;
  conf.maxIteration = 1;
  conf.combinerOpType = medusa::MEDUSA_MIN;
  auto device = medusa::Init_Device_DS(g, conf);
  CHECK_THROWS_WITH(device.Run([] {
    medusa::InitMessageBuffer(Offer{0, 0u});
    medusa::Combiner();
  }),
                    Catch::Contains("MEDUSA_MIN") && Catch::Contains("Combiner(op)"));
  CHECK_THROWS_WITH(device.Run([] { medusa::InitMessageBuffer(5); }),
                    Catch::Contains("InitMessageBuffer") && Catch::Contains("message type"));
}
