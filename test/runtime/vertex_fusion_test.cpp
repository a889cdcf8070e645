// PageRank without frontiers, with one message per source (what medusa-cc emits for samples/pagerank):
// on the CUDA backend the VERTEX launch runs in the fused pass's gather, and computes the next
// superstep's source messages there (cuda/source_prefetch.cuh). Checked against the same program
// with those turned off (MEDUSA_VERTEX_FUSION=off, MEDUSA_SOURCE_PREFETCH=off), bit for bit,
// batched and replayed, stopped by maxIteration or by a Halt() cast inside the gather in a batch,
// and with a VERTEX launch after the fused one that changes what the prefetched messages read.
// Backend-neutral.
#define MEDUSA_GENERATED 1
#include <medusa/medusa.h>

#include "support/emv_launch.h"
#include "support/random_graph.h"
#include "support/scoped_env.h"

#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <cstdlib>
#include <string>
#include <vector>

namespace vertex_fusion_test {
struct RankVertex {
  float rank = 1.0f;
};
struct RankEdge {};
}  // namespace vertex_fusion_test

template <>
struct medusa::ProgramTraits<vertex_fusion_test::RankVertex, vertex_fusion_test::RankEdge> {
  using Vertex = vertex_fusion_test::RankVertex;
  using Edge = vertex_fusion_test::RankEdge;
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
  // No frontier: batched from the second superstep.
  static constexpr medusa::ProgramUses uses =
      medusa::ProgramUses::of(medusa::kUsesHaltVote | medusa::kUsesMessages);
};

namespace vertex_fusion_test {
using Program = medusa::ProgramTraits<RankVertex, RankEdge>;
using Ctx = medusa::KernelCtx<float>;

namespace medusa_gen_SendRank {
struct Vertex : medusa::VertexHandle<float> {
  const float& rank;
};
struct Edge : medusa::EdgeHandle<float> {
  using message_type = float;
  using arrays_type = Program::EdgeArrays;
  static MEDUSA_HD Edge make(const Ctx& c, const arrays_type&, medusa::EdgeIndex e, medusa::VertexId head,
                             medusa::VertexId tail) {
    return Edge{{&c, e, head, tail}};
  }
};
struct SendRank {
  MEDUSA_HD void operator()(Vertex& v, medusa::EdgeList<Edge>& el) const {
    float msg = v.rank / v.edge_count();
    for (unsigned i = 0; i < el.size(); i++) el[i].sendMsg(msg);
  }
};
// What medusa-cc emits for an edge-parallel loop of uniform sends (edge_element_message_*.tmpl).
struct SendRank_edge_element : SendRank {
  MEDUSA_HD explicit SendRank_edge_element(const SendRank& f) : SendRank(f) {}
  MEDUSA_HD void operator()(const Ctx& c, const Program::VertexArrays& va, const Program::EdgeArrays& ea,
                            medusa::VertexId id, std::uint32_t i) const {
    Vertex v{{&c, id}, va.rank[id]};
    medusa::EdgeList<Edge> el(&c, &ea, id);
    medusa_edge(v, el, i);
  }
  MEDUSA_HD void medusa_edge(Vertex& v, medusa::EdgeList<Edge>& el, std::uint32_t medusa_edge_index) const {
    float msg = v.rank / v.edge_count();
    { const unsigned i = medusa_edge_index;
      el[i].sendMsg(msg); }
  }
  MEDUSA_HD float medusa_source_message(const Ctx& c, const Program::VertexArrays& va,
                                        const Program::EdgeArrays& ea, medusa::VertexId id) const {
    Vertex v{{&c, id}, va.rank[id]};
    medusa::EdgeList<Edge> el(&c, &ea, id);
    return medusa_message(v, el);
  }
  MEDUSA_HD float medusa_message(Vertex& v, medusa::EdgeList<Edge>&) const {
    float msg = v.rank / v.edge_count();
    return (msg);
  }
  static constexpr bool medusa_source_message_steady = true;  // (it reads v.rank and the degree)
};
}  // namespace medusa_gen_SendRank
using SendRank = medusa_gen_SendRank::SendRank;

namespace medusa_gen_UpdateRank {
struct Vertex : medusa::VertexHandle<float> {
  float& rank;
};
// Halt() at superstep halt_at (0: never), from every vertex.
template <unsigned HaltAt>
struct UpdateRank {
  MEDUSA_HD void operator()(Vertex& v) const {
    v.rank = 0.15f + 0.85f * v.combined_msg();
    if (HaltAt != 0 && medusa::Superstep() == HaltAt) medusa::Halt();
  }
};
// What medusa-cc emits for a VERTEX launch that follows a pass of SendRank in its iteration.
template <unsigned HaltAt>
struct UpdateRank_element {
  using medusa_next_source_work = medusa_gen_SendRank::SendRank_edge_element;
  UpdateRank<HaltAt> f;
  MEDUSA_HD void operator()(const Ctx& c, const Program::VertexArrays& va, const Program::EdgeArrays&,
                            medusa::VertexId id) const {
    Vertex v{{&c, id}, va.rank[id]};
    f(v);
  }
};
}  // namespace medusa_gen_UpdateRank
template <unsigned HaltAt>
using UpdateRank = medusa_gen_UpdateRank::UpdateRank<HaltAt>;

// A second VERTEX launch after the fused one: it changes the ranks the next superstep's messages
// read, after the fused VERTEX step computed them.
namespace medusa_gen_Damp {
struct Damp {
  MEDUSA_HD void operator()(medusa_gen_UpdateRank::Vertex& v) const { v.rank = v.rank * 0.5f + 0.25f; }
};
struct Damp_element {
  Damp f;
  MEDUSA_HD void operator()(const Ctx& c, const Program::VertexArrays& va, const Program::EdgeArrays&,
                            medusa::VertexId id) const {
    medusa_gen_UpdateRank::Vertex v{{&c, id}, va.rank[id]};
    f(v);
  }
};
}  // namespace medusa_gen_Damp
using Damp = medusa_gen_Damp::Damp;

template <unsigned HaltAt>
void pagerank_step() {
  medusa::InitMessageBuffer(0.0f);
  medusa::EMV<medusa::ELIST>::Run(SendRank{});
  medusa::Combiner();
  medusa::EMV<medusa::VERTEX>::Run(UpdateRank<HaltAt>{});
}
void damped_pagerank_step() {
  pagerank_step<0>();
  medusa::EMV<medusa::VERTEX>::Run(Damp{});
}
}  // namespace vertex_fusion_test

