// BFS-Q on a graph whose frontier goes small -> large -> small -> large -> small -> large -> small:
// a long path broken by three stars of thousands of leaves. The engine runs a level by its
// frontier's out-edges: fewer than E/8 are pushed (on CUDA, after a streak of such levels, in
// batches of supersteps with one read-back each, frontiers queued by SetActive()); more are pulled
// over every vertex's in-edges (pull_fusion.h, cuda/batch_policy.h). Every level is checked
// against a FIFO BFS, and every superstep's form, as the engine chose it, against where the stars
// are. Backend-neutral; the batches are CUDA's.
#define MEDUSA_GENERATED 1
#include <medusa/medusa.h>
#include <medusa/backend/cuda/batch_policy.h>  // (plain C++: the streak and length of batches)

#include "support/cpu_reference.h"
#include "support/emv_launch.h"
#include "support/scoped_env.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <climits>
#include <cstddef>
#include <set>
#include <vector>

namespace level_switch_test {

// Where the stars go. A batch's pushes run on the frontier it started from, so a star's two dense
// levels (the hub, then its leaves) are pulled only when a batch's read-back falls right before
// the hub. A batch starts kSparseStreak supersteps after the last exact superstep with a dense
// frontier (or after superstep 0) and reads back every kLength: the first two stars sit at such
// a read-back. The third sits in the middle of a later batch (of a replay, for a registered
// iteration), whose launches then run a frontier far beyond the batch's grid bounds.
struct StarLevels {
  std::array<std::uint32_t, 3> hubs;
  std::uint32_t last;  // the path's last level
};
constexpr StarLevels star_levels() {
  constexpr std::uint32_t streak = medusa::gpu::BatchPolicy::kSparseStreak, length = medusa::gpu::BatchPolicy::kLength;
  const std::uint32_t hub1 = streak + 2 * length;
  const std::uint32_t hub2 = hub1 + 1 + streak + 2 * length;
  const std::uint32_t hub3 = hub2 + 1 + streak + 5 * length + length / 2;
  return {{hub1, hub2, hub3}, hub3 + 2 + 6 * length};
}
constexpr std::uint32_t kLeaves = 8192;  // a star's share of E: more than E/8 with three of them

// A path from vertex 0 to level `s.last`, in which the vertex at each hub level points at kLeaves
// leaves that all point at the next vertex of the path: the frontier is one vertex with kLeaves
// out-edges, then kLeaves vertices with one each, then one vertex again.
medusa_test::EdgeList star_path(const StarLevels& s) {
  medusa_test::EdgeList g;
  const auto add = [&g](medusa::VertexId from, medusa::VertexId to) {
    g.src.push_back(from);
    g.dst.push_back(to);
  };
  medusa::VertexId tail = 0, next = 1;
  std::size_t star = 0;
  for (std::uint32_t level = 0; level < s.last;) {
    if (star < s.hubs.size() && s.hubs[star] == level) {
      const medusa::VertexId join = next + kLeaves;
      for (medusa::VertexId leaf = next; leaf < join; ++leaf) add(tail, leaf), add(leaf, join);
      tail = join, next = join + 1, level += 2, ++star;
    } else {
      add(tail, next);
      tail = next++, ++level;
    }
  }
  g.vertex_count = next;
  return g;
}

// Supersteps whose frontier has at least E/8 out-edges, from the reference levels alone.
std::set<std::uint32_t> dense_levels(const medusa_test::EdgeList& g, const std::vector<int>& levels) {
  std::vector<std::uint64_t> out_edges(levels.size());
  for (const medusa::VertexId src : g.src)
    if (levels[src] != medusa_test::kUnreached) ++out_edges[static_cast<std::size_t>(levels[src])];
  std::set<std::uint32_t> dense;
  for (std::size_t l = 0; l < out_edges.size(); ++l)
    if (out_edges[l] * medusa::common::kFrontierPullFraction >= g.src.size()) dense.insert(static_cast<std::uint32_t>(l));
  return dense;
}

struct Vertex {
  unsigned level = UINT_MAX;
};
struct Edge {};
}  // namespace level_switch_test

