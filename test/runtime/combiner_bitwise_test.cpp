// The bitwise combiners (MEDUSA_BIT_OR, _AND, _XOR) on a 32-bit mask message, over every path a
// built-in Combiner() takes: the plain Combiner (on CUDA binned, CUB, warp and 4-lane folds), the
// pull-fused pass over all vertices and over a frontier (one message per source, edge-dependent
// sends, one message for every source), frontiers and EDGE launches pushed into the combined
// values, and two partitions. Every run is checked against masks computed here without Medusa.
// Backend-neutral: also compiled as CUDA by test/runtime/cuda.
#define MEDUSA_GENERATED 1
#include <medusa/backend/common/combiner_ops.h>
#include <medusa/backend/common/pull_fusion.h>
#include <medusa/error.h>
#include <medusa/medusa.h>

#include "support/emv_launch.h"
#include "support/random_graph.h"
#include "support/scoped_env.h"
#include "support/test_graphs.h"

#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace bitwise_test {

struct Vertex {
  std::uint32_t mask = 0;
};
struct Edge {
  std::uint32_t weight = 0;
};

}  // namespace bitwise_test

template <>
struct medusa::ProgramTraits<bitwise_test::Vertex, bitwise_test::Edge> {
  using Vertex = bitwise_test::Vertex;
  using Edge = bitwise_test::Edge;
  using Message = std::uint32_t;
  struct VertexArrays {
    std::uint32_t* mask;
  };
  struct EdgeArrays {
    std::uint32_t* weight;
  };
  static constexpr std::array<medusa::FieldSpec, 1> vertex_fields{{
      {"mask", offsetof(Vertex, mask), sizeof(std::uint32_t), medusa::kUpload | medusa::kDownload | medusa::kEdgeRead},
  }};
  static constexpr std::array<medusa::FieldSpec, 1> edge_fields{{
      {"weight", offsetof(Edge, weight), sizeof(std::uint32_t), medusa::kUpload},
  }};
  static VertexArrays bind_vertex(void* const* a) { return {static_cast<std::uint32_t*>(a[0])}; }
  static EdgeArrays bind_edge(void* const* a) { return {static_cast<std::uint32_t*>(a[0])}; }
  // Every superstep starts with InitMessageBuffer and nothing reads a slot after its Combiner, so
  // the EDGE launch and edge-dependent frontiers are pushed without slots, as medusa-cc allows.
  static constexpr medusa::ProgramUses uses = medusa::ProgramUses::of(
      medusa::kUsesVertexFrontier | medusa::kUsesMessages | medusa::kUsesCombinerConsumesSlots);
};

