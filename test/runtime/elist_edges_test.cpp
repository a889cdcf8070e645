// Edge-parallel ELIST (exec::run_elist_edges): elements hand-written as medusa-cc emits them for
// functors whose edge loop it proved independent, run against the same functors on the
// one-thread-per-vertex path (exec::run<ELIST>). The graph has a few hubs with thousands of
// out-edges, so the per-vertex edge split and the lanes-per-vertex grouping are exercised.
// Backend-neutral.
#define MEDUSA_GENERATED 1
#include <medusa/medusa.h>

#include "support/emv_launch.h"
#include "support/random_graph.h"
#include "support/scoped_env.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstddef>
#include <vector>

namespace elist_edges_test {

// Uniform random edges plus `hubs` vertices with `hub_degree` extra out-edges and in-edges each
// (more in-edges than two of the GPU Combiner's 4096-slot chunks; frontiers past the 2^15 edges
// at which the GPU expands a queue in edge-balanced tiles).
medusa_test::EdgeList hub_graph() {
  constexpr std::uint32_t kVertices = 3000, kHubs = 4, kHubDegree = 9000;
  medusa_test::EdgeList g = medusa_test::random_graph(kVertices, 15000, 7);
  for (std::uint32_t h = 0; h < kHubs; ++h)
    for (std::uint32_t k = 0; k < kHubDegree; ++k) {
      g.src.push_back(h * 701 % kVertices);
      g.dst.push_back(static_cast<std::uint32_t>(medusa_test::mix64(h * 100000 + k) % kVertices));
      // and as many in-edges, so the Combiner's per-block (heavy) bin has work on the GPU
      g.src.push_back(static_cast<std::uint32_t>(medusa_test::mix64(h * 100000 + k + 7) % kVertices));
      g.dst.push_back(h * 701 % kVertices);
    }
  return g;
}

// Vertex 0 points at kLeaves leaves; every other leaf has one out-edge, so the second frontier
// alternates degree 0 and 1 and a tile of edge-balanced expansion spans more queued vertices than
// it keeps in shared memory.
medusa_test::EdgeList alternating_leaves_graph() {
  constexpr std::uint32_t kLeaves = 80000;
  medusa_test::EdgeList g;
  g.vertex_count = 1 + kLeaves + kLeaves / 2;
  for (std::uint32_t i = 1; i <= kLeaves; ++i) {
    g.src.push_back(0);
    g.dst.push_back(i);
    if (i % 2 == 1) {
      g.src.push_back(i);
      g.dst.push_back(kLeaves + 1 + i / 2);
    }
  }
  return g;
}

// ---- PageRank (float, SUM), over Domain::All and Domain::Active ------------------------------
struct RankVertex {
  float rank = 1.0f;
};
struct RankEdge {};
}  // namespace elist_edges_test

template <>
struct medusa::ProgramTraits<elist_edges_test::RankVertex, elist_edges_test::RankEdge> {
  using Vertex = elist_edges_test::RankVertex;
  using Edge = elist_edges_test::RankEdge;
  using Message = float;
  struct VertexArrays {
    float* rank;
  };
  struct EdgeArrays {};
  static constexpr std::array<medusa::FieldSpec, 1> vertex_fields{{
      {"rank", offsetof(Vertex, rank), sizeof(float), medusa::kUpload | medusa::kDownload |
       medusa::kEdgeRead}}};
  static constexpr std::array<medusa::FieldSpec, 0> edge_fields{};
  static VertexArrays bind_vertex(void* const* a) { return {static_cast<float*>(a[0])}; }
  static EdgeArrays bind_edge(void* const*) { return {}; }
  static constexpr medusa::ProgramUses uses =
      medusa::ProgramUses::of(medusa::kUsesVertexFrontier | medusa::kUsesMessages);
};

