// What the programming guide promises about message slots: the messagesPerEdge count runs from one
// InitMessageBuffer to the next (not per superstep), a second send with m = 1 replaces the first,
// an MLIST functor may write its slots (a later Combiner folds what it wrote), and a slot no edge
// sent to keeps the InitMessageBuffer value. Backend-neutral: also compiled as CUDA.
#define MEDUSA_GENERATED 1
#include <medusa/medusa.h>

#include "support/emv_launch.h"
#include "support/random_graph.h"

#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <vector>

namespace slots_test {
struct Vertex {
  int value = 0;
  int sends = 0;       // messages along each out-edge per launch
  long long out = 0;   // what the last MLIST or VERTEX functor computed
  int untouched = 0;   // slots still holding kInit
};
struct Edge {};
constexpr long long kInit = -7;
}  // namespace slots_test

template <>
struct medusa::ProgramTraits<slots_test::Vertex, slots_test::Edge> {
  using Vertex = slots_test::Vertex;
  using Edge = slots_test::Edge;
  using Message = long long;
  struct VertexArrays {
    int* value;
    int* sends;
    long long* out;
    int* untouched;
  };
  struct EdgeArrays {};
  static constexpr std::array<medusa::FieldSpec, 4> vertex_fields{{
      {"value", offsetof(Vertex, value), sizeof(int), medusa::kUpload | medusa::kEdgeRead},
      {"sends", offsetof(Vertex, sends), sizeof(int), medusa::kUpload | medusa::kEdgeRead},
      {"out", offsetof(Vertex, out), sizeof(long long), medusa::kDownload},
      {"untouched", offsetof(Vertex, untouched), sizeof(int), medusa::kDownload},
  }};
  static constexpr std::array<medusa::FieldSpec, 0> edge_fields{};
  static VertexArrays bind_vertex(void* const* a) {
    return {static_cast<int*>(a[0]), static_cast<int*>(a[1]), static_cast<long long*>(a[2]),
            static_cast<int*>(a[3])};
  }
  static EdgeArrays bind_edge(void* const*) { return {}; }
  static constexpr medusa::ProgramUses uses = medusa::ProgramUses::of(medusa::kUsesMessages);
};