namespace bitwise_test {

using Program = medusa::ProgramTraits<Vertex, Edge>;
using Msg = std::uint32_t;
using Ctx = medusa::KernelCtx<Msg>;
using VA = Program::VertexArrays;
using EA = Program::EdgeArrays;
using medusa::EdgeIndex;
using medusa::VertexId;

// ---- what the program computes, shared with the reference ----------------------------------------
MEDUSA_HD inline Msg apply(medusa::CombinerOp op, Msg a, Msg b) {
  switch (op) {
    case medusa::MEDUSA_BIT_OR: return a | b;
    case medusa::MEDUSA_BIT_AND: return a & b;
    default: return a ^ b;
  }
}
// Edge-dependent sends: some edges send nothing (their slots keep the fill value).
MEDUSA_HD inline bool edge_sends(Msg weight, std::uint32_t step) { return (weight + step) % 3 != 0; }
MEDUSA_HD inline Msg edge_message(Msg mask, Msg weight) { return mask ^ (1u << (weight % 32)); }
// The message every active source sends (BFS's next level).
MEDUSA_HD inline Msg level_message(std::uint32_t step) { return 0x0F0F0F0Fu ^ (1u << (step % 32)); }

// ---- proxies ---------------------------------------------------------------------------------------
struct VertexProxy : medusa::VertexHandle<Msg> {
  Msg& mask;
};
MEDUSA_HD inline VertexProxy make_vertex(const Ctx& c, const VA& va, VertexId id) {
  return VertexProxy{{&c, id}, va.mask[id]};
}
struct HeadProxy : medusa::VertexHandle<Msg> {
  const Msg& mask;
};
struct EdgeProxy : medusa::EdgeHandle<Msg> {
  using message_type = Msg;
  using arrays_type = EA;
  Msg& weight;
  const VA* va;  // for head(); null in edge lists
  static MEDUSA_HD EdgeProxy make(const Ctx& c, const EA& a, EdgeIndex e, VertexId head, VertexId tail) {
    return EdgeProxy{{&c, e, head, tail}, a.weight[e], nullptr};
  }
  MEDUSA_HD HeadProxy head() const { return HeadProxy{{medusa_ctx_, medusa_head_}, va->mask[medusa_head_]}; }
};

// ---- user functors -------------------------------------------------------------------------------
struct SendHeadMask {  // EDGE
  MEDUSA_HD void operator()(EdgeProxy& e) const {
    if (edge_sends(e.weight, medusa::Superstep())) e.sendMsg(edge_message(e.head().mask, e.weight));
  }
};
struct SendPerEdge {  // ELIST, edge-parallel, edge-dependent
  MEDUSA_HD void operator()(VertexProxy& v, medusa::EdgeList<EdgeProxy>& el) const {
    for (std::uint32_t i = 0; i < el.size(); ++i) edge(v, el, i);
  }
  MEDUSA_HD void edge(VertexProxy& v, medusa::EdgeList<EdgeProxy>& el, std::uint32_t i) const {
    EdgeProxy e = el[i];
    if (edge_sends(e.weight, medusa::Superstep())) e.sendMsg(edge_message(v.mask, e.weight));
  }
};
struct SendMask {  // ELIST, uniform: the source's mask
  MEDUSA_HD void operator()(VertexProxy& v, medusa::EdgeList<EdgeProxy>& el) const {
    for (std::uint32_t i = 0; i < el.size(); ++i) el[i].sendMsg(message(v));
  }
  MEDUSA_HD Msg message(VertexProxy& v) const { return v.mask; }
};
struct SendLevel {  // ELIST, uniform: one message for every source
  MEDUSA_HD void operator()(VertexProxy& v, medusa::EdgeList<EdgeProxy>& el) const {
    for (std::uint32_t i = 0; i < el.size(); ++i) el[i].sendMsg(message(v));
  }
  MEDUSA_HD Msg message(VertexProxy&) const { return level_message(medusa::Superstep()); }
};
struct Update {  // VERTEX: folds the combined value into the mask; a changed vertex is active next
  medusa::CombinerOp op;
  MEDUSA_HD void operator()(VertexProxy& v) const {
    const Msg next = apply(op, v.mask, v.combined_msg());
    if (next != v.mask) v.SetActive();
    v.mask = next;
  }
};

// ---- element functors ----------------------------------------------------------------------------
struct Update_element {
  Update f;
  MEDUSA_HD void operator()(const Ctx& c, const VA& va, const EA&, VertexId id) const {
    VertexProxy v = make_vertex(c, va, id);
    f(v);
  }
};
struct SendHeadMask_element {
  SendHeadMask f;
  MEDUSA_HD void operator()(const Ctx& c, const VA& va, const EA& ea, EdgeIndex e) const {
    EdgeProxy p{{&c, e, c.edge_src[e], c.out_dst[e]}, ea.weight[e], &va};
    f(p);
  }
};
struct SendPerEdge_edge_element {
  SendPerEdge f;
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
  MEDUSA_HD Msg medusa_source_message(const Ctx& c, const VA& va, const EA&, VertexId id) const {
    VertexProxy v = make_vertex(c, va, id);
    return f.message(v);
  }
};

}  // namespace bitwise_test

MEDUSA_TEST_EMV_LAUNCH(bitwise_test::Update, VERTEX, bitwise_test::Update_element, bitwise_test::Program)
MEDUSA_TEST_EMV_LAUNCH(bitwise_test::SendHeadMask, EDGE, bitwise_test::SendHeadMask_element, bitwise_test::Program)
MEDUSA_TEST_EMV_EDGES_LAUNCH(bitwise_test::SendPerEdge, bitwise_test::SendPerEdge_edge_element, bitwise_test::Program)
MEDUSA_TEST_EMV_EDGES_LAUNCH(bitwise_test::SendMask, bitwise_test::UniformSendElement<bitwise_test::SendMask>,
                             bitwise_test::Program)
