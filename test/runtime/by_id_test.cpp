// Reads and sends by vertex id (medusa/by_id.h), as medusa-cc emits them, written by hand: edge
// messages and sends by id folded together by every idempotent and non-idempotent built-in
// combiner, the receivers they make, a read of another vertex's field, on one partition and on
// several (common/by_id_exchange.h), pointer jumping whose reads by id must see the last
// superstep's writes, and the refusals. Backend-neutral.
#define MEDUSA_GENERATED 1
#include <medusa/medusa.h>

#include "support/emv_launch.h"
#include "support/test_graphs.h"

#include <catch2/catch.hpp>

#include <array>
#include <climits>
#include <cstddef>
#include <vector>

namespace by_id_test {
struct Vertex {
  int target = -1;  // the vertex it sends to by id; -1: none
  int heard = -1;   // combined_msg(), where it received
  int peer = -1;    // the target's own target, read by id
};
struct Edge {};
}  // namespace by_id_test

template <>
struct medusa::ProgramTraits<by_id_test::Vertex, by_id_test::Edge> {
  using Vertex = by_id_test::Vertex;
  using Edge = by_id_test::Edge;
  using Message = int;
  struct VertexArrays {
    int* target;
    int* heard;
    int* peer;
  };
  struct EdgeArrays {};
  static constexpr std::array<medusa::FieldSpec, 3> vertex_fields{{
      {"target", offsetof(Vertex, target), sizeof(int), medusa::kUpload | medusa::kByIdRead},
      {"heard", offsetof(Vertex, heard), sizeof(int), medusa::kUpload | medusa::kDownload},
      {"peer", offsetof(Vertex, peer), sizeof(int), medusa::kUpload | medusa::kDownload},
  }};
  static constexpr std::array<medusa::FieldSpec, 0> edge_fields{};
  static VertexArrays bind_vertex(void* const* a) {
    return {static_cast<int*>(a[0]), static_cast<int*>(a[1]), static_cast<int*>(a[2])};
  }
  static EdgeArrays bind_edge(void* const*) { return {}; }
  static constexpr medusa::ProgramUses uses = medusa::ProgramUses::of(
      medusa::kUsesMessages | medusa::kUsesReceived | medusa::kUsesReadsById | medusa::kUsesSendsById);
};