MEDUSA_TEST_EMV_EDGES_LAUNCH(vertex_fusion_test::SendRank, vertex_fusion_test::medusa_gen_SendRank::SendRank_edge_element,
                             vertex_fusion_test::Program)
MEDUSA_TEST_EMV_LAUNCH(vertex_fusion_test::UpdateRank<0>, VERTEX,
                       vertex_fusion_test::medusa_gen_UpdateRank::UpdateRank_element<0>, vertex_fusion_test::Program)
MEDUSA_TEST_EMV_LAUNCH(vertex_fusion_test::UpdateRank<90>, VERTEX,
                       vertex_fusion_test::medusa_gen_UpdateRank::UpdateRank_element<90>, vertex_fusion_test::Program)
MEDUSA_TEST_EMV_LAUNCH(vertex_fusion_test::Damp, VERTEX, vertex_fusion_test::medusa_gen_Damp::Damp_element,
                       vertex_fusion_test::Program)

namespace vertex_fusion_test {
// Uniform random edges plus two hubs of 6000 in- and out-edges: the Combiner's small, warp and
// chunked bins all have vertices, each running the VERTEX functor after its folds.
medusa_test::EdgeList hub_graph(bool hubs) {
  medusa_test::EdgeList g = medusa_test::random_graph(2000, 9000, 11);
  for (std::uint32_t h = 0; hubs && h < 2; ++h)
    for (std::uint32_t k = 0; k < 6000; ++k) {
      g.src.push_back(h * 997);
      g.dst.push_back(static_cast<std::uint32_t>(medusa_test::mix64(h * 7919 + k) % 2000));
      g.src.push_back(static_cast<std::uint32_t>(medusa_test::mix64(h * 7919 + k + 3) % 2000));
      g.dst.push_back(h * 997);
    }
  return g;
}

struct RankRun {
  std::vector<float> ranks;
  medusa::RunStats stats;
};
template <void (*Step)()>
RankRun run_pagerank(const medusa_test::EdgeList& el, bool replayable) {
  medusa::Graph<RankVertex, RankEdge> graph(el.vertex_count);
  graph.SetEdges(el.src, el.dst);
  medusa::Config conf;
  conf.combinerOpType = medusa::MEDUSA_SUM;
  conf.maxIteration = 120;
  auto device = medusa::Init_Device_DS(graph, conf);
  RankRun run;
  if (replayable) {
    medusa::detail::register_replayable_iteration(Step);
    run.stats = device.Run(Step);
  } else {
    run.stats = device.Run([] { Step(); });
  }
  device.Dump_Result(graph);
  for (medusa::VertexId v = 0; v < el.vertex_count; ++v) run.ranks.push_back(graph.vertex(v).rank);
  return run;
}

// Whether this run fuses passes at all (the GPU suite also runs with MEDUSA_PULL_FUSION=off).
bool pull_fusion_on() {
  const char* pull = std::getenv("MEDUSA_PULL_FUSION");
  return pull == nullptr || std::string(pull) != "off";
}

template <unsigned HaltAt>
void check_against_separate(const medusa_test::EdgeList& el) {
  const auto separate = [&](bool replayable) {
    const medusa_test::ScopedEnv vertex("MEDUSA_VERTEX_FUSION", "off");
    return run_pagerank<&pagerank_step<HaltAt>>(el, replayable);
  };
  const auto unprefetched = [&](bool replayable) {
    const medusa_test::ScopedEnv prefetch("MEDUSA_SOURCE_PREFETCH", "off");
    return run_pagerank<&pagerank_step<HaltAt>>(el, replayable);
  };
  for (const char* batch : {static_cast<const char*>(nullptr), "always"}) {
    for (bool replayable : {false, true}) {
      const medusa_test::ScopedEnv batches("MEDUSA_SUPERSTEP_BATCH", batch);
      INFO("MEDUSA_SUPERSTEP_BATCH=" << (batch ? batch : "") << (replayable ? ", replayable" : "")
                                     << ", Halt() at " << HaltAt);
      const RankRun fused = [&] {  // (VERTEX in the gather, and the next superstep's messages)
        const medusa_test::ScopedEnv prefetch("MEDUSA_SOURCE_PREFETCH", "on");
        return run_pagerank<&pagerank_step<HaltAt>>(el, replayable);
      }();
      const RankRun automatic = run_pagerank<&pagerank_step<HaltAt>>(el, replayable);
      const RankRun plain = separate(replayable);
      const RankRun fused_only = unprefetched(replayable);
      CHECK(fused.ranks == plain.ranks);  // (the same folds, in the same order)
      CHECK(fused_only.ranks == plain.ranks);
      CHECK(automatic.ranks == plain.ranks);
      CHECK(fused_only.stats.source_passes_skipped == 0);
      CHECK(plain.stats.source_passes_skipped == 0);
      CHECK(fused.stats.supersteps == (HaltAt != 0 ? HaltAt + 1 : 120u));
      CHECK(fused.stats.supersteps == plain.stats.supersteps);
      CHECK(fused.stats.stop_reason == plain.stats.stop_reason);
      CHECK(fused.stats.edges_visited == std::uint64_t{fused.stats.supersteps} * el.src.size());
      CHECK(fused.stats.edges_visited == plain.stats.edges_visited);
#if defined(__CUDACC__)
      CHECK(fused.stats.batched_supersteps > fused.stats.supersteps / 2);
      if (replayable) CHECK(fused.stats.replayed_supersteps > 0);
      // Every superstep after the first took its messages from the one before, unless a replay
      // ran it (the host counts only those it issued).
      if (pull_fusion_on() && !replayable) CHECK(fused.stats.source_passes_skipped == fused.stats.supersteps - 1);
      if (pull_fusion_on() && replayable) CHECK(fused.stats.source_passes_skipped > 0);
      if (!pull_fusion_on()) CHECK(fused.stats.source_passes_skipped == 0);
      // Auto: only on graphs of at most 8 edges per vertex (the graph without hubs has 4.5).
      const bool sparse = el.src.size() <= 8 * std::size_t{el.vertex_count};
      CHECK((automatic.stats.source_passes_skipped != 0) == (sparse && pull_fusion_on()));
#else
      CHECK(fused.stats.source_passes_skipped == 0);
#endif
    }
  }
}
}  // namespace vertex_fusion_test