MEDUSA_TEST_EMV_EDGES_LAUNCH(bitwise_test::SendLevel, bitwise_test::UniformSendElement<bitwise_test::SendLevel>,
                             bitwise_test::Program)

namespace bitwise_test {

using GraphT = medusa::Graph<Vertex, Edge>;
enum class Sender { Edge, PerEdge, Mask, Level };
constexpr std::uint32_t kSteps = 3;

// A random graph with a hub of 2,600 in-edges (the CUDA Combiner's block-chunk bin), one of 120
// (its warp bin), vertices without in-edges, and every fifth vertex active at the start.
struct Input {
  std::vector<VertexId> src, dst;
  std::vector<Msg> weight;
  std::vector<std::uint8_t> active;
  std::uint32_t n = 301;  // the last vertex has no edges at all
};
Input make_input() {
  Input in;
  const auto el = medusa_test::random_graph(300, 1500, 11);
  in.src = el.src;
  in.dst = el.dst;
  for (std::uint32_t k = 0; k < 2600; ++k) in.src.push_back(k % 300), in.dst.push_back(7);
  for (std::uint32_t k = 0; k < 120; ++k) in.src.push_back((k * 7) % 300), in.dst.push_back(150);
  for (std::size_t i = 0; i < in.src.size(); ++i)
    in.weight.push_back(static_cast<Msg>(medusa_test::edge_weight(i, 1000)));
  for (std::uint32_t v = 0; v < in.n; ++v) in.active.push_back(v % 5 == 0 ? 1 : 0);
  return in;
}
// Two bits per vertex (all bits but two under and, which would clear a sparse mask at once).
Msg initial_mask(medusa::CombinerOp op, VertexId v) {
  const Msg bits = (1u << (v % 32)) | (1u << ((v * 7 + 3) % 32));
  return op == medusa::MEDUSA_BIT_AND ? ~bits : bits;
}

// The masks after kSteps supersteps of: InitMessageBuffer(fill); send; Combiner(); Update. An edge
// whose source is inactive (or that sends nothing) holds the fill value, and the Combiner folds
// the fill value with every slot.
std::vector<Msg> reference(const Input& in, medusa::CombinerOp op, Msg fill, Sender sender, medusa::Domain domain) {
  std::vector<Msg> mask(in.n);
  for (VertexId v = 0; v < in.n; ++v) mask[v] = initial_mask(op, v);
  std::vector<std::uint8_t> active = in.active;
  for (std::uint32_t step = 0; step < kSteps; ++step) {
    std::vector<Msg> combined(in.n, fill);
    for (std::size_t i = 0; i < in.src.size(); ++i) {
      const VertexId u = in.src[i];
      const bool runs = domain == medusa::Domain::All || active[u] != 0;
      bool sent = runs;
      Msg x = 0;
      switch (sender) {
        case Sender::Edge:
        case Sender::PerEdge:
          sent = runs && edge_sends(in.weight[i], step);
          x = edge_message(mask[u], in.weight[i]);
          break;
        case Sender::Mask: x = mask[u]; break;
        case Sender::Level: x = level_message(step); break;
      }
      combined[in.dst[i]] = apply(op, combined[in.dst[i]], sent ? x : fill);
    }
    for (VertexId v = 0; v < in.n; ++v) {
      const Msg next = apply(op, mask[v], combined[v]);
      active[v] = next != mask[v] ? 1 : 0;
      mask[v] = next;
    }
  }
  return mask;
}

// `update_op` folds the combined value into the mask (the Combiner's operator unless given).
std::vector<Msg> run(const Input& in, medusa::CombinerOp op, Msg fill, Sender sender, medusa::Domain domain,
                     medusa::Config conf, medusa::CombinerOp update_op) {
  GraphT g(in.n);
  for (VertexId v = 0; v < in.n; ++v) {
    g.vertex(v).mask = initial_mask(op, v);
    if (in.active[v] != 0) g.SetActive(v);
  }
  for (std::size_t i = 0; i < in.src.size(); ++i) g.AddEdge(in.src[i], in.dst[i], Edge{in.weight[i]});
  conf.combinerOpType = op;
  conf.maxIteration = kSteps;
  auto device = medusa::Init_Device_DS(g, conf);
  device.Run([update_op, fill, sender, domain] {
    medusa::InitMessageBuffer(fill);
    switch (sender) {
      case Sender::Edge: medusa::EMV<medusa::EDGE>::Run(SendHeadMask{}); break;
      case Sender::PerEdge: medusa::EMV<medusa::ELIST>::Run(SendPerEdge{}, domain); break;
      case Sender::Mask: medusa::EMV<medusa::ELIST>::Run(SendMask{}, domain); break;
      case Sender::Level: medusa::EMV<medusa::ELIST>::Run(SendLevel{}, domain); break;
    }
    medusa::Combiner();
    medusa::EMV<medusa::VERTEX>::Run(Update{update_op});
  });
  device.Dump_Result(g);
  std::vector<Msg> out(in.n);
  for (VertexId v = 0; v < in.n; ++v) out[v] = g.vertex(v).mask;
  return out;
}

// Environment overrides that force each path (the CUDA ones are ignored by the host backend).
struct Path {
  const char* name;
  const char* combiner;       // MEDUSA_COMBINER
  const char* frontier_pull;  // MEDUSA_FRONTIER_PULL
  bool fusion;
  int partitions;
};
constexpr Path kPaths[] = {
    {"default", nullptr, nullptr, true, 1},
    {"unfused, binned", nullptr, nullptr, false, 1},
    {"unfused, CUB", "cub", nullptr, false, 1},
    {"unfused, warp", "warp", nullptr, false, 1},
    {"unfused, 4 lanes", "group4", nullptr, false, 1},
    {"fused, CUB", "cub", nullptr, true, 1},
    {"frontier pulled", nullptr, "always", true, 1},
    {"frontier pushed", nullptr, "never", true, 1},
    {"two partitions", nullptr, nullptr, true, 2},
};

struct OpCase {
  medusa::CombinerOp op;
  Msg identity, other_fill;
};
// The other fill value is folded with every unsent slot too: under xor it shows whether a path
// folds it as often as the Combiner does.
constexpr OpCase kOps[] = {
    {medusa::MEDUSA_BIT_OR, 0u, 0x00010000u},
    {medusa::MEDUSA_BIT_AND, ~0u, 0xFFFEFFFFu},
    {medusa::MEDUSA_BIT_XOR, 0u, 0x00010000u},
};

}  // namespace bitwise_test