namespace by_id_test {
using Program = medusa::ProgramTraits<Vertex, Edge>;
using Ctx = medusa::KernelCtx<int>;
namespace gen {
struct VertexProxy : medusa::VertexHandle<int> {
  const Program::VertexArrays* medusa_va_;
  MEDUSA_HD VertexProxy medusa_vertex_at(medusa::VertexId id) const {
    return VertexProxy{{medusa_ctx_, id}, medusa_va_, medusa::by_id_arrays(*medusa_ctx_, medusa_va_).target[id],
                       medusa_va_->heard[id], medusa_va_->peer[id]};
  }
  int& target;
  int& heard;
  int& peer;
};
struct EdgeProxy : medusa::EdgeHandle<int> {
  using message_type = int;
  using arrays_type = Program::EdgeArrays;
  MEDUSA_HD static EdgeProxy make(const Ctx& c, const Program::EdgeArrays&, medusa::EdgeIndex e, medusa::VertexId head,
                                  medusa::VertexId tail) {
    return EdgeProxy{{&c, e, head, tail}};
  }
};
// Each vertex sends its id along its out-edges (Announce), and 1000 + its id to its target (Point;
// PointFromElist, refused on partitions under sum).
struct Announce {
  MEDUSA_HD void operator()(VertexProxy& v, medusa::EdgeList<EdgeProxy>& el) const {
    for (unsigned int i = 0; i < el.size(); i++) el[i].sendMsg(static_cast<int>(v.id()));
  }
};
struct Announce_element {
  static constexpr bool medusa_reads_by_id = false;
  static constexpr bool medusa_writes_by_id_fields = false;
  static constexpr bool medusa_sends_by_id = false;
  Announce f;
  MEDUSA_HD void operator()(const Ctx& c, const Program::VertexArrays& va, const Program::EdgeArrays& ea,
                            medusa::VertexId id) const {
    VertexProxy v{{&c, id}, &va, va.target[id], va.heard[id], va.peer[id]};
    medusa::EdgeList<EdgeProxy> el(&c, &ea, id);
    f(v, el);
  }
};
struct Point {
  MEDUSA_HD void operator()(VertexProxy& v) const {
    if (v.target >= 0) v.sendMsgTo(static_cast<medusa::VertexId>(v.target), 1000 + static_cast<int>(v.id()));
  }
};
struct Point_element {
  static constexpr bool medusa_reads_by_id = false;
  static constexpr bool medusa_writes_by_id_fields = false;
  static constexpr bool medusa_sends_by_id = true;
  Point f;
  MEDUSA_HD void operator()(const Ctx& c, const Program::VertexArrays& va, const Program::EdgeArrays&,
                            medusa::VertexId id) const {
    VertexProxy v{{&c, id}, &va, va.target[id], va.heard[id], va.peer[id]};
    f(v);
  }
};
struct PointFromElist {
  MEDUSA_HD void operator()(VertexProxy& v, medusa::EdgeList<EdgeProxy>&) const { Point{}(v); }
};
struct PointFromElist_element {
  static constexpr bool medusa_reads_by_id = false;
  static constexpr bool medusa_writes_by_id_fields = false;
  static constexpr bool medusa_sends_by_id = true;
  PointFromElist f;
  MEDUSA_HD void operator()(const Ctx& c, const Program::VertexArrays& va, const Program::EdgeArrays& ea,
                            medusa::VertexId id) const {
    VertexProxy v{{&c, id}, &va, va.target[id], va.heard[id], va.peer[id]};
    medusa::EdgeList<EdgeProxy> el(&c, &ea, id);
    f(v, el);
  }
};
struct Listen {
  MEDUSA_HD void operator()(VertexProxy& v) const {
    v.heard = v.combined_msg();
    if (v.target >= 0) v.peer = medusa::vertex_at(v, static_cast<medusa::VertexId>(v.target)).target;
  }
};
struct Listen_element {
  static constexpr bool medusa_reads_by_id = true;
  static constexpr bool medusa_writes_by_id_fields = false;
  static constexpr bool medusa_sends_by_id = false;
  Listen f;
  MEDUSA_HD void operator()(const Ctx& c, const Program::VertexArrays& va, const Program::EdgeArrays&,
                            medusa::VertexId id) const {
    VertexProxy v{{&c, id}, &va, va.target[id], va.heard[id], va.peer[id]};
    f(v);
  }
};
struct Keep {  // a user's combiner operator: refused with sends by id
  MEDUSA_HD int operator()(const int& a, const int&) const { return a; }
};
}  // namespace gen
using Announce = gen::Announce;
using Point = gen::Point;
using PointFromElist = gen::PointFromElist;
using Listen = gen::Listen;
using Keep = gen::Keep;
}  // namespace by_id_test

MEDUSA_TEST_EMV_LAUNCH(by_id_test::Announce, ELIST, by_id_test::gen::Announce_element, by_id_test::Program)
MEDUSA_TEST_EMV_LAUNCH(by_id_test::Point, VERTEX, by_id_test::gen::Point_element, by_id_test::Program)
MEDUSA_TEST_EMV_LAUNCH(by_id_test::PointFromElist, ELIST, by_id_test::gen::PointFromElist_element, by_id_test::Program)
MEDUSA_TEST_EMV_LAUNCH(by_id_test::Listen, VERTEX, by_id_test::gen::Listen_element, by_id_test::Program)
MEDUSA_TEST_COMBINER_LAUNCH(by_id_test::Keep, by_id_test::Program)

namespace by_id_test {
int fill = 0;
void iteration() {
  medusa::InitMessageBuffer(fill);
  medusa::EMV<medusa::ELIST>::Run(Announce{});
  medusa::EMV<medusa::VERTEX>::Run(Point{});
  medusa::Combiner();
  medusa::EMV<medusa::VERTEX>::Run(Listen{}, medusa::Received);
}
void point_from_elist() {
  medusa::InitMessageBuffer(0);
  medusa::EMV<medusa::ELIST>::Run(PointFromElist{});
  medusa::Combiner();
}
void with_user_combiner() {
  medusa::InitMessageBuffer(0);
  medusa::EMV<medusa::ELIST>::Run(Announce{});
  medusa::Combiner(Keep{});
}
}  // namespace by_id_test