template <>
struct medusa::ProgramTraits<level_switch_test::Vertex, level_switch_test::Edge> {
  using Vertex = level_switch_test::Vertex;
  using Edge = level_switch_test::Edge;
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
  static constexpr medusa::ProgramUses uses =
      medusa::ProgramUses::of(medusa::kUsesContinueVote | medusa::kUsesVertexFrontier | medusa::kUsesReceived |
                              medusa::kUsesMessages | medusa::kUsesCombinerConsumesSlots);
};

// samples/bfs/bfs_q's functors, as medusa-cc emits them (the edge loop edge-parallel, one steady
// message per source vertex).
namespace level_switch_test {
using Program = medusa::ProgramTraits<Vertex, Edge>;
using Ctx = medusa::KernelCtx<unsigned>;

namespace medusa_gen_Expand {
struct Vertex : medusa::VertexHandle<unsigned> {
  const unsigned& level;
};
struct Edge : medusa::EdgeHandle<unsigned> {
  using message_type = unsigned;
  using arrays_type = Program::EdgeArrays;
  static MEDUSA_HD Edge make(const Ctx& c, const arrays_type&, medusa::EdgeIndex e, medusa::VertexId head,
                             medusa::VertexId tail) {
    return Edge{{&c, e, head, tail}};
  }
};
struct Expand {
  MEDUSA_HD void operator()(Vertex& v, medusa::EdgeList<Edge>& el) const {
    unsigned next = v.level + 1;
    for (unsigned i = 0; i < el.size(); i++) el[i].sendMsg(next);
  }
};
struct Expand_edge_element : Expand {
  MEDUSA_HD explicit Expand_edge_element(const Expand& f) : Expand(f) {}
  MEDUSA_HD void operator()(const Ctx& c, const Program::VertexArrays& va, const Program::EdgeArrays& ea,
                            medusa::VertexId id, std::uint32_t i) const {
    Vertex v{{&c, id}, va.level[id]};
    medusa::EdgeList<Edge> el(&c, &ea, id);
    medusa_edge(v, el, i);
  }
  MEDUSA_HD void medusa_edge(Vertex& v, medusa::EdgeList<Edge>& el, std::uint32_t medusa_edge_index) const {
    unsigned next = v.level + 1;
    el[medusa_edge_index].sendMsg(next);
  }
  static constexpr bool medusa_source_message_steady = true;
  MEDUSA_HD unsigned medusa_source_message(const Ctx& c, const Program::VertexArrays& va,
                                           const Program::EdgeArrays& ea, medusa::VertexId id) const {
    Vertex v{{&c, id}, va.level[id]};
    medusa::EdgeList<Edge> el(&c, &ea, id);
    return medusa_message(v, el);
  }
  MEDUSA_HD unsigned medusa_message(Vertex& v, medusa::EdgeList<Edge>&) const { return v.level + 1; }
};
}  // namespace medusa_gen_Expand
using Expand = medusa_gen_Expand::Expand;

namespace medusa_gen_Visit {
struct Vertex : medusa::VertexHandle<unsigned> {
  unsigned& level;
};
struct Visit {
  MEDUSA_HD void operator()(Vertex& v) const {
    unsigned level = v.combined_msg();
    if (level < v.level) {
      v.level = level;
      v.SetActive();
      medusa::Continue();
    }
  }
};
struct Visit_element {
  Visit f;
  MEDUSA_HD void operator()(const Ctx& c, const Program::VertexArrays& va, const Program::EdgeArrays&,
                            medusa::VertexId id) const {
    Vertex v{{&c, id}, va.level[id]};
    f(v);
  }
};
}  // namespace medusa_gen_Visit
using Visit = medusa_gen_Visit::Visit;
}  // namespace level_switch_test

MEDUSA_TEST_EMV_EDGES_LAUNCH(level_switch_test::Expand, level_switch_test::medusa_gen_Expand::Expand_edge_element,
                             level_switch_test::Program)
MEDUSA_TEST_EMV_LAUNCH(level_switch_test::Visit, VERTEX, level_switch_test::medusa_gen_Visit::Visit_element,
                       level_switch_test::Program)