namespace elist_edges_test {
using RankProgram = medusa::ProgramTraits<RankVertex, RankEdge>;
using RankCtx = medusa::KernelCtx<float>;

namespace medusa_gen_SendRank {
struct Vertex : medusa::VertexHandle<float> {
  const float& rank;
};
struct Edge : medusa::EdgeHandle<float> {
  using message_type = float;
  using arrays_type = RankProgram::EdgeArrays;
  static MEDUSA_HD Edge make(const RankCtx& c, const arrays_type&, medusa::EdgeIndex e,
                             medusa::VertexId head, medusa::VertexId tail) {
    return Edge{{&c, e, head, tail}};
  }
};
// The samples/pagerank shape: a prologue from v, the bound a prologue local.
struct SendRank {
  float damping = 1.0f;  // a functor member the copied prologue must still see
  MEDUSA_HD void operator()(Vertex& v, medusa::EdgeList<Edge>& el) const {
    int edge_count = v.edge_count();
    float msg = damping * v.rank / edge_count;
    for (int i = 0; i < edge_count; i++) el[i].sendMsg(msg);
  }
};
struct SendRank_element {
  SendRank f;
  MEDUSA_HD void operator()(const RankCtx& c, const RankProgram::VertexArrays& va,
                            const RankProgram::EdgeArrays& ea, medusa::VertexId id) const {
    Vertex v{{&c, id}, va.rank[id]};
    medusa::EdgeList<Edge> el(&c, &ea, id);
    f(v, el);
  }
};
// What medusa-cc emits for SendRank when the loop is edge-parallel (edge_element_*.tmpl).
struct SendRank_edge_element : SendRank {
  MEDUSA_HD explicit SendRank_edge_element(const SendRank& f) : SendRank(f) {}
  MEDUSA_HD void operator()(const RankCtx& c, const RankProgram::VertexArrays& va,
                            const RankProgram::EdgeArrays& ea, medusa::VertexId id,
                            std::uint32_t i) const {
    Vertex v{{&c, id}, va.rank[id]};
    medusa::EdgeList<Edge> el(&c, &ea, id);
    medusa_edge(v, el, i);
  }
  MEDUSA_HD void medusa_edge(Vertex& v, medusa::EdgeList<Edge>& el,
                             std::uint32_t medusa_edge_index) const {
    int edge_count = v.edge_count();
    float msg = damping * v.rank / edge_count;
    { const int i = medusa_edge_index;
      el[i].sendMsg(msg); }
  }
};
// Same functor, launched edge-parallel (a distinct type: EmvLaunch is per functor type).
struct SendRankEdges : SendRank {};
struct SendRankEdges_edge_element : SendRank_edge_element {
  MEDUSA_HD explicit SendRankEdges_edge_element(const SendRankEdges& f) : SendRank_edge_element(f) {}
};
// What medusa-cc adds when the loop body is `el[i].sendMsg(E)`, E the same for every edge
// (edge_element_message_*.tmpl): the fused pass computes one message per source.
struct SendRankUniform : SendRank {};
struct SendRankUniform_edge_element : SendRank_edge_element {
  MEDUSA_HD explicit SendRankUniform_edge_element(const SendRankUniform& f) : SendRank_edge_element(f) {}
  MEDUSA_HD float medusa_source_message(const RankCtx& c, const RankProgram::VertexArrays& va,
                                        const RankProgram::EdgeArrays& ea, medusa::VertexId id) const {
    Vertex v{{&c, id}, va.rank[id]};
    medusa::EdgeList<Edge> el(&c, &ea, id);
    return medusa_message(v, el);
  }
  MEDUSA_HD float medusa_message(Vertex& v, medusa::EdgeList<Edge>&) const {
    int edge_count = v.edge_count();
    float msg = damping * v.rank / edge_count;
    return (msg);
  }
};
}  // namespace medusa_gen_SendRank
using SendRank = medusa_gen_SendRank::SendRank;
using SendRankEdges = medusa_gen_SendRank::SendRankEdges;
using SendRankUniform = medusa_gen_SendRank::SendRankUniform;

namespace medusa_gen_UpdateRank {
struct Vertex : medusa::VertexHandle<float> {
  float& rank;
};
// Keeps two thirds of the vertices active, so Domain::Active is a proper subset.
struct UpdateRank {
  MEDUSA_HD void operator()(Vertex& v) const {
    v.rank = 0.15f + 0.85f * v.combined_msg();
    if (v.id() % 3 != 0) v.SetActive();
  }
};
struct UpdateRank_element {
  UpdateRank f;
  MEDUSA_HD void operator()(const RankCtx& c, const RankProgram::VertexArrays& va,
                            const RankProgram::EdgeArrays&, medusa::VertexId id) const {
    Vertex v{{&c, id}, va.rank[id]};
    f(v);
  }
};
}  // namespace medusa_gen_UpdateRank
using UpdateRank = medusa_gen_UpdateRank::UpdateRank;
}  // namespace elist_edges_test

MEDUSA_TEST_EMV_LAUNCH(elist_edges_test::SendRank, ELIST, elist_edges_test::medusa_gen_SendRank::SendRank_element, elist_edges_test::RankProgram)
MEDUSA_TEST_EMV_EDGES_LAUNCH(elist_edges_test::SendRankEdges, elist_edges_test::medusa_gen_SendRank::SendRankEdges_edge_element, elist_edges_test::RankProgram)
MEDUSA_TEST_EMV_EDGES_LAUNCH(elist_edges_test::SendRankUniform, elist_edges_test::medusa_gen_SendRank::SendRankUniform_edge_element, elist_edges_test::RankProgram)
MEDUSA_TEST_EMV_LAUNCH(elist_edges_test::UpdateRank, VERTEX, elist_edges_test::medusa_gen_UpdateRank::UpdateRank_element, elist_edges_test::RankProgram)

// ---- BFS-Q (unsigned, MIN), over Domain::Active ---------------------------------------------
namespace elist_edges_test {
struct LevelVertex {
  unsigned level = UINT_MAX;
};
struct LevelEdge {};
}  // namespace elist_edges_test

template <>
struct medusa::ProgramTraits<elist_edges_test::LevelVertex, elist_edges_test::LevelEdge> {
  using Vertex = elist_edges_test::LevelVertex;
  using Edge = elist_edges_test::LevelEdge;
  using Message = unsigned;
  struct VertexArrays {
    unsigned* level;
  };
  struct EdgeArrays {};
  static constexpr std::array<medusa::FieldSpec, 1> vertex_fields{{
      {"level", offsetof(Vertex, level), sizeof(unsigned), medusa::kUpload | medusa::kDownload |
       medusa::kEdgeRead}}};
  static constexpr std::array<medusa::FieldSpec, 0> edge_fields{};
  static VertexArrays bind_vertex(void* const* a) { return {static_cast<unsigned*>(a[0])}; }
  static EdgeArrays bind_edge(void* const*) { return {}; }
  // bfs_step's Combiner consumes its slots (InitMessageBuffer starts every superstep), as
  // medusa-cc would find: the GPU pushes ExpandEdges' frontiers without writing slots.
  static constexpr medusa::ProgramUses uses =
      medusa::ProgramUses::of(medusa::kUsesContinueVote | medusa::kUsesVertexFrontier | medusa::kUsesReceived |
                              medusa::kUsesMessages | medusa::kUsesCombinerConsumesSlots);
};

