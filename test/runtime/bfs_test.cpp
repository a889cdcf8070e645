// BFS two ways, hand-translated as medusa-cc would, checked against a queue BFS:
//  BFS-N: an EDGE functor over all edges every superstep (the paper's all-edges version);
//  BFS-Q: SetActive frontier, ELIST over Domain::Active and VERTEX over Domain::Received.
// Backend-neutral.
#define MEDUSA_GENERATED 1
#include <medusa/medusa.h>

#include "support/cpu_reference.h"
#include "support/emv_launch.h"
#include "support/random_graph.h"
#include "support/scoped_env.h"
#include "support/test_graphs.h"

#include <catch2/catch.hpp>

#include <array>
#include <cstddef>

namespace bfs_test {

constexpr int kUnreached = medusa_test::kUnreached;

// ---- BFS-N -----------------------------------------------------------------------------------
struct VertexN {
  int level = kUnreached;
};
struct EdgeN {};

}  // namespace bfs_test

template <>
struct medusa::ProgramTraits<bfs_test::VertexN, bfs_test::EdgeN> {
  using Vertex = bfs_test::VertexN;
  using Edge = bfs_test::EdgeN;
  using Message = int;
  struct VertexArrays {
    int* level;
  };
  struct EdgeArrays {};
  static constexpr std::array<medusa::FieldSpec, 1> vertex_fields{{
      {"level", offsetof(Vertex, level), sizeof(int), medusa::kUpload | medusa::kDownload |
       medusa::kEdgeRead}}};
  static constexpr std::array<medusa::FieldSpec, 0> edge_fields{};
  static VertexArrays bind_vertex(void* const* a) { return {static_cast<int*>(a[0])}; }
  static EdgeArrays bind_edge(void* const*) { return {}; }
  static constexpr medusa::ProgramUses uses =
      medusa::ProgramUses::of(medusa::kUsesContinueVote | medusa::kUsesMessages);
};

namespace bfs_test {
using ProgramN = medusa::ProgramTraits<VertexN, EdgeN>;
using Ctx = medusa::KernelCtx<int>;

namespace medusa_gen_Reach {
struct Head : medusa::VertexHandle<int> {
  const int& level;
};
struct Edge : medusa::EdgeHandle<int> {
  const ProgramN::VertexArrays* va;
  MEDUSA_HD Head head() const { return Head{{medusa_ctx_, medusa_head_}, va->level[medusa_head_]}; }
};
// Edges leaving the current level tell their tails they are reachable.
struct Reach {
  MEDUSA_HD void operator()(Edge& e) const {
    if (e.head().level == static_cast<int>(medusa::Superstep())) e.sendMsg(1);
  }
};
struct Reach_element {
  Reach f;
  MEDUSA_HD void operator()(const Ctx& c, const ProgramN::VertexArrays& va,
                            const ProgramN::EdgeArrays&, medusa::EdgeIndex e) const {
    Edge p{{&c, e, c.edge_src[e], c.out_dst[e]}, &va};
    f(p);
  }
};
}  // namespace medusa_gen_Reach
using Reach = medusa_gen_Reach::Reach;

namespace medusa_gen_Settle {
struct Vertex : medusa::VertexHandle<int> {
  int& level;
};
struct Settle {
  MEDUSA_HD void operator()(Vertex& v) const {
    if (v.combined_msg() != 0 && v.level == kUnreached) {
      v.level = static_cast<int>(medusa::Superstep()) + 1;
      medusa::Continue();
    }
  }
};
struct Settle_element {
  Settle f;
  MEDUSA_HD void operator()(const Ctx& c, const ProgramN::VertexArrays& va,
                            const ProgramN::EdgeArrays&, medusa::VertexId id) const {
    Vertex v{{&c, id}, va.level[id]};
    f(v);
  }
};
}  // namespace medusa_gen_Settle
using Settle = medusa_gen_Settle::Settle;

// ---- BFS-Q -----------------------------------------------------------------------------------
struct VertexQ {
  int level = kUnreached;
};
struct EdgeQ {};

}  // namespace bfs_test