namespace {
constexpr medusa::VertexId kVertices = 300;

// Even vertices have an out-edge, every fifth vertex a target: some vertices receive nothing.
medusa::Graph<by_id_test::Vertex, by_id_test::Edge> by_id_graph(std::vector<std::vector<int>>& edge_messages,
                                                                 std::vector<std::vector<int>>& id_messages) {
  medusa::Graph<by_id_test::Vertex, by_id_test::Edge> g(kVertices);
  edge_messages.assign(kVertices, {});
  id_messages.assign(kVertices, {});
  for (medusa::VertexId u = 0; u < kVertices; ++u) {
    if (u % 2 == 0) {
      const medusa::VertexId w = (u * 7 + 3) % kVertices;
      g.AddEdge(u, w);
      edge_messages[w].push_back(static_cast<int>(u));
    }
    if (u % 5 == 0) {
      const int target = static_cast<int>((u * 13 + 5) % kVertices);
      g.vertex(u).target = target;
      id_messages[target].push_back(1000 + static_cast<int>(u));
    }
  }
  return g;
}
}  // namespace

TEST_CASE("Sends by id fold with the edge messages under every built-in combiner, and reads by id", "[runtime]") {
  using namespace by_id_test;
  struct Case {
    medusa::CombinerOp op;
    int fill;
    int (*fold)(int, int);
  };
  const Case cases[] = {
      {medusa::MEDUSA_SUM, 0, [](int a, int b) { return a + b; }},
      {medusa::MEDUSA_MIN, INT_MAX, [](int a, int b) { return b < a ? b : a; }},
      {medusa::MEDUSA_MAX, INT_MIN, [](int a, int b) { return a < b ? b : a; }},
      {medusa::MEDUSA_BIT_OR, 0, [](int a, int b) { return a | b; }},
  };
  for (const medusa_test::PartitionCase& p : medusa_test::partition_cases(false))
  for (const Case& k : cases) {
    std::vector<std::vector<int>> edge_messages, id_messages;
    auto g = by_id_graph(edge_messages, id_messages);
    medusa::Config conf = p.apply({});
    conf.combinerOpType = k.op;
    conf.maxIteration = 1;
    fill = k.fill;
    auto device = medusa::Init_Device_DS(g, conf);
    device.Run(iteration);
    device.Dump_Result(g);
    for (medusa::VertexId v = 0; v < kVertices; ++v) {
      INFO(p.name << ", operator " << k.op << ", vertex " << v);
      const bool received = !edge_messages[v].empty() || !id_messages[v].empty();
      int expected = -1;
      if (received) {
        expected = k.fill;
        for (int m : edge_messages[v]) expected = k.fold(expected, m);
        for (int m : id_messages[v]) expected = k.fold(expected, m);
      }
      CHECK(g.vertex(v).heard == expected);
      const int target = g.vertex(v).target;
      CHECK(g.vertex(v).peer == (received && target >= 0 ? g.vertex(static_cast<medusa::VertexId>(target)).target : -1));
    }
  }
}

TEST_CASE("Sends by id: a user's combiner, multi-hop replicas and ELIST sends under sum on partitions are refused",
          "[runtime]") {
  using namespace by_id_test;
  std::vector<std::vector<int>> edge_messages, id_messages;
  auto g = by_id_graph(edge_messages, id_messages);
  medusa::Config conf;
  conf.maxIteration = 1;
  auto device = medusa::Init_Device_DS(g, conf);
  CHECK_THROWS_WITH(device.Run(with_user_combiner), Catch::Contains("call Combiner() instead"));
  conf.gpuCount = 2;
  conf.partitionsPerGpu = 2;  // (one GPU is enough on the CUDA backend)
  conf.replicationHops = 2;
  CHECK_THROWS_WITH(medusa::Init_Device_DS(g, conf), Catch::Contains("the program sends by vertex id"));
  conf.replicationHops = 1;
  conf.combinerOpType = medusa::MEDUSA_SUM;
  auto parts = medusa::Init_Device_DS(g, conf);
  CHECK_THROWS_WITH(parts.Run(point_from_elist), Catch::Contains("an ELIST functor sends by vertex id"));
  conf.combinerOpType = medusa::MEDUSA_MAX;  // (idempotent: a second send changes nothing)
  auto max_parts = medusa::Init_Device_DS(g, conf);
  CHECK_NOTHROW(max_parts.Run(point_from_elist));
}

// Pointer jumping over a chain: every superstep each vertex takes its parent's parent, read by id
// (Jump), then adopts it (Hop, which writes the field read by id). The answer needs every read to
// see the previous superstep's writes: a stale copy of `parent` would stop the jumps early.
namespace jump_test {
struct Vertex {
  int parent = 0;
  int next = 0;
};
struct Edge {};
}  // namespace jump_test