namespace elist_edges_test {
using LevelProgram = medusa::ProgramTraits<LevelVertex, LevelEdge>;
using LevelCtx = medusa::KernelCtx<unsigned>;

namespace medusa_gen_Expand {
struct Vertex : medusa::VertexHandle<unsigned> {
  const unsigned& level;
};
struct Edge : medusa::EdgeHandle<unsigned> {
  using message_type = unsigned;
  using arrays_type = LevelProgram::EdgeArrays;
  static MEDUSA_HD Edge make(const LevelCtx& c, const arrays_type&, medusa::EdgeIndex e,
                             medusa::VertexId head, medusa::VertexId tail) {
    return Edge{{&c, e, head, tail}};
  }
};
// The samples/bfs/bfs_q shape: bound el.size().
struct Expand {
  MEDUSA_HD void operator()(Vertex& v, medusa::EdgeList<Edge>& el) const {
    unsigned int next = v.level + 1;
    for (unsigned int i = 0; i < el.size(); i++) el[i].sendMsg(next);
  }
};
struct Expand_element {
  Expand f;
  MEDUSA_HD void operator()(const LevelCtx& c, const LevelProgram::VertexArrays& va,
                            const LevelProgram::EdgeArrays& ea, medusa::VertexId id) const {
    Vertex v{{&c, id}, va.level[id]};
    medusa::EdgeList<Edge> el(&c, &ea, id);
    f(v, el);
  }
};
struct ExpandEdges : Expand {};
struct ExpandEdges_edge_element : ExpandEdges {
  MEDUSA_HD explicit ExpandEdges_edge_element(const ExpandEdges& f) : ExpandEdges(f) {}
  MEDUSA_HD void operator()(const LevelCtx& c, const LevelProgram::VertexArrays& va,
                            const LevelProgram::EdgeArrays& ea, medusa::VertexId id,
                            std::uint32_t i) const {
    Vertex v{{&c, id}, va.level[id]};
    medusa::EdgeList<Edge> el(&c, &ea, id);
    medusa_edge(v, el, i);
  }
  MEDUSA_HD void medusa_edge(Vertex& v, medusa::EdgeList<Edge>& el,
                             std::uint32_t medusa_edge_index) const {
    unsigned int next = v.level + 1;
    { const unsigned int i = medusa_edge_index;
      el[i].sendMsg(next); }
  }
};
struct ExpandUniform : Expand {};
struct ExpandUniform_edge_element : ExpandEdges_edge_element {
  MEDUSA_HD explicit ExpandUniform_edge_element(const ExpandUniform& f) : ExpandEdges_edge_element(ExpandEdges{f}) {}
  MEDUSA_HD unsigned medusa_source_message(const LevelCtx& c, const LevelProgram::VertexArrays& va,
                                           const LevelProgram::EdgeArrays& ea, medusa::VertexId id) const {
    Vertex v{{&c, id}, va.level[id]};
    medusa::EdgeList<Edge> el(&c, &ea, id);
    return medusa_message(v, el);
  }
  MEDUSA_HD unsigned medusa_message(Vertex& v, medusa::EdgeList<Edge>&) const {
    unsigned int next = v.level + 1;
    return (next);
  }
};
}  // namespace medusa_gen_Expand
using Expand = medusa_gen_Expand::Expand;
using ExpandEdges = medusa_gen_Expand::ExpandEdges;
using ExpandUniform = medusa_gen_Expand::ExpandUniform;

namespace medusa_gen_Visit {
struct Vertex : medusa::VertexHandle<unsigned> {
  unsigned& level;
};
// Takes the combined message's level where it is lower and stays in the frontier.
MEDUSA_HD inline bool take_lower_level(Vertex& v) {
  const unsigned level = v.combined_msg();
  if (level >= v.level) return false;
  v.level = level;
  v.SetActive();
  medusa::Continue();
  return true;
}
struct Visit {
  MEDUSA_HD void operator()(Vertex& v) const { take_lower_level(v); }
};
// Visit, and a Halt() vote once a vertex reaches halt_level: the run stops with a frontier left.
struct VisitHalting {
  unsigned halt_level;
  MEDUSA_HD void operator()(Vertex& v) const {
    if (take_lower_level(v) && v.level == halt_level) medusa::Halt();
  }
};
// The combined message as the level: what the last Combiner left, for every vertex.
struct TakeCombined {
  MEDUSA_HD void operator()(Vertex& v) const { v.level = v.combined_msg(); }
};
template <class F>
struct LevelVisit_element {
  F f;
  MEDUSA_HD void operator()(const LevelCtx& c, const LevelProgram::VertexArrays& va,
                            const LevelProgram::EdgeArrays&, medusa::VertexId id) const {
    Vertex v{{&c, id}, va.level[id]};
    f(v);
  }
};
}  // namespace medusa_gen_Visit
using Visit = medusa_gen_Visit::Visit;
using VisitHalting = medusa_gen_Visit::VisitHalting;
using TakeCombined = medusa_gen_Visit::TakeCombined;
}  // namespace elist_edges_test

MEDUSA_TEST_EMV_LAUNCH(elist_edges_test::Expand, ELIST, elist_edges_test::medusa_gen_Expand::Expand_element, elist_edges_test::LevelProgram)
MEDUSA_TEST_EMV_EDGES_LAUNCH(elist_edges_test::ExpandEdges, elist_edges_test::medusa_gen_Expand::ExpandEdges_edge_element, elist_edges_test::LevelProgram)
MEDUSA_TEST_EMV_EDGES_LAUNCH(elist_edges_test::ExpandUniform, elist_edges_test::medusa_gen_Expand::ExpandUniform_edge_element, elist_edges_test::LevelProgram)
MEDUSA_TEST_EMV_LAUNCH(elist_edges_test::Visit, VERTEX,
                       elist_edges_test::medusa_gen_Visit::LevelVisit_element<elist_edges_test::Visit>,
                       elist_edges_test::LevelProgram)
MEDUSA_TEST_EMV_LAUNCH(elist_edges_test::TakeCombined, VERTEX,
                       elist_edges_test::medusa_gen_Visit::LevelVisit_element<elist_edges_test::TakeCombined>,
                       elist_edges_test::LevelProgram)
MEDUSA_TEST_EMV_LAUNCH(elist_edges_test::VisitHalting, VERTEX,
                       elist_edges_test::medusa_gen_Visit::LevelVisit_element<elist_edges_test::VisitHalting>,
                       elist_edges_test::LevelProgram)