namespace level_switch_test {
void bfs_step() {
  medusa::InitMessageBuffer(UINT_MAX);
  medusa::EMV<medusa::ELIST>::Run(Expand{}, medusa::Active);
  medusa::Combiner();
  medusa::EMV<medusa::VERTEX>::Run(Visit{}, medusa::Received);
}
// What each superstep the host issued ran as, asked of the engine before its launches: the pass
// over the frontier pulled or pushed (the choice fused_combine makes), in a batch or read back.
struct StepForm {
  bool pulled, batched;
};
std::vector<StepForm> forms;
void observed_bfs_step() {
  auto& engine = static_cast<medusa::Session<Program>&>(medusa::detail::current_session()).engine(0);
#if defined(__CUDACC__)
  const bool batched = engine.batching();
#else
  const bool batched = false;
#endif
  forms.push_back({engine.frontier_pull_preferred(), batched});
  bfs_step();
}
// bfs_step registered as medusa-cc registers a straight line of operations: the CUDA backend may
// replay recorded batches without calling it.
void replayable_bfs_step() { bfs_step(); }

struct LevelRun {
  std::vector<int> levels;  // (kUnreached where unreached, as the reference)
  medusa::RunStats stats;
};
template <class Iteration>
LevelRun run_bfs(const medusa_test::EdgeList& el, Iteration iteration) {
  medusa::Graph<Vertex, Edge> graph(el.vertex_count);
  graph.SetEdges(el.src, el.dst);
  graph.vertex(0).level = 0;
  graph.SetActive(0);
  medusa::Config conf;
  conf.combinerOpType = medusa::MEDUSA_MIN;
  auto device = medusa::Init_Device_DS(graph, conf);
  forms.clear();
  LevelRun run;
  run.stats = device.Run(iteration);
  device.Dump_Result(graph);
  for (medusa::VertexId v = 0; v < el.vertex_count; ++v) {
    const unsigned l = graph.vertex(v).level;
    run.levels.push_back(l == UINT_MAX ? medusa_test::kUnreached : static_cast<int>(l));
  }
  forms.resize(std::min<std::size_t>(forms.size(), run.stats.supersteps));  // (a batch runs past the stop)
  return run;
}

void check_levels(const LevelRun& run, const std::vector<int>& expected) {
  std::size_t mismatches = 0;
  for (std::size_t v = 0; v < expected.size(); ++v)
    if (run.levels[v] != expected[v] && mismatches++ < 5)
      UNSCOPED_INFO("vertex " << v << ": level " << run.levels[v] << ", expected " << expected[v]);
  CHECK(mismatches == 0);
}

// Switches between a pushed frontier and a pulled one, each way, over the observed supersteps.
struct Switches {
  std::uint32_t to_pull = 0, to_push = 0;
};
Switches count_switches() {
  Switches s;
  for (std::size_t i = 1; i < forms.size(); ++i) {
    s.to_pull += !forms[i - 1].pulled && forms[i].pulled;
    s.to_push += forms[i - 1].pulled && !forms[i].pulled;
  }
  return s;
}
std::set<std::uint32_t> pulled_supersteps() {
  std::set<std::uint32_t> pulled;
  for (std::size_t i = 0; i < forms.size(); ++i)
    if (forms[i].pulled) pulled.insert(static_cast<std::uint32_t>(i));
  return pulled;
}
std::uint32_t batched_between(std::uint32_t first, std::uint32_t end) {
  std::uint32_t n = 0;
  for (std::uint32_t i = first; i < end && i < forms.size(); ++i) n += forms[i].batched;
  return n;
}
}  // namespace level_switch_test