TEST_CASE("PageRank without frontiers: its VERTEX launch run in the gather equals it run apart", "[runtime]") {
  using namespace vertex_fusion_test;
  const medusa_test::ScopedEnv pull("MEDUSA_PULL_FUSION", nullptr), replay("MEDUSA_BATCH_REPLAY", nullptr);
  for (bool hubs : {false, true}) {
    INFO((hubs ? "with hubs" : "no hubs: the small bin only"));
    const medusa_test::EdgeList el = hub_graph(hubs);
    check_against_separate<0>(el);   // maxIteration (120)
    check_against_separate<90>(el);  // Halt() inside a batch (a replayed one when registered)
  }
}

TEST_CASE("Source messages computed in a VERTEX step are not used once another launch changed their vertex",
          "[runtime]") {
  using namespace vertex_fusion_test;
  const medusa_test::ScopedEnv pull("MEDUSA_PULL_FUSION", nullptr), replay("MEDUSA_BATCH_REPLAY", nullptr);
  const medusa_test::EdgeList el = hub_graph(true);
  const medusa_test::ScopedEnv prefetch("MEDUSA_SOURCE_PREFETCH", "on");
  for (bool replayable : {false, true}) {
    INFO((replayable ? "replayable" : "not replayable"));
    const RankRun damped = run_pagerank<&damped_pagerank_step>(el, replayable);
    const RankRun separate = [&] {
      const medusa_test::ScopedEnv vertex("MEDUSA_VERTEX_FUSION", "off");
      return run_pagerank<&damped_pagerank_step>(el, replayable);
    }();
    CHECK(damped.ranks == separate.ranks);
    CHECK(damped.stats.supersteps == 120u);
    CHECK(damped.stats.source_passes_skipped == 0);  // (every prefetch found stale)
    // The undamped program differs: the check above can tell stale messages from fresh ones.
    CHECK(run_pagerank<&pagerank_step<0>>(el, replayable).ranks != damped.ranks);
  }
}