namespace elist_edges_test {
template <class Send>
void rank_step(medusa::Domain domain) {
  medusa::InitMessageBuffer(0.0f);
  medusa::EMV<medusa::ELIST>::Run(Send{{0.9f}}, domain);
  medusa::Combiner();
  medusa::EMV<medusa::VERTEX>::Run(UpdateRank{});
}
template <class Expander>
void bfs_step() {
  medusa::InitMessageBuffer(UINT_MAX);
  medusa::EMV<medusa::ELIST>::Run(Expander{}, medusa::Active);
  medusa::Combiner();
  medusa::EMV<medusa::VERTEX>::Run(Visit{}, medusa::Received);
}
template <unsigned HaltLevel>
void halting_bfs_step() {
  medusa::InitMessageBuffer(UINT_MAX);
  medusa::EMV<medusa::ELIST>::Run(ExpandEdges{}, medusa::Active);
  medusa::Combiner();
  medusa::EMV<medusa::VERTEX>::Run(VisitHalting{HaltLevel}, medusa::Received);
}

struct RankRun {
  std::vector<float> ranks;
  medusa::RunStats stats;
};
// rank_step over every vertex, registered as medusa-cc registers a straight line of operations.
template <class Send>
void replayable_rank_step() {
  rank_step<Send>(medusa::Domain::All);
}
// PageRank on `el`, half of its vertices active at first; run_on(device) makes the Run.
template <class RunOn>
RankRun pagerank_ranks(const medusa_test::EdgeList& el, bool fuse, std::uint32_t iterations, const RunOn& run_on) {
  medusa::Graph<RankVertex, RankEdge> graph(el.vertex_count);
  graph.SetEdges(el.src, el.dst);
  for (medusa::VertexId v = 0; v < el.vertex_count; ++v)
    if (v % 2 == 0) graph.SetActive(v);
  medusa::Config conf;
  conf.combinerOpType = medusa::MEDUSA_SUM;
  conf.maxIteration = iterations;
  conf.pullFusion = fuse;
  auto device = medusa::Init_Device_DS(graph, conf);
  RankRun run;
  run.stats = run_on(device);
  device.Dump_Result(graph);
  for (medusa::VertexId v = 0; v < el.vertex_count; ++v) run.ranks.push_back(graph.vertex(v).rank);
  return run;
}
// `replayable` (Domain::All only): through replayable_rank_step.
template <class Send>
RankRun run_pagerank(const medusa_test::EdgeList& el, medusa::Domain domain, bool fuse = true,
                     std::uint32_t iterations = 5, bool replayable = false) {
  return pagerank_ranks(el, fuse, iterations, [&](auto& device) {
    if (!replayable) return device.Run([domain] { rank_step<Send>(domain); });
    medusa::detail::register_replayable_iteration(&replayable_rank_step<Send>);
    return device.Run(&replayable_rank_step<Send>);
  });
}

struct LevelRun {
  std::vector<unsigned> levels;
  medusa::RunStats stats;
};
// bfs_step, registered as medusa-cc registers a straight line of operations: the CUDA backend may
// replay recorded batches of its supersteps without calling it.
template <class Expander>
void replayable_bfs_step() {
  bfs_step<Expander>();
}
// BFS levels from `source` on `el`; run_on(device) makes the Runs and returns the last one's stats.
template <class RunOn>
LevelRun bfs_levels(const medusa_test::EdgeList& el, medusa::VertexId source, const RunOn& run_on) {
  medusa::Graph<LevelVertex, LevelEdge> graph(el.vertex_count);
  graph.SetEdges(el.src, el.dst);
  graph.vertex(source).level = 0;
  graph.SetActive(source);
  medusa::Config conf;
  conf.combinerOpType = medusa::MEDUSA_MIN;
  auto device = medusa::Init_Device_DS(graph, conf);
  LevelRun run;
  run.stats = run_on(device);
  device.Dump_Result(graph);
  for (medusa::VertexId v = 0; v < el.vertex_count; ++v) run.levels.push_back(graph.vertex(v).level);
  return run;
}
template <class Expander>
LevelRun run_bfs(const medusa_test::EdgeList& el, medusa::VertexId source, bool replayable = false) {
  if (replayable) medusa::detail::register_replayable_iteration(&replayable_bfs_step<Expander>);
  return bfs_levels(el, source, [&](auto& device) {
    return device.Run(replayable ? &replayable_bfs_step<Expander> : &bfs_step<Expander>);
  });
}
// A path of n vertices, each edge both ways: n levels from vertex 0, as a road network's long tail.
medusa_test::EdgeList path_graph(medusa::VertexId n) {
  medusa_test::EdgeList el;
  el.vertex_count = n;
  for (medusa::VertexId v = 0; v + 1 < n; ++v) {
    el.src.push_back(v), el.dst.push_back(v + 1);
    el.src.push_back(v + 1), el.dst.push_back(v);
  }
  return el;
}
}  // namespace elist_edges_test

TEST_CASE("edge-parallel ELIST PageRank equals the per-vertex path (All, Active, hubs)", "[runtime]") {
  using namespace elist_edges_test;
  const medusa_test::EdgeList el = hub_graph();
  for (medusa::Domain domain : {medusa::Domain::All, medusa::Domain::Active}) {
    INFO("domain " << (domain == medusa::Domain::All ? "All" : "Active"));
    const RankRun plain = run_pagerank<SendRank>(el, domain);
    const RankRun edges = run_pagerank<SendRankEdges>(el, domain);
    CHECK(edges.stats.edges_visited == plain.stats.edges_visited);
    CHECK(edges.stats.supersteps == plain.stats.supersteps);
    if (domain == medusa::Domain::All) CHECK(plain.stats.edges_visited == 5 * el.src.size());
    else CHECK(plain.stats.edges_visited < 5 * el.src.size());
    std::size_t mismatches = 0;
    for (medusa::VertexId v = 0; v < el.vertex_count; ++v) {
      const float a = plain.ranks[v], b = edges.ranks[v];
      if (std::fabs(a - b) > 1e-5f * std::fabs(a) + 1e-7f && mismatches++ < 5)
        UNSCOPED_INFO("vertex " << v << ": edge-parallel " << b << ", per-vertex " << a);
    }
    CHECK(mismatches == 0);
  }
}

TEST_CASE("pull-fused edge-parallel ELIST PageRank equals the unfused launches (hubs)", "[runtime]") {
  using namespace elist_edges_test;
  const medusa_test::EdgeList el = hub_graph();
  const RankRun fused = run_pagerank<SendRankEdges>(el, medusa::Domain::All, true);
  const RankRun plain = run_pagerank<SendRankEdges>(el, medusa::Domain::All, false);
  CHECK(fused.stats.edges_visited == plain.stats.edges_visited);
#if defined(__CUDACC__)
  // The GPU folds a vertex's slots in another (lane-strided) order when fused.
  std::size_t mismatches = 0;
  for (medusa::VertexId v = 0; v < el.vertex_count; ++v)
    mismatches += std::fabs(fused.ranks[v] - plain.ranks[v]) > 1e-5f * std::fabs(plain.ranks[v]) + 1e-7f;
  CHECK(mismatches == 0);
#else
  CHECK(fused.ranks == plain.ranks);  // the host folds in slot order either way: bit for bit
#endif
}