MEDUSA_TEST_EMV_LAUNCH(bfs_test::Reach, EDGE, bfs_test::medusa_gen_Reach::Reach_element, bfs_test::ProgramN)
MEDUSA_TEST_EMV_LAUNCH(bfs_test::Settle, VERTEX, bfs_test::medusa_gen_Settle::Settle_element, bfs_test::ProgramN)

template <>
struct medusa::ProgramTraits<bfs_test::VertexQ, bfs_test::EdgeQ> {
  using Vertex = bfs_test::VertexQ;
  using Edge = bfs_test::EdgeQ;
  using Message = int;
  struct VertexArrays {
    int* level;
  };
  struct EdgeArrays {};
  static constexpr std::array<medusa::FieldSpec, 1> vertex_fields{{
      {"level", offsetof(Vertex, level), sizeof(int), medusa::kUpload | medusa::kDownload}}};
  static constexpr std::array<medusa::FieldSpec, 0> edge_fields{};
  static VertexArrays bind_vertex(void* const* a) { return {static_cast<int*>(a[0])}; }
  static EdgeArrays bind_edge(void* const*) { return {}; }
  static constexpr medusa::ProgramUses uses =
      medusa::ProgramUses::of(medusa::kUsesContinueVote | medusa::kUsesVertexFrontier | medusa::kUsesReceived |
                              medusa::kUsesMessages);
};

namespace bfs_test {
using ProgramQ = medusa::ProgramTraits<VertexQ, EdgeQ>;

namespace medusa_gen_Expand {
struct Vertex : medusa::VertexHandle<int> {};
struct Edge : medusa::EdgeHandle<int> {
  using message_type = int;
  using arrays_type = ProgramQ::EdgeArrays;
  static MEDUSA_HD Edge make(const Ctx& c, const arrays_type&, medusa::EdgeIndex e,
                             medusa::VertexId head, medusa::VertexId tail) {
    return Edge{{&c, e, head, tail}};
  }
};
struct Expand {
  MEDUSA_HD void operator()(Vertex&, medusa::EdgeList<Edge>& el) const {
    for (std::uint32_t i = 0; i < el.size(); ++i) el[i].sendMsg(1);
  }
};
struct Expand_element {
  Expand f;
  MEDUSA_HD void operator()(const Ctx& c, const ProgramQ::VertexArrays&,
                            const ProgramQ::EdgeArrays& ea, medusa::VertexId id) const {
    Vertex v{{&c, id}};
    medusa::EdgeList<Edge> el(&c, &ea, id);
    f(v, el);
  }
};
}  // namespace medusa_gen_Expand
using Expand = medusa_gen_Expand::Expand;

namespace medusa_gen_Visit {
struct Vertex : medusa::VertexHandle<int> {
  int& level;
};
struct Visit {
  MEDUSA_HD void operator()(Vertex& v) const {
    if (v.level == kUnreached) {
      v.level = static_cast<int>(medusa::Superstep()) + 1;
      v.SetActive();
      medusa::Continue();
    }
  }
};
struct Visit_element {
  Visit f;
  MEDUSA_HD void operator()(const Ctx& c, const ProgramQ::VertexArrays& va,
                            const ProgramQ::EdgeArrays&, medusa::VertexId id) const {
    Vertex v{{&c, id}, va.level[id]};
    f(v);
  }
};
}  // namespace medusa_gen_Visit
using Visit = medusa_gen_Visit::Visit;

}  // namespace bfs_test

MEDUSA_TEST_EMV_LAUNCH(bfs_test::Expand, ELIST, bfs_test::medusa_gen_Expand::Expand_element, bfs_test::ProgramQ)
MEDUSA_TEST_EMV_LAUNCH(bfs_test::Visit, VERTEX, bfs_test::medusa_gen_Visit::Visit_element, bfs_test::ProgramQ)

