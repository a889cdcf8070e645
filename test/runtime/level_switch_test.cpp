// BFS-Q on a graph whose frontier goes small -> large -> small -> large -> small: a long path
// broken by two stars of thousands of leaves, then a third, wide but sparse, star. The engine runs
// a level by its frontier's out-edges: fewer than E/8 are pushed (on CUDA, after a streak of such
// levels, in batches of supersteps with one read-back each, frontiers queued by SetActive()); more
// are pulled over every vertex's in-edges (pull_fusion.h, cuda/batch_policy.h). Every level is
// checked against a FIFO BFS, and every superstep's form, as the engine chose it, against where
// the stars are. Backend-neutral; the batches are CUDA's.
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
#include <string>
#include <vector>

namespace level_switch_test {

// A hub at level `hub` points at `leaves` leaves; each leaf leads through `layers` - 1 more leaves
// (one edge each) to one join vertex, where the path goes on. Levels hub .. hub + layers each have
// `leaves` out-edges.
struct Star {
  std::uint32_t hub, leaves, layers;
  constexpr std::uint32_t last_wide_level() const { return hub + layers; }
};
constexpr std::uint32_t kDenseLeaves = 8192;  // more than E/8 edges per level
constexpr std::uint32_t kSparseLeaves = 4096;  // fewer than E/8, but 4 times a batch's vertex bound

// Where the stars go. A batch's pushes run on the frontier it started from, so a dense level is
// pulled only when a batch's read-back comes before it. A batch starts kSparseStreak supersteps
// after the last exact superstep with a dense frontier (or after superstep 0) and reads back
// every kLength: each dense star's hub sits one level before such a read-back, so its levels
// after the hub are pulled, and at least its last one if the batches fell a superstep earlier or
// later than this arithmetic says. The sparse star sits in the middle of a later batch (of a
// replay, for a registered iteration), whose launches then run a frontier beyond its grid bounds.
struct StarPath {
  std::array<Star, 3> stars;
  std::uint32_t last;  // the path's last level
};
constexpr StarPath star_path_levels() {
  constexpr std::uint32_t streak = medusa::gpu::BatchPolicy::kSparseStreak, length = medusa::gpu::BatchPolicy::kLength;
  const Star first{streak + 2 * length - 1, kDenseLeaves, 2};
  const Star second{first.last_wide_level() + streak + 2 * length - 1, kDenseLeaves, 2};
  const Star sparse{second.last_wide_level() + streak + 5 * length + length / 2, kSparseLeaves, 1};
  return {{first, second, sparse}, sparse.last_wide_level() + 1 + 6 * length};
}

// The graph: a path from vertex 0 to level `p.last` with the stars on it.
medusa_test::EdgeList star_path(const StarPath& p) {
  medusa_test::EdgeList g;
  const auto add = [&g](medusa::VertexId from, medusa::VertexId to) {
    g.src.push_back(from);
    g.dst.push_back(to);
  };
  medusa::VertexId tail = 0, next = 1;  // the path's vertex at `level`, the next unused vertex
  std::size_t k = 0;
  for (std::uint32_t level = 0; level < p.last;) {
    if (k < p.stars.size() && p.stars[k].hub == level) {
      const Star& star = p.stars[k++];
      for (std::uint32_t i = 0; i < star.leaves; ++i) {
        medusa::VertexId from = tail;
        for (std::uint32_t layer = 0; layer < star.layers; ++layer) {
          const medusa::VertexId leaf = next + layer * star.leaves + i;
          add(from, leaf);
          from = leaf;
        }
        add(from, next + star.layers * star.leaves);
      }
      tail = next + star.layers * star.leaves;
      next = tail + 1;
      level = star.last_wide_level() + 1;
    } else {
      add(tail, next);
      tail = next++;
      ++level;
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

// BFS-Q's level, and SSSP-Q's priorities on it: a vertex reached at level l asks to run in bucket
// l (Config::priorityDelta 1, one bucket per level, as SSSP-Q with unit weights).
template <bool Prioritized>
struct Vertex {
  unsigned level = UINT_MAX;
};
struct Edge {};
struct VertexArrays {
  unsigned* level;
};
struct EdgeArrays {};
}  // namespace level_switch_test

template <bool Prioritized>
struct medusa::ProgramTraits<level_switch_test::Vertex<Prioritized>, level_switch_test::Edge> {
  using Vertex = level_switch_test::Vertex<Prioritized>;
  using Edge = level_switch_test::Edge;
  using Message = unsigned;
  using VertexArrays = level_switch_test::VertexArrays;
  using EdgeArrays = level_switch_test::EdgeArrays;
  static constexpr std::array<medusa::FieldSpec, 1> vertex_fields{{
      {"level", offsetof(Vertex, level), sizeof(unsigned), medusa::kUpload | medusa::kDownload |
       medusa::kEdgeRead}}};
  static constexpr std::array<medusa::FieldSpec, 0> edge_fields{};
  static VertexArrays bind_vertex(void* const* a) { return {static_cast<unsigned*>(a[0])}; }
  static EdgeArrays bind_edge(void* const*) { return {}; }
  static constexpr medusa::ProgramUses uses = medusa::ProgramUses::of(
      medusa::kUsesContinueVote | medusa::kUsesVertexFrontier | medusa::kUsesReceived | medusa::kUsesMessages |
      medusa::kUsesCombinerConsumesSlots | (Prioritized ? medusa::kUsesPriorities : medusa::ProgramUse{}));
};

// samples/bfs/bfs_q's functors, as medusa-cc emits them (the edge loop edge-parallel, one steady
// message per source vertex).
namespace level_switch_test {
using Program = medusa::ProgramTraits<Vertex<false>, Edge>;
using PrioritizedProgram = medusa::ProgramTraits<Vertex<true>, Edge>;
using Ctx = medusa::KernelCtx<unsigned>;

namespace medusa_gen_Expand {
struct Vertex : medusa::VertexHandle<unsigned> {
  const unsigned& level;
};
struct Edge : medusa::EdgeHandle<unsigned> {
  using message_type = unsigned;
  using arrays_type = EdgeArrays;
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
struct PrioritizedExpand : Expand {};  // (EmvLaunch is per functor type: one per program)
struct Expand_edge_element : Expand {
  MEDUSA_HD explicit Expand_edge_element(const Expand& f) : Expand(f) {}
  MEDUSA_HD void operator()(const Ctx& c, const VertexArrays& va, const EdgeArrays& ea, medusa::VertexId id,
                            std::uint32_t i) const {
    Vertex v{{&c, id}, va.level[id]};
    medusa::EdgeList<Edge> el(&c, &ea, id);
    medusa_edge(v, el, i);
  }
  MEDUSA_HD void medusa_edge(Vertex& v, medusa::EdgeList<Edge>& el, std::uint32_t medusa_edge_index) const {
    unsigned next = v.level + 1;
    el[medusa_edge_index].sendMsg(next);
  }
  static constexpr bool medusa_source_message_steady = true;
  MEDUSA_HD unsigned medusa_source_message(const Ctx& c, const VertexArrays& va, const EdgeArrays& ea,
                                           medusa::VertexId id) const {
    Vertex v{{&c, id}, va.level[id]};
    medusa::EdgeList<Edge> el(&c, &ea, id);
    return medusa_message(v, el);
  }
  MEDUSA_HD unsigned medusa_message(Vertex& v, medusa::EdgeList<Edge>&) const { return v.level + 1; }
};
}  // namespace medusa_gen_Expand
using Expand = medusa_gen_Expand::Expand;
using PrioritizedExpand = medusa_gen_Expand::PrioritizedExpand;

namespace medusa_gen_Visit {
struct Vertex : medusa::VertexHandle<unsigned> {
  unsigned& level;
};
template <bool Prioritized>
struct VisitAs {
  MEDUSA_HD void operator()(Vertex& v) const {
    unsigned level = v.combined_msg();
    if (level < v.level) {
      v.level = level;
      if constexpr (Prioritized) v.SetActive(level);
      else v.SetActive();
      medusa::Continue();
    }
  }
};
using Visit = VisitAs<false>;
using PrioritizedVisit = VisitAs<true>;
template <class F>
struct Visit_element {
  F f;
  MEDUSA_HD void operator()(const Ctx& c, const VertexArrays& va, const EdgeArrays&, medusa::VertexId id) const {
    Vertex v{{&c, id}, va.level[id]};
    f(v);
  }
};
}  // namespace medusa_gen_Visit
using Visit = medusa_gen_Visit::Visit;
using PrioritizedVisit = medusa_gen_Visit::PrioritizedVisit;
}  // namespace level_switch_test

MEDUSA_TEST_EMV_EDGES_LAUNCH(level_switch_test::Expand, level_switch_test::medusa_gen_Expand::Expand_edge_element,
                             level_switch_test::Program)
MEDUSA_TEST_EMV_EDGES_LAUNCH(level_switch_test::PrioritizedExpand,
                             level_switch_test::medusa_gen_Expand::Expand_edge_element,
                             level_switch_test::PrioritizedProgram)
MEDUSA_TEST_EMV_LAUNCH(level_switch_test::Visit, VERTEX,
                       level_switch_test::medusa_gen_Visit::Visit_element<level_switch_test::Visit>,
                       level_switch_test::Program)
MEDUSA_TEST_EMV_LAUNCH(level_switch_test::PrioritizedVisit, VERTEX,
                       level_switch_test::medusa_gen_Visit::Visit_element<level_switch_test::PrioritizedVisit>,
                       level_switch_test::PrioritizedProgram)

namespace level_switch_test {
// The functors of BFS-Q, or of BFS-Q with priorities.
template <bool Prioritized>
struct Functors {
  using ExpandF = Expand;
  using VisitF = Visit;
  using ProgramT = Program;
};
template <>
struct Functors<true> {
  using ExpandF = PrioritizedExpand;
  using VisitF = PrioritizedVisit;
  using ProgramT = PrioritizedProgram;
};
template <bool Prioritized>
void bfs_step() {
  medusa::InitMessageBuffer(UINT_MAX);
  medusa::EMV<medusa::ELIST>::Run(typename Functors<Prioritized>::ExpandF{}, medusa::Active);
  medusa::Combiner();
  medusa::EMV<medusa::VERTEX>::Run(typename Functors<Prioritized>::VisitF{}, medusa::Received);
}
// What each superstep the host issued ran as, asked of the engine before its launches: the pass
// over the frontier pulled or pushed (the choice fused_combine makes), in a batch or read back.
struct StepForm {
  bool pulled, batched;
};
std::vector<StepForm> forms;
template <bool Prioritized>
void observed_bfs_step() {
  using Session = medusa::Session<typename Functors<Prioritized>::ProgramT>;
  auto& engine = static_cast<Session&>(medusa::detail::current_session()).engine(0);
#if defined(__CUDACC__)
  const bool batched = engine.batching();
#else
  const bool batched = false;
#endif
  forms.push_back({engine.frontier_pull_preferred(), batched});
  bfs_step<Prioritized>();
}
// bfs_step registered as medusa-cc registers a straight line of operations: the CUDA backend may
// replay recorded batches without calling it.
void replayable_bfs_step() { bfs_step<false>(); }

struct LevelRun {
  std::vector<int> levels;  // (kUnreached where unreached, as the reference)
  medusa::RunStats stats;
};
template <bool Prioritized, class Iteration>
LevelRun run_bfs(const medusa_test::EdgeList& el, Iteration iteration) {
  medusa::Graph<Vertex<Prioritized>, Edge> graph(el.vertex_count);
  graph.SetEdges(el.src, el.dst);
  graph.vertex(0).level = 0;
  graph.SetActive(0);
  medusa::Config conf;
  conf.combinerOpType = medusa::MEDUSA_MIN;
  if (Prioritized) conf.priorityDelta = 1;
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
// The observed supersteps in one line, for a failure's message: b batched, P pulled, p pushed.
std::string forms_text() {
  std::string text;
  for (const StepForm& f : forms) text += f.batched ? 'b' : f.pulled ? 'P' : 'p';
  return text;
}
std::uint32_t batched_between(std::uint32_t first, std::uint32_t end) {
  std::uint32_t n = 0;
  for (std::uint32_t i = first; i < end && i < forms.size(); ++i) n += forms[i].batched;
  return n;
}

// The graph, its FIFO BFS levels and its dense levels (the wide levels of the two dense stars).
struct Input {
  StarPath path = star_path_levels();
  medusa_test::EdgeList graph = star_path(path);
  std::vector<int> expected = medusa_test::bfs_reference(graph, 0);
  std::set<std::uint32_t> dense;
  Input() {
    for (const Star* star : {&path.stars[0], &path.stars[1]})
      for (std::uint32_t level = star->hub; level <= star->last_wide_level(); ++level) dense.insert(level);
  }
};
const Input& input() {
  static const Input in;
  return in;
}

// A run with the run's own rules (batches on CUDA): exact levels, and the frontier pushed, then
// pulled, pushed, pulled and pushed again; on CUDA with batches between the dense stars, whose
// last levels at least were read back and pulled (star_path_levels), and the sparse star pushed
// in a batch.
void check_run(const LevelRun& run) {
  const Input& in = input();
  const Star &first = in.path.stars[0], &second = in.path.stars[1], &sparse = in.path.stars[2];
  check_levels(run, in.expected);
  CHECK(run.stats.supersteps == in.path.last + 1);  // (the last level's superstep votes no Continue)
  CHECK(run.stats.stop_reason == "no continue vote");
  CHECK(run.stats.edges_visited == in.graph.src.size());
  REQUIRE(forms.size() == run.stats.supersteps);
  INFO("supersteps (b batched, P pulled, p pushed): " << forms_text());
  const Switches switches = count_switches();
  CHECK(switches.to_pull == 2);
  CHECK(switches.to_push == 2);
  const std::set<std::uint32_t> pulled = pulled_supersteps();
#if defined(__CUDACC__)
  CHECK(std::includes(in.dense.begin(), in.dense.end(), pulled.begin(), pulled.end()));
  CHECK(pulled.count(first.last_wide_level()) == 1);
  CHECK(pulled.count(second.last_wide_level()) == 1);
  CHECK(batched_between(0, first.hub) > 0);
  CHECK(batched_between(first.last_wide_level() + 1, second.hub) > 0);
  CHECK(batched_between(second.last_wide_level() + 1, in.path.last + 1) > 0);
  CHECK(forms[sparse.hub].batched);
  CHECK(forms[sparse.hub + 1].batched);
  CHECK(run.stats.batched_supersteps == batched_between(0, run.stats.supersteps));
#else
  (void)first, (void)second, (void)sparse;
  CHECK(pulled == in.dense);  // no batches: every dense level is pulled
  CHECK(run.stats.batched_supersteps == 0);
#endif
}

// The run's own rules decide (the gpu test variants force some of these).
struct DefaultSchedule {
  medusa_test::ScopedEnv pull{"MEDUSA_FRONTIER_PULL", nullptr}, fusion{"MEDUSA_PULL_FUSION", nullptr},
      batch{"MEDUSA_SUPERSTEP_BATCH", nullptr}, replay{"MEDUSA_BATCH_REPLAY", nullptr},
      delta{"MEDUSA_PRIORITY_DELTA", nullptr};
};
}  // namespace level_switch_test

TEST_CASE("BFS-Q on a path with stars gives exact levels, its frontier pushed and pulled by turns", "[runtime]") {
  using namespace level_switch_test;
  const DefaultSchedule schedule;
  const Input& in = input();
  // The graph's shape: the wide levels of the two dense stars are the dense levels, nothing else;
  // the sparse star is wider than the least vertex bound of a batch.
  REQUIRE(in.expected[in.graph.vertex_count - 1] == static_cast<int>(in.path.last));
  REQUIRE(dense_levels(in.graph, in.expected) == in.dense);
  REQUIRE(in.path.stars[2].leaves > medusa::gpu::BatchPolicy::kMinVertexBound);

  const LevelRun run = run_bfs<false>(in.graph, &observed_bfs_step<false>);
  check_run(run);
#if defined(__CUDACC__)
  CHECK(run.stats.queued_supersteps > 0);  // (V is more than 16 batch bounds of 1,024 vertices)
  {
    INFO("MEDUSA_SUPERSTEP_BATCH=off: every dense level pulled");
    const medusa_test::ScopedEnv off("MEDUSA_SUPERSTEP_BATCH", "off");
    const LevelRun unbatched = run_bfs<false>(in.graph, &observed_bfs_step<false>);
    check_levels(unbatched, in.expected);
    INFO("supersteps: " << forms_text());
    CHECK(pulled_supersteps() == in.dense);
    CHECK(unbatched.stats.batched_supersteps == 0);
    CHECK(unbatched.stats.edges_visited == in.graph.src.size());
  }
  {
    INFO("MEDUSA_SUPERSTEP_BATCH=always: every superstep after the first batched, every star pushed");
    const medusa_test::ScopedEnv always("MEDUSA_SUPERSTEP_BATCH", "always");
    const LevelRun batched = run_bfs<false>(in.graph, &observed_bfs_step<false>);
    check_levels(batched, in.expected);
    CHECK(pulled_supersteps().empty());
    CHECK(batched.stats.batched_supersteps + 1 == batched.stats.supersteps);
    CHECK(batched.stats.queued_supersteps > 0);
    CHECK(batched.stats.edges_visited == in.graph.src.size());
  }
  {
    INFO("a registered iteration: recorded batches replayed, the same supersteps batched");
    medusa::detail::register_replayable_iteration(&replayable_bfs_step);
    const LevelRun replayed = run_bfs<false>(in.graph, &replayable_bfs_step);
    check_levels(replayed, in.expected);
    CHECK(replayed.stats.replayed_supersteps > 0);
    CHECK(replayed.stats.batched_supersteps == run.stats.batched_supersteps);
    CHECK(replayed.stats.supersteps == run.stats.supersteps);
    CHECK(replayed.stats.edges_visited == in.graph.src.size());
  }
#endif
}

TEST_CASE("BFS-Q with SetActive(level) priorities (buckets, as SSSP-Q) on a path with stars, the same", "[runtime]") {
  using namespace level_switch_test;
  const DefaultSchedule schedule;
  // One bucket per level: the frontiers are BFS-Q's, taken from the buckets.
  const LevelRun run = run_bfs<true>(input().graph, &observed_bfs_step<true>);
  check_run(run);
}