TEST_CASE("edge-parallel ELIST BFS-Q equals the per-vertex path (Active, hubs)", "[runtime]") {
  using namespace elist_edges_test;
  const medusa_test::EdgeList el = hub_graph();
  for (medusa::VertexId source : {0u, 701u, 5u}) {  // 0 and 701 are hubs
    INFO("source " << source);
    const LevelRun plain = run_bfs<Expand>(el, source);
    const LevelRun edges = run_bfs<ExpandEdges>(el, source);
    CHECK(edges.levels == plain.levels);
    CHECK(edges.stats.edges_visited == plain.stats.edges_visited);
    CHECK(edges.stats.supersteps == plain.stats.supersteps);
    CHECK(plain.stats.supersteps > 2);
  }
}

TEST_CASE("BFS-Q with every frontier pulled, or none, equals the per-vertex path (hubs)", "[runtime]") {
  using namespace elist_edges_test;
  const medusa_test::EdgeList el = hub_graph();
  for (const char* pull : {"always", "never"}) {
    const medusa_test::ScopedEnv env("MEDUSA_FRONTIER_PULL", pull);
    for (medusa::VertexId source : {0u, 5u}) {
      INFO("MEDUSA_FRONTIER_PULL=" << pull << ", source " << source);
      const LevelRun plain = run_bfs<Expand>(el, source);
      const LevelRun edges = run_bfs<ExpandEdges>(el, source);
      CHECK(edges.levels == plain.levels);
      CHECK(edges.stats.edges_visited == plain.stats.edges_visited);
      CHECK(edges.stats.supersteps == plain.stats.supersteps);
    }
  }
}

TEST_CASE("One message per source (uniform sends) equals running the edge work per in-edge", "[runtime]") {
  using namespace elist_edges_test;
  const medusa_test::EdgeList el = hub_graph();
  for (const char* pull : {"always", "never"}) {  // frontiers pulled (fused) or pushed
    const medusa_test::ScopedEnv env("MEDUSA_FRONTIER_PULL", pull);
    INFO("MEDUSA_FRONTIER_PULL=" << pull);
    for (medusa::Domain domain : {medusa::Domain::All, medusa::Domain::Active}) {
      const RankRun uniform = run_pagerank<SendRankUniform>(el, domain);
      const RankRun per_edge = run_pagerank<SendRankEdges>(el, domain);
      CHECK(uniform.ranks == per_edge.ranks);  // the same arithmetic, folded in the same order
      CHECK(uniform.stats.edges_visited == per_edge.stats.edges_visited);
    }
    for (medusa::VertexId source : {0u, 5u}) {
      const LevelRun uniform = run_bfs<ExpandUniform>(el, source);
      const LevelRun plain = run_bfs<Expand>(el, source);
      CHECK(uniform.levels == plain.levels);
      CHECK(uniform.stats.edges_visited == plain.stats.edges_visited);
      CHECK(uniform.stats.supersteps == plain.stats.supersteps);
    }
  }
}

TEST_CASE("Active sources that send the fill value still make their heads receivers (pulled or pushed)",
          "[runtime]") {
  // Sources at level UINT_MAX - 1 send UINT_MAX, the InitMessageBuffer value. A pulled frontier on
  // the GPU tells sent messages from inactive sources by that value unless one equals it.
  using namespace elist_edges_test;
  const medusa_test::EdgeList el = hub_graph();
  const auto initial_level = [](medusa::VertexId v) { return v % 3 == 0 ? 7u : v % 3 == 1 ? UINT_MAX - 1 : 5u; };
  const auto active = [](medusa::VertexId v) { return v % 3 != 0; };
  std::vector<unsigned> expected(el.vertex_count);
  std::vector<bool> received(el.vertex_count, false);
  for (medusa::VertexId v = 0; v < el.vertex_count; ++v) expected[v] = initial_level(v);
  for (std::size_t e = 0; e < el.src.size(); ++e) {
    if (!active(el.src[e])) continue;
    const unsigned sent = initial_level(el.src[e]) + 1, d = el.dst[e];
    expected[d] = received[d] ? std::min(expected[d], sent) : sent;
    received[d] = true;
  }
  std::size_t only_fill = 0;
  for (medusa::VertexId v = 0; v < el.vertex_count; ++v) only_fill += expected[v] == UINT_MAX;
  REQUIRE(only_fill > 0);  // heads that heard only the fill value
  for (const char* pull : {"always", "never"}) {
    const medusa_test::ScopedEnv env("MEDUSA_FRONTIER_PULL", pull);
    INFO("MEDUSA_FRONTIER_PULL=" << pull);
    medusa::Graph<LevelVertex, LevelEdge> graph(el.vertex_count);
    graph.SetEdges(el.src, el.dst);
    for (medusa::VertexId v = 0; v < el.vertex_count; ++v) {
      graph.vertex(v).level = initial_level(v);
      if (active(v)) graph.SetActive(v);
    }
    medusa::Config conf;
    conf.combinerOpType = medusa::MEDUSA_MIN;
    conf.maxIteration = 1;
    auto device = medusa::Init_Device_DS(graph, conf);
    device.Run([] {
      medusa::InitMessageBuffer(UINT_MAX);
      medusa::EMV<medusa::ELIST>::Run(ExpandUniform{}, medusa::Active);
      medusa::Combiner();
      medusa::EMV<medusa::VERTEX>::Run(TakeCombined{}, medusa::Received);
    });
    device.Dump_Result(graph);
    std::size_t mismatches = 0;
    for (medusa::VertexId v = 0; v < el.vertex_count; ++v) mismatches += graph.vertex(v).level != expected[v];
    CHECK(mismatches == 0);
  }
}