namespace bfs_test {
void BfsN() {
  medusa::InitMessageBuffer(0);
  medusa::EMV<medusa::EDGE>::Run(Reach{});
  medusa::Combiner();
  medusa::EMV<medusa::VERTEX>::Run(Settle{});
}
void BfsQ() {
  medusa::InitMessageBuffer(0);
  medusa::EMV<medusa::ELIST>::Run(Expand{}, medusa::Active);
  medusa::EMV<medusa::VERTEX>::Run(Visit{}, medusa::Received);
}

template <class Vertex, class Edge>
void check_levels(const medusa::Graph<Vertex, Edge>& graph, const std::vector<int>& expected) {
  std::size_t mismatches = 0;
  for (medusa::VertexId v = 0; v < graph.vertex_count(); ++v) {
    if (graph.vertex(v).level != expected[v] && mismatches++ < 5) {
      UNSCOPED_INFO("vertex " << v << ": level " << graph.vertex(v).level << ", expected " << expected[v]);
    }
  }
  CHECK(mismatches == 0);
}

int max_level(const std::vector<int>& levels) {
  int m = 0;
  for (int l : levels) {
    if (l != kUnreached && l > m) m = l;
  }
  return m;
}
}  // namespace bfs_test

TEST_CASE("BFS-N (all edges every superstep) matches a queue BFS", "[runtime]") {
  using namespace bfs_test;
  for (const medusa_test::NamedGraph& input : medusa_test::integration_graphs()) {
    if (input.graph == nullptr) {
      WARN(medusa_test::missing_graph_message(input.name));
      continue;
    }
    const medusa_test::EdgeList& el = *input.graph;
    const std::vector<int> expected = medusa_test::bfs_reference(el, 0);
    for (const medusa_test::PartitionCase& pc : medusa_test::partition_cases(/*multi_hop=*/true)) {
      INFO("graph " << input.name << ", " << pc.name);
      medusa::Graph<VertexN, EdgeN> graph(el.vertex_count);
      graph.SetEdges(el.src, el.dst);
      graph.vertex(0).level = 0;
      medusa::Config conf;
      conf.combinerOpType = medusa::MEDUSA_OR;
      auto device = medusa::Init_Device_DS(graph, pc.apply(conf));
      const medusa::RunStats stats = device.Run(BfsN);
      device.Dump_Result(graph);
      check_levels(graph, expected);
      CHECK(stats.stop_reason == "no continue vote");
      CHECK(stats.supersteps == static_cast<std::uint32_t>(max_level(expected)) + 1);
    }
  }
}

TEST_CASE("BFS-Q (SetActive frontier, Active and Received domains) matches a queue BFS", "[runtime]") {
  using namespace bfs_test;
  for (const medusa_test::NamedGraph& input : medusa_test::integration_graphs()) {
    if (input.graph == nullptr) {
      WARN(medusa_test::missing_graph_message(input.name));
      continue;
    }
    const medusa_test::EdgeList& el = *input.graph;
    const medusa::VertexId source = el.vertex_count / 2;
    const std::vector<int> expected = medusa_test::bfs_reference(el, source);
    for (const medusa_test::PartitionCase& pc : medusa_test::partition_cases(/*multi_hop=*/false)) {
      INFO("graph " << input.name << ", " << pc.name);
      medusa::Graph<VertexQ, EdgeQ> graph(el.vertex_count);
      graph.SetEdges(el.src, el.dst);
      graph.vertex(source).level = 0;
      graph.SetActive(source);
      auto device = medusa::Init_Device_DS(graph, pc.apply(medusa::Config{}));
      const medusa::RunStats stats = device.Run(BfsQ);
      device.Dump_Result(graph);
      check_levels(graph, expected);
      CHECK(stats.supersteps == static_cast<std::uint32_t>(max_level(expected)) + 1);
      // One replica refresh per superstep: the levels the VERTEX step wrote go with the flags at
      // the superstep's end, not in a refresh of their own at the next ELIST (a CUDA batch may
      // issue supersteps past its stop, each with its refresh).
      if (pc.parts > 1 && !pc.distributed) {
#if defined(MEDUSA_BACKEND_HOST)
        CHECK(stats.exchange_refreshes == stats.supersteps);
#else
        CHECK(stats.exchange_refreshes >= stats.supersteps);
#endif
      }
      // The frontier visits every reachable vertex's out-edges exactly once (each edge lives in
      // one partition).
      std::uint64_t reachable_out_edges = 0;
      for (std::size_t i = 0; i < el.src.size(); ++i) reachable_out_edges += expected[el.src[i]] != kUnreached;
      CHECK(stats.edges_visited == reachable_out_edges);
    }
  }
}