TEST_CASE("BFS-Q crosses from pushed to pulled frontiers and back, with exact levels (a path with stars)",
          "[runtime]") {
  using namespace level_switch_test;
  // The run's own rules decide (the gpu test variants force some of these).
  const medusa_test::ScopedEnv pull("MEDUSA_FRONTIER_PULL", nullptr), fusion("MEDUSA_PULL_FUSION", nullptr),
      batch("MEDUSA_SUPERSTEP_BATCH", nullptr), replay("MEDUSA_BATCH_REPLAY", nullptr);
  constexpr StarLevels s = star_levels();
  const medusa_test::EdgeList el = star_path(s);
  const std::vector<int> expected = medusa_test::bfs_reference(el, 0);
  REQUIRE(expected[el.vertex_count - 1] == static_cast<int>(s.last));
  // The graph's shape: each star's hub and leaves are the dense levels, nothing else.
  std::set<std::uint32_t> stars;
  for (const std::uint32_t hub : s.hubs) stars.insert({hub, hub + 1});
  REQUIRE(dense_levels(el, expected) == stars);

  const LevelRun run = run_bfs(el, &observed_bfs_step);
  check_levels(run, expected);
  CHECK(run.stats.supersteps == s.last + 1);  // (the last level's superstep votes no Continue)
  CHECK(run.stats.stop_reason == "no continue vote");
  CHECK(run.stats.edges_visited == el.src.size());
  REQUIRE(forms.size() == run.stats.supersteps);
  const Switches switches = count_switches();
#if defined(__CUDACC__)
  // Batches between the stars; the first two stars read back and pulled, the third pushed in a batch.
  CHECK(pulled_supersteps() == std::set<std::uint32_t>{s.hubs[0], s.hubs[0] + 1, s.hubs[1], s.hubs[1] + 1});
  CHECK(switches.to_pull == 2);
  CHECK(switches.to_push == 2);
  CHECK(batched_between(0, s.hubs[0]) > 0);
  CHECK(batched_between(s.hubs[0] + 2, s.hubs[1]) > 0);
  CHECK(batched_between(s.hubs[1] + 2, s.hubs[2]) > 0);
  CHECK(forms[s.hubs[2]].batched);
  CHECK(forms[s.hubs[2] + 1].batched);
  CHECK(run.stats.batched_supersteps == batched_between(0, run.stats.supersteps));
  CHECK(run.stats.queued_supersteps > 0);  // (V is more than 16 batch bounds of 1,024 vertices)
#else
  CHECK(pulled_supersteps() == stars);  // no batches: every dense level is pulled
  CHECK(switches.to_pull == 3);
  CHECK(switches.to_push == 3);
  CHECK(run.stats.batched_supersteps == 0);
#endif

#if defined(__CUDACC__)
  {  // Without batches every dense level is pulled.
    const medusa_test::ScopedEnv off("MEDUSA_SUPERSTEP_BATCH", "off");
    INFO("MEDUSA_SUPERSTEP_BATCH=off");
    const LevelRun unbatched = run_bfs(el, &observed_bfs_step);
    check_levels(unbatched, expected);
    CHECK(pulled_supersteps() == stars);
    CHECK(count_switches().to_pull == 3);
    CHECK(count_switches().to_push == 3);
    CHECK(unbatched.stats.batched_supersteps == 0);
    CHECK(unbatched.stats.edges_visited == el.src.size());
  }
  {  // Every superstep batched from the second: every star pushed in a batch, frontiers queued.
    const medusa_test::ScopedEnv always("MEDUSA_SUPERSTEP_BATCH", "always");
    INFO("MEDUSA_SUPERSTEP_BATCH=always");
    const LevelRun batched = run_bfs(el, &observed_bfs_step);
    check_levels(batched, expected);
    CHECK(pulled_supersteps().empty());
    CHECK(batched.stats.batched_supersteps + 1 == batched.stats.supersteps);  // (all but superstep 0)
    CHECK(batched.stats.queued_supersteps > 0);
    CHECK(batched.stats.edges_visited == el.src.size());
  }
  {  // Recorded batches replayed: the same supersteps batched, the third star in a replay.
    medusa::detail::register_replayable_iteration(&replayable_bfs_step);
    INFO("replayable iteration");
    const LevelRun replayed = run_bfs(el, &replayable_bfs_step);
    check_levels(replayed, expected);
    CHECK(replayed.stats.replayed_supersteps > 0);
    CHECK(replayed.stats.batched_supersteps == run.stats.batched_supersteps);
    CHECK(replayed.stats.supersteps == run.stats.supersteps);
    CHECK(replayed.stats.edges_visited == el.src.size());
  }
#endif
}