TEST_CASE("edge-parallel ELIST BFS-Q equals the per-vertex path (frontier of alternating empty vertices)",
          "[runtime]") {
  using namespace elist_edges_test;
  const medusa_test::EdgeList el = alternating_leaves_graph();
  const LevelRun plain = run_bfs<Expand>(el, 0);
  const LevelRun edges = run_bfs<ExpandEdges>(el, 0);
  CHECK(plain.levels[el.vertex_count - 1] == 2u);
  CHECK(edges.levels == plain.levels);
  CHECK(edges.stats.edges_visited == plain.stats.edges_visited);
  CHECK(plain.stats.supersteps == 3);
}

TEST_CASE("BFS-Q on a long path: pushes issued in batches of supersteps equal the per-vertex path",
          "[runtime]") {
  using namespace elist_edges_test;
  // A path of 3000 vertices searched from one end: 3000 supersteps of one vertex each, as in a road
  // network's long tail. The CUDA backend issues the pushed ones in batches after the first few,
  // and the last batch runs past the superstep without a Continue() vote. Forced batches also
  // queue each next frontier in SetActive() (a 3000-vertex graph is too small for that otherwise).
  const medusa_test::ScopedEnv pull("MEDUSA_FRONTIER_PULL", nullptr), fusion("MEDUSA_PULL_FUSION", nullptr),
      replay("MEDUSA_BATCH_REPLAY", nullptr);
  const medusa::VertexId n = 3000;
  const medusa_test::EdgeList el = path_graph(n);
  const LevelRun plain = run_bfs<Expand>(el, 0);  // (a thread-per-vertex ELIST: never batched)
  CHECK(plain.levels[n - 1] == n - 1);
  CHECK(plain.stats.supersteps == n);
  CHECK(plain.stats.batched_supersteps == 0);
  for (const char* mode : {"auto", "always"}) {
    INFO("MEDUSA_SUPERSTEP_BATCH=" << mode);
    const medusa_test::ScopedEnv batch("MEDUSA_SUPERSTEP_BATCH", mode);
    const LevelRun edges = run_bfs<ExpandEdges>(el, 0);      // edge-dependent sends, pushed
    const LevelRun uniform = run_bfs<ExpandUniform>(el, 0);  // one message per source, pushed
    // The same, with recorded batches replayed (a registered iteration function).
    const LevelRun edges_replayed = run_bfs<ExpandEdges>(el, 0, /*replayable=*/true);
    const LevelRun uniform_replayed = run_bfs<ExpandUniform>(el, 0, /*replayable=*/true);
#if defined(__CUDACC__)
    CHECK(edges_replayed.stats.replayed_supersteps > n / 2);
    CHECK(uniform_replayed.stats.replayed_supersteps > n / 2);
#endif
    for (const LevelRun* run : {&edges, &uniform, &edges_replayed, &uniform_replayed}) {
      CHECK(run->stats.replayed_supersteps <= run->stats.batched_supersteps);
      CHECK(run->levels == plain.levels);
      CHECK(run->stats.supersteps == plain.stats.supersteps);
      CHECK(run->stats.edges_visited == plain.stats.edges_visited);
      CHECK(run->stats.stop_reason == "no continue vote");
#if defined(__CUDACC__)
      CHECK(run->stats.batched_supersteps > n / 2);
#endif
      CHECK(run->stats.batched_supersteps <= run->stats.supersteps);
    }
  }
}

TEST_CASE("PageRank with recorded batches replayed equals issuing every superstep", "[runtime]") {
  using namespace elist_edges_test;
  // Every superstep batched from the second; the registered iteration's batches are recorded
  // and, once two agree, replayed. The pulls over every vertex count their edges on the host,
  // which a replay must count too.
  const medusa_test::ScopedEnv batch("MEDUSA_SUPERSTEP_BATCH", "always"), pull("MEDUSA_FRONTIER_PULL", nullptr),
      fusion("MEDUSA_PULL_FUSION", nullptr), replay("MEDUSA_BATCH_REPLAY", nullptr);
  const medusa_test::EdgeList el = hub_graph();
  const std::uint32_t iterations = 200;
  // (Edge-parallel sends fuse into a pull, which a batch can run; a thread-per-vertex ELIST cannot.)
  const RankRun issued = run_pagerank<SendRankEdges>(el, medusa::Domain::All, true, iterations);
  const RankRun replayed = run_pagerank<SendRankEdges>(el, medusa::Domain::All, true, iterations, /*replayable=*/true);
  CHECK(issued.stats.replayed_supersteps == 0);
#if defined(__CUDACC__)
  CHECK(replayed.stats.replayed_supersteps > iterations / 2);
#endif
  CHECK(replayed.stats.supersteps == iterations);
  CHECK(replayed.stats.stop_reason == "maxIteration");
  CHECK(replayed.stats.edges_visited == std::uint64_t{iterations} * el.src.size());
  CHECK(replayed.stats.edges_visited == issued.stats.edges_visited);
  CHECK(replayed.ranks == issued.ranks);  // (the same launches, bit for bit)
}

TEST_CASE("A VERTEX launch run in a fused pass's gather equals it run after the pass (hubs, every combiner)",
          "[runtime]") {
  using namespace elist_edges_test;
  // One message per source over every vertex: on the GPU the VERTEX launch that follows runs in
  // the gather's threads (small bin, warp list, hub chunks' finish), SetActive() included.
  const medusa_test::EdgeList el = hub_graph();
  const std::uint32_t iterations = 40;
  for (const char* combiner : {static_cast<const char*>(nullptr), "group4", "warp"}) {
    const medusa_test::ScopedEnv strategy("MEDUSA_COMBINER", combiner);
    for (const char* batch : {static_cast<const char*>(nullptr), "always"}) {
      const medusa_test::ScopedEnv batches("MEDUSA_SUPERSTEP_BATCH", batch);
      INFO("MEDUSA_COMBINER=" << (combiner ? combiner : "") << ", MEDUSA_SUPERSTEP_BATCH=" << (batch ? batch : ""));
      const RankRun joined = run_pagerank<SendRankUniform>(el, medusa::Domain::All, true, iterations, true);
      const RankRun separate = [&] {
        const medusa_test::ScopedEnv off("MEDUSA_VERTEX_FUSION", "off");
        return run_pagerank<SendRankUniform>(el, medusa::Domain::All, true, iterations, true);
      }();
      CHECK(joined.ranks == separate.ranks);  // (the same folds in the same order)
      CHECK(joined.stats.supersteps == separate.stats.supersteps);
      CHECK(joined.stats.edges_visited == std::uint64_t{iterations} * el.src.size());
      CHECK(joined.stats.edges_visited == separate.stats.edges_visited);
    }
  }
}