template <>
struct medusa::ProgramTraits<jump_test::Vertex, jump_test::Edge> {
  using Vertex = jump_test::Vertex;
  using Edge = jump_test::Edge;
  using Message = int;
  struct VertexArrays {
    int* parent;
    int* next;
  };
  struct EdgeArrays {};
  static constexpr std::array<medusa::FieldSpec, 2> vertex_fields{{
      {"parent", offsetof(Vertex, parent), sizeof(int), medusa::kUpload | medusa::kDownload | medusa::kByIdRead},
      {"next", offsetof(Vertex, next), sizeof(int), medusa::kUpload | medusa::kDownload},
  }};
  static constexpr std::array<medusa::FieldSpec, 0> edge_fields{};
  static VertexArrays bind_vertex(void* const* a) { return {static_cast<int*>(a[0]), static_cast<int*>(a[1])}; }
  static EdgeArrays bind_edge(void* const*) { return {}; }
  static constexpr medusa::ProgramUses uses =
      medusa::ProgramUses::of(medusa::kUsesContinueVote | medusa::kUsesReadsById);
};

namespace jump_test {
using Program = medusa::ProgramTraits<Vertex, Edge>;
using Ctx = medusa::KernelCtx<int>;
namespace gen {
struct JumpProxy : medusa::VertexHandle<int> {
  const Program::VertexArrays* medusa_va_;
  MEDUSA_HD JumpProxy medusa_vertex_at(medusa::VertexId id) const {
    return JumpProxy{{medusa_ctx_, id}, medusa_va_, medusa::by_id_arrays(*medusa_ctx_, medusa_va_).parent[id],
                     medusa_va_->next[id]};
  }
  const int& parent;
  int& next;
};
struct Jump {
  MEDUSA_HD void operator()(JumpProxy& v) const {
    v.next = medusa::vertex_at(v, static_cast<medusa::VertexId>(v.parent)).parent;
    if (v.next != v.parent) medusa::Continue();
  }
};
struct Jump_element {
  static constexpr bool medusa_reads_by_id = true;
  static constexpr bool medusa_writes_by_id_fields = false;
  Jump f;
  MEDUSA_HD void operator()(const Ctx& c, const Program::VertexArrays& va, const Program::EdgeArrays&,
                            medusa::VertexId id) const {
    JumpProxy v{{&c, id}, &va, va.parent[id], va.next[id]};
    f(v);
  }
};
struct HopProxy : medusa::VertexHandle<int> {
  int& parent;
  const int& next;
};
struct Hop {
  MEDUSA_HD void operator()(HopProxy& v) const { v.parent = v.next; }
};
struct Hop_element {
  static constexpr bool medusa_reads_by_id = false;
  static constexpr bool medusa_writes_by_id_fields = true;
  Hop f;
  MEDUSA_HD void operator()(const Ctx& c, const Program::VertexArrays& va, const Program::EdgeArrays&,
                            medusa::VertexId id) const {
    HopProxy v{{&c, id}, va.parent[id], va.next[id]};
    f(v);
  }
};
}  // namespace gen
using Jump = gen::Jump;
using Hop = gen::Hop;
void jumps() {
  medusa::EMV<medusa::VERTEX>::Run(Jump{});
  medusa::EMV<medusa::VERTEX>::Run(Hop{});
}
}  // namespace jump_test

MEDUSA_TEST_EMV_LAUNCH(jump_test::Jump, VERTEX, jump_test::gen::Jump_element, jump_test::Program)
MEDUSA_TEST_EMV_LAUNCH(jump_test::Hop, VERTEX, jump_test::gen::Hop_element, jump_test::Program)

TEST_CASE("Reads by id across partitions see the last superstep's writes (pointer jumping)", "[runtime]") {
  // A chain 0 <- 1 <- ... <- 299 with edges along it, so that partitions cut it: after k
  // supersteps vertex v points at max(0, v - 2^k); 300 needs 9 jumps, and a 10th finds no change.
  constexpr medusa::VertexId n = 300;
  for (const medusa_test::PartitionCase& p : medusa_test::partition_cases(false)) {
    medusa::Graph<jump_test::Vertex, jump_test::Edge> g(n);
    for (medusa::VertexId v = 0; v < n; ++v) {
      g.vertex(v).parent = v == 0 ? 0 : static_cast<int>(v - 1);
      if (v > 0) g.AddEdge(v, v - 1), g.AddEdge(v - 1, v);
    }
    auto device = medusa::Init_Device_DS(g, p.apply({}));
    const medusa::RunStats stats = device.Run(jump_test::jumps);
    device.Dump_Result(g);
    INFO(p.name);
    CHECK(stats.supersteps == 10);
    for (medusa::VertexId v = 0; v < n; ++v) CHECK(g.vertex(v).parent == 0);
  }
}
