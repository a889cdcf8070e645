// A program that sends only by id (kUsesSendsById without kUsesMessages), as medusa-cc emits it,
// written by hand: InitMessageBuffer leaves its message slots to be filled when something reads
// them (common::defers_slot_fill), so an MLIST functor and a summing Combiner must still see the
// fill value in every slot, also after a second InitMessageBuffer with another value.
// Backend-neutral.
#define MEDUSA_GENERATED 1
#include <medusa/medusa.h>

#include "support/emv_launch.h"

#include <catch2/catch.hpp>

#include <array>
#include <climits>
#include <cstddef>
#include <vector>

namespace by_id_only_test {
struct Vertex {
  int target = -1;        // the vertex it sends 1000 + its id to; -1: none
  int heard = -1;         // combined_msg()
  int slots_at_fill = -1;  // its message slots that hold the fill value (MLIST)
};
struct Edge {};
}  // namespace by_id_only_test

template <>
struct medusa::ProgramTraits<by_id_only_test::Vertex, by_id_only_test::Edge> {
  using Vertex = by_id_only_test::Vertex;
  using Edge = by_id_only_test::Edge;
  using Message = int;
  struct VertexArrays {
    int* target;
    int* heard;
    int* slots_at_fill;
  };
  struct EdgeArrays {};
  static constexpr std::array<medusa::FieldSpec, 3> vertex_fields{{
      {"target", offsetof(Vertex, target), sizeof(int), medusa::kUpload},
      {"heard", offsetof(Vertex, heard), sizeof(int), medusa::kUpload | medusa::kDownload},
      {"slots_at_fill", offsetof(Vertex, slots_at_fill), sizeof(int), medusa::kUpload | medusa::kDownload},
  }};
  static constexpr std::array<medusa::FieldSpec, 0> edge_fields{};
  static VertexArrays bind_vertex(void* const* a) {
    return {static_cast<int*>(a[0]), static_cast<int*>(a[1]), static_cast<int*>(a[2])};
  }
  static EdgeArrays bind_edge(void* const*) { return {}; }
  static constexpr medusa::ProgramUses uses = medusa::ProgramUses::of(medusa::kUsesSendsById);
};

namespace by_id_only_test {
using Program = medusa::ProgramTraits<Vertex, Edge>;
using Ctx = medusa::KernelCtx<int>;
namespace gen {
struct VertexProxy : medusa::VertexHandle<int> {
  int& target;
  int& heard;
  int& slots_at_fill;
};
struct EdgeProxy : medusa::EdgeHandle<int> {
  using message_type = int;
  using arrays_type = Program::EdgeArrays;
  MEDUSA_HD static EdgeProxy make(const Ctx& c, const Program::EdgeArrays&, medusa::EdgeIndex e, medusa::VertexId head,
                                  medusa::VertexId tail) {
    return EdgeProxy{{&c, e, head, tail}};
  }
};
MEDUSA_HD inline VertexProxy make_vertex(const Ctx& c, const Program::VertexArrays& va, medusa::VertexId id) {
  return VertexProxy{{&c, id}, va.target[id], va.heard[id], va.slots_at_fill[id]};
}
struct SendToTarget {  // ELIST that reads no edge: it sends by id only
  MEDUSA_HD void operator()(VertexProxy& v, medusa::EdgeList<EdgeProxy>&) const {
    if (v.target >= 0) v.sendMsgTo(static_cast<medusa::VertexId>(v.target), 1000 + static_cast<int>(v.id()));
  }
};
struct CountFillSlots {  // MLIST; `fill` is the InitMessageBuffer value
  int fill;
  MEDUSA_HD void operator()(VertexProxy& v, medusa::MessageList<int>& ml) const {
    int at_fill = 0;
    for (std::uint32_t i = 0; i < ml.size(); ++i)
      if (ml[i] == fill) ++at_fill;
    v.slots_at_fill = at_fill;
  }
};
struct Listen {  // VERTEX
  MEDUSA_HD void operator()(VertexProxy& v) const { v.heard = v.combined_msg(); }
};

struct SendToTarget_element {
  SendToTarget f;
  MEDUSA_HD void operator()(const Ctx& c, const Program::VertexArrays& va, const Program::EdgeArrays& ea,
                            medusa::VertexId id) const {
    VertexProxy v = make_vertex(c, va, id);
    medusa::EdgeList<EdgeProxy> el(&c, &ea, id);
    f(v, el);
  }
};
struct CountFillSlots_element {
  CountFillSlots f;
  MEDUSA_HD void operator()(const Ctx& c, const Program::VertexArrays& va, const Program::EdgeArrays&,
                            medusa::VertexId id) const {
    VertexProxy v = make_vertex(c, va, id);
    medusa::MessageList<int> ml(&c, id);
    f(v, ml);
  }
};
struct Listen_element {
  Listen f;
  MEDUSA_HD void operator()(const Ctx& c, const Program::VertexArrays& va, const Program::EdgeArrays&,
                            medusa::VertexId id) const {
    VertexProxy v = make_vertex(c, va, id);
    f(v);
  }
};
}  // namespace gen
using SendToTarget = gen::SendToTarget;
using CountFillSlots = gen::CountFillSlots;
using Listen = gen::Listen;
}  // namespace by_id_only_test