namespace elist_edges_test {
// BFS on `el` from 0, halted once a vertex reaches HaltLevel, then run on to the end by a second
// Run on the same device data: the second starts from the frontier the first left.
template <unsigned HaltLevel>
LevelRun run_halted_bfs(const medusa_test::EdgeList& el, bool replayable, medusa::RunStats& halted) {
  if (replayable) medusa::detail::register_replayable_iteration(&halting_bfs_step<HaltLevel>);
  return bfs_levels(el, 0, [&](auto& device) {
    if (replayable)
      halted = device.Run(&halting_bfs_step<HaltLevel>);
    else
      halted = device.Run([] { halting_bfs_step<HaltLevel>(); });
    return device.Run(&bfs_step<ExpandEdges>);
  });
}
}  // namespace elist_edges_test

TEST_CASE("BFS-Q halted inside a batch goes on from its frontier in the next Run", "[runtime]") {
  using namespace elist_edges_test;
  // On the CUDA backend the halt falls inside a batch (a replayed one for the registered
  // iteration), whose later supersteps do nothing while the host still ends them; the frontier
  // the halting superstep queued must be the one the next Run starts from. Two halting levels:
  // the batch's supersteps after the halt are then odd in number for one of them.
  // Forced batches queue each next frontier in SetActive(), whose buffers trade places at each
  // superstep's end.
  const medusa_test::ScopedEnv pull("MEDUSA_FRONTIER_PULL", nullptr), fusion("MEDUSA_PULL_FUSION", nullptr),
      replay("MEDUSA_BATCH_REPLAY", nullptr);
  const medusa::VertexId n = 3000;
  const medusa_test::EdgeList el = path_graph(n);
  const LevelRun plain = run_bfs<Expand>(el, 0);
  for (const char* mode : {"auto", "always"}) {
    for (bool replayable : {false, true}) {
      const medusa_test::ScopedEnv batch("MEDUSA_SUPERSTEP_BATCH", mode);
      INFO("MEDUSA_SUPERSTEP_BATCH=" << mode << (replayable ? ", replayable" : ", issued by the host"));
      medusa::RunStats first_even, first_odd;
      const LevelRun even = run_halted_bfs<1234>(el, replayable, first_even);
      const LevelRun odd = run_halted_bfs<1235>(el, replayable, first_odd);
      CHECK(first_even.supersteps == 1234);  // (superstep 1233 reaches vertex 1234)
      CHECK(first_odd.supersteps == 1235);
      for (const medusa::RunStats* first : {&first_even, &first_odd}) {
        CHECK(first->stop_reason == "halt vote");
#if defined(__CUDACC__)
        CHECK(first->batched_supersteps > 1000);
        if (replayable) CHECK(first->replayed_supersteps > 1000);
#endif
      }
      CHECK(even.levels == plain.levels);
      CHECK(odd.levels == plain.levels);
      CHECK(even.stats.supersteps == n - 1234);  // (vertex 1234's frontier reaches n - 1 in 1765, one more to stop)
      CHECK(odd.stats.supersteps == n - 1235);
    }
  }
}


namespace elist_edges_test {
void take_combined_step() { medusa::EMV<medusa::VERTEX>::Run(TakeCombined{}); }
}  // namespace elist_edges_test

TEST_CASE("combined_msg() after a halt inside a batch is the halting superstep's Combiner's", "[runtime]") {
  using namespace elist_edges_test;
  // On the CUDA backend a batch's pushes alternate between two copies of the combined values, and
  // the supersteps after the halt still trade them on the host: the copy the halting superstep
  // folded into must be the one combined_msg() reads afterwards. Compared with no batches at all.
  const medusa_test::ScopedEnv pull("MEDUSA_FRONTIER_PULL", nullptr), fusion("MEDUSA_PULL_FUSION", nullptr),
      replay("MEDUSA_BATCH_REPLAY", nullptr);
  const medusa_test::EdgeList el = path_graph(3000);
  const auto halted_then_combined = [&](bool replayable) {
    if (replayable) medusa::detail::register_replayable_iteration(&halting_bfs_step<1235>);
    return bfs_levels(el, 0, [&](auto& device) {
      const medusa::RunStats halted =
          replayable ? device.Run(&halting_bfs_step<1235>) : device.Run([] { halting_bfs_step<1235>(); });
      CHECK(halted.supersteps == 1235);
      return device.Run(&take_combined_step);
    });
  };
  const LevelRun expected = [&] {
    const medusa_test::ScopedEnv batch("MEDUSA_SUPERSTEP_BATCH", "off");
    return halted_then_combined(false);
  }();
  CHECK(expected.levels[1235] == 1235);  // (the halting superstep's message to the next vertex)
  CHECK(expected.levels[1236] == UINT_MAX);
  for (const char* mode : {"auto", "always"}) {
    for (bool replayable : {false, true}) {
      const medusa_test::ScopedEnv batch("MEDUSA_SUPERSTEP_BATCH", mode);
      INFO("MEDUSA_SUPERSTEP_BATCH=" << mode << (replayable ? ", replayable" : ", issued by the host"));
      CHECK(halted_then_combined(replayable).levels == expected.levels);
    }
  }
}

// ---- Schedules set in the source (schedule.h): registered as medusa-cc registers them -----------
namespace elist_edges_test {
// What the supersteps of a scheduled BFS-Q saw of their Run's choices.
struct SeenChoices {
  std::uint32_t pulled = 0, pushed = 0, fused = 0;
};
SeenChoices seen;
template <int Variant>  // one iteration function per schedule
void scheduled_bfs_step() {
  auto& session = static_cast<medusa::Session<LevelProgram>&>(medusa::detail::current_session());
  (session.engine(0).frontier_pull_preferred() ? seen.pulled : seen.pushed) += 1;
  seen.fused += session.pull_fusion() ? 1 : 0;
  bfs_step<ExpandEdges>();
}
template <int Variant>
LevelRun run_scheduled_bfs(const medusa_test::EdgeList& el) {
  seen = SeenChoices{};
  return bfs_levels(el, 0, [](auto& device) { return device.Run(&scheduled_bfs_step<Variant>); });
}
}  // namespace elist_edges_test