using namespace bitwise_test;

TEST_CASE("Bitwise combiners match an independent fold on every Combiner path", "[runtime]") {
  const Input in = make_input();
  struct Launch {
    Sender sender;
    medusa::Domain domain;
    const char* name;
  };
  const Launch launches[] = {
      {Sender::Edge, medusa::Domain::All, "EDGE"},
      {Sender::PerEdge, medusa::Domain::All, "edge-dependent ELIST, all"},
      {Sender::PerEdge, medusa::Domain::Active, "edge-dependent ELIST, frontier"},
      {Sender::Mask, medusa::Domain::All, "one message per source, all"},
      {Sender::Mask, medusa::Domain::Active, "one message per source, frontier"},
      {Sender::Level, medusa::Domain::All, "one message for all, all"},
      {Sender::Level, medusa::Domain::Active, "one message for all, frontier"},
  };
  for (const OpCase& k : kOps) {
    for (const Msg fill : {k.identity, k.other_fill}) {
      for (const Launch& l : launches) {
        const std::vector<Msg> expected = reference(in, k.op, fill, l.sender, l.domain);
        for (const Path& p : kPaths) {
          INFO(medusa::common::combiner_op_name(k.op) << ", fill " << fill << ", " << l.name << ", " << p.name);
          const medusa_test::ScopedEnv combiner("MEDUSA_COMBINER", p.combiner);
          const medusa_test::ScopedEnv pull("MEDUSA_FRONTIER_PULL", p.frontier_pull);
          medusa::Config conf;
          conf.pullFusion = p.fusion;
          if (p.partitions > 1)
            conf = medusa_test::PartitionCase{"two", p.partitions, 1, medusa::PartitionMethod::Contiguous}.apply(conf);
          CHECK(run(in, k.op, fill, l.sender, l.domain, conf, k.op) == expected);
        }
      }
    }
  }
}