// VertexOrder::Auto on partitions: a frontier from one seed runs as a queue, so the same hub graph
// that orders PageRank's partitions by degree keeps BFS-Q's in input order.
TEST_CASE("BFS-Q on 2 partitions: auto keeps a hub graph's input order for a frontier from one seed", "[runtime][partition]") {
  using namespace bfs_test;
  const medusa_test::EdgeList el = medusa_test::hub_graph(70000, 100000, 4321, 3);
  const medusa::VertexId source = 17;
  medusa::Graph<VertexQ, EdgeQ> graph(el.vertex_count);
  graph.SetEdges(el.src, el.dst);
  graph.vertex(source).level = 0;
  graph.SetActive(source);
  auto device = medusa::Init_Device_DS(
      graph, medusa_test::PartitionCase{"2 contiguous partitions", 2, 1, medusa::PartitionMethod::Contiguous}.apply({}));
  CHECK(device.plan().owned_order == medusa::VertexOrder::Input);
  CHECK_THAT(device.report(), Catch::Contains("input IDs (auto: a frontier from seeds with"));
  device.Run(BfsQ);
  device.Dump_Result(graph);
  check_levels(graph, medusa_test::bfs_reference(el, source));
}

// A 32 x 32 grid cut into two bands of rows: BFS from a corner changes the level of each boundary
// replica once, so a sparse refresh moves far fewer bytes than copying every replica each superstep.
TEST_CASE("BFS-N on partitions: the sparse refresh moves only changed replicas, same levels", "[runtime]") {
  using namespace bfs_test;
  const medusa_test::ScopedEnv unset("MEDUSA_SPARSE_REFRESH", nullptr);  // (the Config decides here)
  constexpr std::uint32_t kSide = 32;
  medusa_test::EdgeList el;
  el.vertex_count = kSide * kSide;
  for (std::uint32_t r = 0; r < kSide; ++r)
    for (std::uint32_t c = 0; c < kSide; ++c) {
      const std::uint32_t v = r * kSide + c;
      for (const std::uint32_t w : {c + 1 < kSide ? v + 1 : v, r + 1 < kSide ? v + kSide : v}) {
        if (w == v) continue;
        el.src.push_back(v), el.dst.push_back(w);
        el.src.push_back(w), el.dst.push_back(v);
      }
    }
  const std::vector<int> expected = medusa_test::bfs_reference(el, 0);
  medusa::RunStats by_mode[2];
  for (const medusa::Toggle mode : {medusa::Toggle::Off, medusa::Toggle::On}) {
    INFO("sparse refresh " << (mode == medusa::Toggle::On ? "on" : "off"));
    medusa::Graph<VertexN, EdgeN> graph(el.vertex_count);
    graph.SetEdges(el.src, el.dst);
    graph.vertex(0).level = 0;
    medusa::Config conf =
        medusa_test::PartitionCase{"2 contiguous partitions", 2, 1, medusa::PartitionMethod::Contiguous}.apply({});
    conf.combinerOpType = medusa::MEDUSA_OR;
    conf.tuning.sparseRefresh = mode;
    auto device = medusa::Init_Device_DS(graph, conf);
    const medusa::RunStats stats = device.Run(BfsN);
    device.Dump_Result(graph);
    check_levels(graph, expected);
    by_mode[mode == medusa::Toggle::On] = stats;
  }
  CHECK(by_mode[0].exchange_sparse_bytes == 0);
  CHECK(by_mode[0].exchange_refreshes == by_mode[1].exchange_refreshes);
  // Each of the 64 boundary replicas changes level once, after the first (dense) refresh: 64
  // levels of 4 bytes sparse.
  CHECK(by_mode[1].exchange_sparse_bytes == 64 * sizeof(int));
  CHECK(by_mode[1].exchange_bytes < by_mode[0].exchange_bytes);
}