TEST_CASE("A schedule set in the source is its Run's tuning (push or pull forced or fusion off) with the same levels", "[runtime]") {
  using namespace elist_edges_test;
  const medusa_test::ScopedEnv pull("MEDUSA_FRONTIER_PULL", nullptr), fusion("MEDUSA_PULL_FUSION", nullptr);
  const medusa_test::EdgeList el = hub_graph();
  const LevelRun plain = run_bfs<Expand>(el, 0);
  medusa::detail::register_schedule(&scheduled_bfs_step<1>, medusa::Schedule{}.push(), "test.cpp:1");
  medusa::detail::register_schedule(&scheduled_bfs_step<2>, medusa::Schedule{}.pull(), "test.cpp:2");
  medusa::detail::register_schedule(&scheduled_bfs_step<3>, medusa::Schedule{}.no_gather_fusion(), "test.cpp:3");

  const LevelRun automatic = run_scheduled_bfs<0>(el);  // (no schedule: by frontier size)
  CHECK(seen.pulled > 0);
  CHECK(seen.pushed > 0);
  CHECK(seen.fused == seen.pulled + seen.pushed);  // fused in every superstep it issued
  const LevelRun pushed = run_scheduled_bfs<1>(el);
  CHECK(seen.pulled == 0);
  const LevelRun pulled = run_scheduled_bfs<2>(el);
  CHECK(seen.pushed == 0);
  CHECK(pulled.stats.batched_supersteps == 0);  // batches push every frontier
  const LevelRun unfused = run_scheduled_bfs<3>(el);
  CHECK(seen.fused == 0);
  for (const LevelRun* run : {&automatic, &pushed, &pulled, &unfused}) {
    CHECK(run->levels == plain.levels);
    CHECK(run->stats.supersteps == plain.stats.supersteps);
  }
  {  // The environment overrides the schedule.
    const medusa_test::ScopedEnv always("MEDUSA_FRONTIER_PULL", "always");
    const LevelRun overridden = run_scheduled_bfs<1>(el);
    CHECK(seen.pushed == 0);
    CHECK(overridden.levels == plain.levels);
  }
}

// ---- A registered plan (medusa/plan.h) takes the session's fusion decisions -------------------
namespace elist_edges_test {
void planned_rank_step() { rank_step<SendRankEdges>(medusa::Domain::All); }
using medusa::plan::Form;
using medusa::plan::Over;
// What medusa-cc plans for rank_step: the pull gather, then UpdateRank (joined to it on CUDA).
constexpr medusa::plan::Step kGatherPlan[] = {{Form::PullGather, medusa::ELIST, Over::All},
                                              {Form::JoinedVertex, medusa::VERTEX, Over::All}};
// The same under a source schedule's no_gather_fusion(): three launches.
constexpr medusa::plan::Step kUnfusedPlan[] = {{Form::Unfused, medusa::ELIST, Over::All},
                                               {Form::Launch, medusa::VERTEX, Over::All}};
// A plan whose first call is not rank_step's (a VERTEX launch): every superstep departs at once.
constexpr medusa::plan::Step kOtherPlan[] = {{Form::Launch, medusa::VERTEX, Over::All},
                                             {Form::Unfused, medusa::ELIST, Over::All}};
template <std::size_t N>
RankRun run_planned(const medusa_test::EdgeList& el, const medusa::plan::Step (&steps)[N]) {
  const medusa_test::ScopedEnv fusion("MEDUSA_PULL_FUSION", "on");  // (also in the runs that set it off)
  medusa::detail::register_plan(&planned_rank_step, {"planned_rank_step", steps, N});
  return pagerank_ranks(el, true, 5, [](auto& device) { return device.Run(&planned_rank_step); });
}
// A Run's fused passes, and its supersteps that followed the plan and that departed from it.
void check_plan_counts(const medusa::RunStats& s, std::uint32_t fused, std::uint32_t followed,
                       std::uint32_t departed) {
  CHECK(s.fused_passes == fused);
  CHECK(s.plan_supersteps == followed);
  CHECK(s.plan_departures == departed);
}
}  // namespace elist_edges_test

TEST_CASE("A registered plan decides the fusion: a pull gather, or three launches", "[runtime][plan]") {
  using namespace elist_edges_test;
  const medusa_test::EdgeList el = hub_graph();
  const RankRun fused = run_planned(el, kGatherPlan);
  check_plan_counts(fused.stats, 5, 5, 0);
  // Config::pullFusion and the engine would fuse, but the plan's step says three launches.
  const RankRun unfused = run_planned(el, kUnfusedPlan);
  check_plan_counts(unfused.stats, 0, 5, 0);
  CHECK(unfused.stats.edges_visited == fused.stats.edges_visited);
  std::size_t mismatches = 0;
  for (medusa::VertexId v = 0; v < el.vertex_count; ++v)
    mismatches += std::fabs(fused.ranks[v] - unfused.ranks[v]) > 1e-5f * std::fabs(unfused.ranks[v]) + 1e-7f;
  CHECK(mismatches == 0);
}

TEST_CASE("Calls that depart from the registered plan fall back to the run-time rules", "[runtime][plan]") {
  using namespace elist_edges_test;
  const medusa_test::EdgeList el = hub_graph();
  const RankRun departed = run_planned(el, kOtherPlan);
  check_plan_counts(departed.stats, 5, 0, 5);  // the run-time rules fuse, though the plan would not have
  // No plan registered: the run-time rules alone, nothing counted against a plan.
  const medusa_test::ScopedEnv fusion("MEDUSA_PULL_FUSION", "on");
  const RankRun unplanned = run_pagerank<SendRankEdges>(el, medusa::Domain::All);
  check_plan_counts(unplanned.stats, 5, 0, 0);
}