namespace slots_test {
using Program = medusa::ProgramTraits<Vertex, Edge>;
using Ctx = medusa::KernelCtx<long long>;
using VA = Program::VertexArrays;
using EA = Program::EdgeArrays;

struct VertexProxy : medusa::VertexHandle<long long> {
  const int& value;
  const int& sends;
  long long& out;
  int& untouched;
};
MEDUSA_HD inline VertexProxy make_vertex(const Ctx& c, const VA& va, medusa::VertexId id) {
  return VertexProxy{{&c, id}, va.value[id], va.sends[id], va.out[id], va.untouched[id]};
}
struct EdgeProxy : medusa::EdgeHandle<long long> {
  using message_type = long long;
  using arrays_type = EA;
  static MEDUSA_HD EdgeProxy make(const Ctx& c, const EA&, medusa::EdgeIndex e,
                                  medusa::VertexId head, medusa::VertexId tail) {
    return EdgeProxy{{&c, e, head, tail}};
  }
};

struct Send {  // ELIST: message k along each edge is value * (k + 1)
  MEDUSA_HD void operator()(VertexProxy& v, medusa::EdgeList<EdgeProxy>& el) const {
    for (std::uint32_t i = 0; i < el.size(); ++i)
      for (int k = 0; k < v.sends; ++k) el[i].sendMsg(static_cast<long long>(v.value) * (k + 1));
  }
};
struct ReadSlots {  // MLIST: sums the slots that were sent to, counts those that were not
  MEDUSA_HD void operator()(VertexProxy& v, medusa::MessageList<long long>& ml) const {
    long long sum = 0;
    int untouched = 0;
    for (std::uint32_t i = 0; i < ml.size(); ++i) {
      if (ml[i] == kInit) ++untouched;
      else sum += ml[i];
    }
    v.out = sum;
    v.untouched = untouched;
  }
};
struct DoubleSlots {  // MLIST that writes its slots
  MEDUSA_HD void operator()(VertexProxy&, medusa::MessageList<long long>& ml) const {
    for (std::uint32_t i = 0; i < ml.size(); ++i) ml[i] = ml[i] * 2;
  }
};
struct TakeCombined {  // VERTEX
  MEDUSA_HD void operator()(VertexProxy& v) const { v.out = v.combined_msg(); }
};

struct Send_element {
  Send f;
  MEDUSA_HD void operator()(const Ctx& c, const VA& va, const EA& ea, medusa::VertexId id) const {
    VertexProxy v = make_vertex(c, va, id);
    medusa::EdgeList<EdgeProxy> el(&c, &ea, id);
    f(v, el);
  }
};
template <class F>
struct Mlist_element {
  F f;
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
}  // namespace slots_test

MEDUSA_TEST_EMV_LAUNCH(slots_test::Send, ELIST, slots_test::Send_element, slots_test::Program)
MEDUSA_TEST_EMV_LAUNCH(slots_test::ReadSlots, MLIST, slots_test::Mlist_element<slots_test::ReadSlots>,
                       slots_test::Program)
MEDUSA_TEST_EMV_LAUNCH(slots_test::DoubleSlots, MLIST, slots_test::Mlist_element<slots_test::DoubleSlots>,
                       slots_test::Program)
MEDUSA_TEST_EMV_LAUNCH(slots_test::TakeCombined, VERTEX, slots_test::TakeCombined_element, slots_test::Program)

using namespace slots_test;

namespace {
// `sends(v)` messages along each out-edge of v.
template <class Sends>
medusa::Graph<Vertex, Edge> make_graph(Sends sends) {
  const auto el = medusa_test::random_graph(50, 400, 7);
  medusa::Graph<Vertex, Edge> g(el.vertex_count);
  for (medusa::VertexId v = 0; v < el.vertex_count; ++v) {
    g.vertex(v).value = static_cast<int>(v) + 1;
    g.vertex(v).sends = sends(v);
  }
  g.SetEdges(el.src, el.dst);
  return g;
}
medusa::Config supersteps(std::uint32_t n, std::uint32_t m = 1) {
  medusa::Config c;
  c.maxIteration = n;
  c.messagesPerEdge = m;
  return c;
}
}  // namespace

TEST_CASE("messagesPerEdge bounds the sends between two InitMessageBuffer calls", "[runtime]") {
  auto g = make_graph([](medusa::VertexId) { return 1; });
  // One send per edge and superstep, m = 2: fine while every superstep starts with InitMessageBuffer.
  auto every = medusa::Init_Device_DS(g, supersteps(3, 2));
  CHECK(every.Run([] {
              medusa::InitMessageBuffer(0LL);
              medusa::EMV<medusa::ELIST>::Run(Send{});
            }).supersteps == 3);
  // Only superstep 0 starts with it: the third send along an edge, in superstep 2, is one too many.
  auto once = medusa::Init_Device_DS(g, supersteps(3, 2));
  CHECK_THROWS_WITH(once.Run([] {
    if (medusa::Superstep() == 0) medusa::InitMessageBuffer(0LL);
    medusa::EMV<medusa::ELIST>::Run(Send{});
  }),
                    Catch::Contains("superstep 2: ") &&
                        Catch::Contains("more than Config::messagesPerEdge = 2 message(s) along one edge "
                                        "since the last InitMessageBuffer"));
}

TEST_CASE("With m = 1 a second send along an edge replaces the first", "[runtime]") {
  auto g = make_graph([](medusa::VertexId) { return 3; });
  auto device = medusa::Init_Device_DS(g, supersteps(1));
  device.Run([] {
    medusa::InitMessageBuffer(kInit);
    medusa::EMV<medusa::ELIST>::Run(Send{});
    medusa::EMV<medusa::MLIST>::Run(ReadSlots{});
  });
  device.Dump_Result(g);
  std::vector<long long> last(g.vertex_count(), 0);
  for (medusa::EdgeIndex i = 0; i < g.edge_count(); ++i) last[g.edge_dst(i)] += 3LL * (g.edge_src(i) + 1);
  for (medusa::VertexId v = 0; v < g.vertex_count(); ++v) {
    REQUIRE(g.vertex(v).out == last[v]);
    REQUIRE(g.vertex(v).untouched == 0);
  }
}

TEST_CASE("Slots no edge sent to keep the InitMessageBuffer value", "[runtime]") {
  auto g = make_graph([](medusa::VertexId v) { return static_cast<int>(v % 2); });  // odd IDs send
  auto device = medusa::Init_Device_DS(g, supersteps(1));
  device.Run([] {
    medusa::InitMessageBuffer(kInit);
    medusa::EMV<medusa::ELIST>::Run(Send{});
    medusa::EMV<medusa::MLIST>::Run(ReadSlots{});
  });
  device.Dump_Result(g);
  std::vector<long long> sum(g.vertex_count(), 0);
  std::vector<int> silent(g.vertex_count(), 0);
  for (medusa::EdgeIndex i = 0; i < g.edge_count(); ++i) {
    if (g.edge_src(i) % 2 == 1) sum[g.edge_dst(i)] += g.edge_src(i) + 1;
    else ++silent[g.edge_dst(i)];
  }
  int checked = 0;
  for (medusa::VertexId v = 0; v < g.vertex_count(); ++v) {
    REQUIRE(g.vertex(v).out == sum[v]);
    REQUIRE(g.vertex(v).untouched == silent[v]);
    checked += silent[v];
  }
  CHECK(checked > 0);
}

TEST_CASE("An MLIST functor may write its slots, and a later Combiner folds what it wrote", "[runtime]") {
  auto g = make_graph([](medusa::VertexId) { return 1; });
  auto device = medusa::Init_Device_DS(g, supersteps(1));
  device.Run([] {
    medusa::InitMessageBuffer(0LL);
    medusa::EMV<medusa::ELIST>::Run(Send{});
    medusa::EMV<medusa::MLIST>::Run(DoubleSlots{});
    medusa::Combiner();
    medusa::EMV<medusa::VERTEX>::Run(TakeCombined{});
  });
  device.Dump_Result(g);
  std::vector<long long> doubled(g.vertex_count(), 0);
  for (medusa::EdgeIndex i = 0; i < g.edge_count(); ++i) doubled[g.edge_dst(i)] += 2LL * (g.edge_src(i) + 1);
  for (medusa::VertexId v = 0; v < g.vertex_count(); ++v) REQUIRE(g.vertex(v).out == doubled[v]);
}