MEDUSA_TEST_EMV_LAUNCH(by_id_only_test::SendToTarget, ELIST, by_id_only_test::gen::SendToTarget_element,
                       by_id_only_test::Program)
MEDUSA_TEST_EMV_LAUNCH(by_id_only_test::CountFillSlots, MLIST, by_id_only_test::gen::CountFillSlots_element,
                       by_id_only_test::Program)
MEDUSA_TEST_EMV_LAUNCH(by_id_only_test::Listen, VERTEX, by_id_only_test::gen::Listen_element,
                       by_id_only_test::Program)

namespace by_id_only_test {
int fill = 0;
bool read_slots = false;
void iteration() {
  medusa::InitMessageBuffer(fill);
  medusa::EMV<medusa::ELIST>::Run(SendToTarget{});
  if (read_slots) medusa::EMV<medusa::MLIST>::Run(CountFillSlots{fill});
  medusa::Combiner();
  medusa::EMV<medusa::VERTEX>::Run(Listen{});
}
}  // namespace by_id_only_test

TEST_CASE("A program that sends only by id: its slots hold the InitMessageBuffer value when read", "[runtime]") {
  using namespace by_id_only_test;
  constexpr medusa::VertexId kVertices = 200;
  medusa::Graph<Vertex, Edge> g(kVertices);
  std::vector<int> in_degree(kVertices, 0);
  std::vector<std::vector<int>> sent(kVertices);
  for (medusa::VertexId u = 0; u < kVertices; ++u) {
    for (medusa::VertexId k = 1; k <= u % 4; ++k) {  // 0 to 3 out-edges
      const medusa::VertexId w = (u * 11 + k * 37) % kVertices;
      g.AddEdge(u, w);
      ++in_degree[w];
    }
    if (u % 3 == 0) {
      g.vertex(u).target = static_cast<int>((u * 17 + 1) % kVertices);
      sent[static_cast<std::size_t>(g.vertex(u).target)].push_back(1000 + static_cast<int>(u));
    }
  }
  // Per case: the Combiner's operator, and the two fills of the two runs on one device.
  struct Case {
    medusa::CombinerOp op;
    int fills[2];
    bool read_slots;
  };
  const Case cases[] = {
      {medusa::MEDUSA_SUM, {3, 5}, true},     // the Combiner folds every slot (fill) too
      {medusa::MEDUSA_SUM, {3, 5}, false},    // ... with no MLIST launch before it
      {medusa::MEDUSA_MIN, {INT_MAX, 2000}, true},  // the sends alone, but MLIST reads the slots
  };
  for (const Case& k : cases) {
    medusa::Config conf;
    conf.combinerOpType = k.op;
    conf.maxIteration = 1;
    read_slots = k.read_slots;
    auto device = medusa::Init_Device_DS(g, conf);
    for (int run = 0; run < 2; ++run) {
      fill = k.fills[run];
      device.Run(iteration);
      medusa::Graph<Vertex, Edge> out = g;
      device.Dump_Result(out);
      for (medusa::VertexId v = 0; v < kVertices; ++v) {
        INFO("operator " << k.op << ", run " << run << ", vertex " << v);
        int expected = fill;
        if (k.op == medusa::MEDUSA_SUM) {  // the fill, each slot's, and the sends' (which start at it)
          expected += in_degree[v] * fill + fill;
          for (int m : sent[v]) expected += m;
        } else {
          for (int m : sent[v]) expected = m < expected ? m : expected;
        }
        CHECK(out.vertex(v).heard == expected);
        CHECK(out.vertex(v).slots_at_fill == (k.read_slots ? in_degree[v] : -1));
      }
    }
  }
}