TEST_CASE("Bitwise or reaches a 32-bit mask, where logical or yields 1", "[runtime]") {
  // Issue #27's reachability mask (mask |= combined): under the logical operator every vertex
  // with in-edges ended as its own bits | 1.
  using medusa::MEDUSA_BIT_OR;
  const Input in = make_input();
  const std::vector<Msg> bitwise = run(in, MEDUSA_BIT_OR, 0, Sender::Mask, medusa::Domain::All, {}, MEDUSA_BIT_OR);
  CHECK(bitwise == reference(in, MEDUSA_BIT_OR, 0, Sender::Mask, medusa::Domain::All));
  const std::vector<Msg> logical =
      run(in, medusa::MEDUSA_LOGICAL_OR, 0, Sender::Mask, medusa::Domain::All, {}, MEDUSA_BIT_OR);
  CHECK(logical[7] == (initial_mask(MEDUSA_BIT_OR, 7) | 1u));
  CHECK(bitwise[7] != logical[7]);
}

TEST_CASE("Bitwise operators ignore repeats (or, and) or not (xor), which decides their paths", "[runtime]") {
  using namespace medusa::common;
  STATIC_REQUIRE(may_push_combine<BitOrOp<Msg>, Msg>);
  STATIC_REQUIRE(may_push_combine<BitAndOp<Msg>, Msg>);
  STATIC_REQUIRE_FALSE(may_push_combine<BitXorOp<Msg>, Msg>);
  STATIC_REQUIRE(is_idempotent_op<BitAndOp<long long>>);
  STATIC_REQUIRE_FALSE(is_idempotent_op<BitXorOp<Msg>>);
  CHECK(may_push_combine_with<Msg>(medusa::MEDUSA_BIT_OR));
  CHECK_FALSE(may_push_combine_with<Msg>(medusa::MEDUSA_BIT_XOR));
  CHECK_FALSE(may_push_combine_with<float>(medusa::MEDUSA_BIT_OR));
}

TEST_CASE("The session's report names the Combiner's operator, logical or bitwise", "[runtime]") {
  for (const auto& [op, name] : {std::pair{medusa::MEDUSA_BIT_XOR, "MEDUSA_BIT_XOR"},
                                 std::pair{medusa::MEDUSA_OR, "MEDUSA_LOGICAL_OR"}}) {
    GraphT g(2);
    g.AddEdge(0, 1, Edge{1});
    medusa::Config conf;
    conf.combinerOpType = op;
    auto device = medusa::Init_Device_DS(g, conf);
    CHECK_THAT(device.report(), Catch::Contains(std::string("Combiner() folds with ") + name));
  }
}

TEST_CASE("A bitwise operator on a floating-point message is an error that names a fix", "[runtime]") {
  for (const medusa::CombinerOp op : {medusa::MEDUSA_BIT_OR, medusa::MEDUSA_BIT_AND, medusa::MEDUSA_BIT_XOR}) {
    const std::string name = medusa::common::combiner_op_name(op);
    CHECK_THROWS_WITH(medusa::common::visit_builtin_combiner<float>(op, [](const auto&) {}),
                      Catch::Contains(name + " is bitwise and needs an integer message type") &&
                          Catch::Contains("MEDUSA_LOGICAL_OR"));
    int visited = 0;
    medusa::common::visit_builtin_combiner<int>(op, [&](const auto& f) { visited = f(6, 3); });
    CHECK(visited == (op == medusa::MEDUSA_BIT_OR ? 7 : op == medusa::MEDUSA_BIT_AND ? 2 : 5));
  }
  CHECK_THROWS_AS(medusa::common::visit_builtin_combiner<double>(medusa::MEDUSA_BIT_OR, [](const auto&) {}),
                  medusa::Error);
}
