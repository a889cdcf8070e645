// CUDA-backend tests with hand-written "generated" programs (the shape medusa-cc emits, see
// docs/design/codegen-contract.md), checked against plain CPU references. They need a GPU
// (ctest label `gpu`). The backend-neutral runtime tests run on this backend too; these add the
// CUDA-specific paths: frontier compaction, flag-scan domains, m > 1 offsets, CUB combiner with
// a user operator on a struct message, the vote read-back and edge-field permutation.
#define MEDUSA_GENERATED 1
#include <medusa/medusa.h>

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <queue>
#include <string>
#include <vector>

using namespace medusa;

namespace {

struct TestGraph {
  std::uint32_t n;
  std::vector<std::uint32_t> src, dst;
};

std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Random edges plus a long path 0 -> 1 -> ... so BFS needs many supersteps.
TestGraph make_graph(std::uint32_t n, std::uint64_t random_edges, std::uint64_t seed) {
  TestGraph g{n, {}, {}};
  for (std::uint32_t v = 0; v + 1 < n && v < 200; ++v) {
    g.src.push_back(v);
    g.dst.push_back(v + 1);
  }
  for (std::uint64_t i = 0; i < random_edges; ++i) {
    g.src.push_back(static_cast<std::uint32_t>(mix(seed + 2 * i) % n));
    g.dst.push_back(static_cast<std::uint32_t>(mix(seed + 2 * i + 1) % (n / 2) + n / 2));
  }
  return g;
}

}  // namespace

// ================================ PageRank: ELIST + Combiner(SUM) + VERTEX ======================
namespace pr {
struct Vertex : VertexBase<float> {
  float rank;
};
struct Edge : EdgeBase<Vertex> {};
}  // namespace pr

template <>
struct medusa::ProgramTraits<pr::Vertex, pr::Edge> {
  using Vertex = pr::Vertex;
  using Edge = pr::Edge;
  using Message = float;
  struct VertexArrays {
    float* rank;
  };
  struct EdgeArrays {};
  static constexpr std::array<FieldSpec, 1> vertex_fields{
      {{"rank", offsetof(pr::Vertex, rank), sizeof(float), kUpload | kDownload | kEdgeRead}}};
  static constexpr std::array<FieldSpec, 0> edge_fields{};
  static VertexArrays bind_vertex(void* const* a) { return {static_cast<float*>(a[0])}; }
  static EdgeArrays bind_edge(void* const*) { return {}; }
  static constexpr ProgramUses uses = ProgramUses::of(kUsesMessages);
};

namespace pr {
using P = ProgramTraits<Vertex, Edge>;
struct VProxy : VertexHandle<float> {
  float& rank;
};
struct EProxy : EdgeHandle<float> {
  using message_type = float;
  using arrays_type = P::EdgeArrays;
  static MEDUSA_HD EProxy make(const KernelCtx<float>& c, const arrays_type&, EdgeIndex e,
                               VertexId head, VertexId tail) {
    return EProxy{{&c, e, head, tail}};
  }
};
struct SendRank {
  MEDUSA_HD void operator()(VProxy& v, medusa::EdgeList<EProxy>& el) const {
    const int edge_count = v.edge_count();
    const float msg = v.rank / edge_count;
    for (std::uint32_t i = 0; i < el.size(); i++) el[i].sendMsg(msg);
  }
};
struct SendRankElement {
  SendRank f;
  MEDUSA_HD void operator()(const KernelCtx<float>& c, const P::VertexArrays& va,
                            const P::EdgeArrays& ea, VertexId id) const {
    VProxy v{{&c, id}, va.rank[id]};
    medusa::EdgeList<EProxy> el(&c, &ea, id);
    f(v, el);
  }
};
struct UpdateRank {
  MEDUSA_HD void operator()(VProxy& v) const { v.rank = 0.15f + v.combined_msg() * 0.85f; }
};
struct UpdateRankElement {
  UpdateRank f;
  MEDUSA_HD void operator()(const KernelCtx<float>& c, const P::VertexArrays& va,
                            const P::EdgeArrays&, VertexId id) const {
    VProxy v{{&c, id}, va.rank[id]};
    f(v);
  }
};
}  // namespace pr

template <>
struct medusa::EmvLaunch<pr::SendRank> {
  static constexpr ApiKind kind = ELIST;
  static void run(SessionBase& s, const pr::SendRank& f, Domain d) {
    exec::run<ELIST>(static_cast<Session<pr::P>&>(s), d, pr::SendRankElement{f});
  }
};
template <>
struct medusa::EmvLaunch<pr::UpdateRank> {
  static constexpr ApiKind kind = VERTEX;
  static void run(SessionBase& s, const pr::UpdateRank& f, Domain d) {
    exec::run<VERTEX>(static_cast<Session<pr::P>&>(s), d, pr::UpdateRankElement{f});
  }
};

namespace pr {
void Iteration() {
  InitMessageBuffer(0.0f);
  EMV<ELIST>::Run(SendRank{});
  Combiner();
  EMV<VERTEX>::Run(UpdateRank{});
}
}  // namespace pr

TEST_CASE("PageRank matches the CPU reference", "[cuda][gpu]") {
  const TestGraph tg = make_graph(5000, 60000, 7);
  Graph<pr::Vertex, pr::Edge> g;
  for (std::uint32_t v = 0; v < tg.n; ++v) g.AddVertex(pr::Vertex{{}, 1.0f});
  for (std::size_t i = 0; i < tg.src.size(); ++i) g.AddEdge(tg.src[i], tg.dst[i]);
  Config conf;
  conf.maxIteration = 10;
  auto device = Init_Device_DS(g, conf);
  const RunStats st = device.Run(pr::Iteration);
  device.Dump_Result(g);
  CHECK(st.supersteps == 10);
  CHECK(st.stop_reason == "maxIteration");
  CHECK(st.edges_visited == 10 * tg.src.size());

  std::vector<std::uint32_t> outdeg(tg.n, 0);
  for (auto s : tg.src) ++outdeg[s];
  std::vector<double> rank(tg.n, 1.0), sum(tg.n);
  for (int it = 0; it < 10; ++it) {
    std::fill(sum.begin(), sum.end(), 0.0);
    for (std::size_t i = 0; i < tg.src.size(); ++i) sum[tg.dst[i]] += rank[tg.src[i]] / outdeg[tg.src[i]];
    for (std::uint32_t v = 0; v < tg.n; ++v) rank[v] = 0.15 + 0.85 * sum[v];
  }
  for (std::uint32_t v = 0; v < tg.n; ++v)
    REQUIRE(g.vertex(v).rank == Approx(rank[v]).epsilon(1e-4));
}

// ============== BFS: ELIST over Active, Combiner(MIN), VERTEX over Received, Continue ===========
namespace bfs {
struct Vertex : VertexBase<int> {
  int level;
};
struct Edge : EdgeBase<Vertex> {};
}  // namespace bfs

template <>
struct medusa::ProgramTraits<bfs::Vertex, bfs::Edge> {
  using Vertex = bfs::Vertex;
  using Edge = bfs::Edge;
  using Message = int;
  struct VertexArrays {
    int* level;
  };
  struct EdgeArrays {};
  static constexpr std::array<FieldSpec, 1> vertex_fields{
      {{"level", offsetof(bfs::Vertex, level), sizeof(int), kUpload | kDownload | kEdgeRead}}};
  static constexpr std::array<FieldSpec, 0> edge_fields{};
  static VertexArrays bind_vertex(void* const* a) { return {static_cast<int*>(a[0])}; }
  static EdgeArrays bind_edge(void* const*) { return {}; }
  static constexpr ProgramUses uses =
      ProgramUses::of(kUsesContinueVote | kUsesVertexFrontier | kUsesReceived | kUsesMessages);
};

namespace bfs {
constexpr int kInf = 1 << 30;
using P = ProgramTraits<Vertex, Edge>;
struct VProxy : VertexHandle<int> {
  int& level;
};
struct EProxy : EdgeHandle<int> {
  using message_type = int;
  using arrays_type = P::EdgeArrays;
  static MEDUSA_HD EProxy make(const KernelCtx<int>& c, const arrays_type&, EdgeIndex e,
                               VertexId head, VertexId tail) {
    return EProxy{{&c, e, head, tail}};
  }
};
struct Expand {
  MEDUSA_HD void operator()(VProxy& v, medusa::EdgeList<EProxy>& el) const {
    for (std::uint32_t i = 0; i < el.size(); ++i) el[i].sendMsg(v.level + 1);
  }
};
struct ExpandElement {
  Expand f;
  MEDUSA_HD void operator()(const KernelCtx<int>& c, const P::VertexArrays& va,
                            const P::EdgeArrays& ea, VertexId id) const {
    VProxy v{{&c, id}, va.level[id]};
    medusa::EdgeList<EProxy> el(&c, &ea, id);
    f(v, el);
  }
};
struct Visit {
  MEDUSA_HD void operator()(VProxy& v) const {
    const int l = v.combined_msg();
    if (l < v.level) {
      v.level = l;
      v.SetActive();
      Continue();
    }
  }
};
struct VisitElement {
  Visit f;
  MEDUSA_HD void operator()(const KernelCtx<int>& c, const P::VertexArrays& va,
                            const P::EdgeArrays&, VertexId id) const {
    VProxy v{{&c, id}, va.level[id]};
    f(v);
  }
};
}  // namespace bfs

template <>
struct medusa::EmvLaunch<bfs::Expand> {
  static constexpr ApiKind kind = ELIST;
  static void run(SessionBase& s, const bfs::Expand& f, Domain d) {
    exec::run<ELIST>(static_cast<Session<bfs::P>&>(s), d, bfs::ExpandElement{f});
  }
};
template <>
struct medusa::EmvLaunch<bfs::Visit> {
  static constexpr ApiKind kind = VERTEX;
  static void run(SessionBase& s, const bfs::Visit& f, Domain d) {
    exec::run<VERTEX>(static_cast<Session<bfs::P>&>(s), d, bfs::VisitElement{f});
  }
};

namespace bfs {
void Iteration() {
  InitMessageBuffer(kInf);
  EMV<ELIST>::Run(Expand{}, Active);
  Combiner();
  EMV<VERTEX>::Run(Visit{}, Received);
}
}  // namespace bfs

TEST_CASE("BFS over the SetActive frontier matches a FIFO BFS", "[cuda][gpu]") {
  const TestGraph tg = make_graph(20000, 50000, 11);
  Graph<bfs::Vertex, bfs::Edge> g;
  for (std::uint32_t v = 0; v < tg.n; ++v) g.AddVertex(bfs::Vertex{{}, v == 0 ? 0 : bfs::kInf});
  for (std::size_t i = 0; i < tg.src.size(); ++i) g.AddEdge(tg.src[i], tg.dst[i]);
  g.SetActive(0);
  g.SetActive(0);  // duplicates collapse
  Config conf;
  conf.combinerOpType = MEDUSA_MIN;
  auto device = Init_Device_DS(g, conf);
  const RunStats st = device.Run(bfs::Iteration);
  device.Dump_Result(g);

  std::vector<std::vector<std::uint32_t>> adj(tg.n);
  for (std::size_t i = 0; i < tg.src.size(); ++i) adj[tg.src[i]].push_back(tg.dst[i]);
  std::vector<int> level(tg.n, bfs::kInf);
  std::queue<std::uint32_t> q;
  level[0] = 0;
  q.push(0);
  int depth = 0;
  std::uint64_t expanded_edges = 0;
  while (!q.empty()) {
    const auto u = q.front();
    q.pop();
    depth = std::max(depth, level[u]);
    expanded_edges += adj[u].size();
    for (auto w : adj[u])
      if (level[w] == bfs::kInf) {
        level[w] = level[u] + 1;
        q.push(w);
      }
  }
  for (std::uint32_t v = 0; v < tg.n; ++v) REQUIRE(g.vertex(v).level == level[v]);
  // One superstep per level plus the last one, in which nobody votes.
  CHECK(st.supersteps == static_cast<std::uint32_t>(depth + 1));
  CHECK(st.stop_reason == "no continue vote");
  CHECK(st.edges_visited == expanded_edges);
}

// ====== m = 2: EDGE sends two messages, MESSAGE doubles every slot, MLIST sums (Received) =======
namespace multi {
struct Vertex : VertexBase<long long> {
  long long total;
};
struct Edge : EdgeBase<Vertex> {
  int weight;
  int seen;  // written by the EDGE functor, checked in input order after Dump_Result
};
}  // namespace multi

template <>
struct medusa::ProgramTraits<multi::Vertex, multi::Edge> {
  using Vertex = multi::Vertex;
  using Edge = multi::Edge;
  using Message = long long;
  struct VertexArrays {
    long long* total;
  };
  struct EdgeArrays {
    int* weight;
    int* seen;
  };
  static constexpr std::array<FieldSpec, 1> vertex_fields{
      {{"total", offsetof(multi::Vertex, total), sizeof(long long), kDownload}}};
  static constexpr std::array<FieldSpec, 2> edge_fields{
      {{"weight", offsetof(multi::Edge, weight), sizeof(int), kUpload},
       {"seen", offsetof(multi::Edge, seen), sizeof(int), kDownload}}};
  static VertexArrays bind_vertex(void* const* a) { return {static_cast<long long*>(a[0])}; }
  static EdgeArrays bind_edge(void* const* a) {
    return {static_cast<int*>(a[0]), static_cast<int*>(a[1])};
  }
  static constexpr ProgramUses uses = ProgramUses::of(kUsesHaltVote | kUsesReceived | kUsesMessages);
};

namespace multi {
using P = ProgramTraits<Vertex, Edge>;
struct VProxy : VertexHandle<long long> {
  long long& total;
};
struct EProxy : EdgeHandle<long long> {
  int& weight;
  int& seen;
};
struct Send2 {
  MEDUSA_HD void operator()(EProxy& e) const {
    e.seen = static_cast<int>(e.head_id()) * 7 + static_cast<int>(e.tail_id());
    e.sendMsg(e.weight);
    e.sendMsg(1000);
  }
};
struct Send2Element {
  Send2 f;
  MEDUSA_HD void operator()(const KernelCtx<long long>& c, const P::VertexArrays&,
                            const P::EdgeArrays& ea, EdgeIndex e) const {
    EProxy p{{&c, e, c.edge_src[e], c.out_dst[e]}, ea.weight[e], ea.seen[e]};
    f(p);
  }
};
struct Double {
  MEDUSA_HD void operator()(long long& msg) const { msg *= 2; }
};
struct DoubleElement {
  Double f;
  MEDUSA_HD void operator()(const KernelCtx<long long>& c, const P::VertexArrays&,
                            const P::EdgeArrays&, EdgeIndex slot) const {
    f(c.messages[slot]);
  }
};
struct Sum {
  MEDUSA_HD void operator()(VProxy& v, medusa::MessageList<long long>& ml) const {
    long long s = 0;
    for (std::uint32_t i = 0; i < ml.size(); ++i) s += ml[i];
    v.total = s;
    if (Superstep() == 2) Halt();
  }
};
struct SumElement {
  Sum f;
  MEDUSA_HD void operator()(const KernelCtx<long long>& c, const P::VertexArrays& va,
                            const P::EdgeArrays&, VertexId id) const {
    VProxy v{{&c, id}, va.total[id]};
    medusa::MessageList<long long> ml(&c, id);
    f(v, ml);
  }
};
}  // namespace multi

template <>
struct medusa::EmvLaunch<multi::Send2> {
  static constexpr ApiKind kind = EDGE;
  static void run(SessionBase& s, const multi::Send2& f, Domain d) {
    exec::run<EDGE>(static_cast<Session<multi::P>&>(s), d, multi::Send2Element{f});
  }
};
template <>
struct medusa::EmvLaunch<multi::Double> {
  static constexpr ApiKind kind = MESSAGE;
  static void run(SessionBase& s, const multi::Double& f, Domain d) {
    exec::run<MESSAGE>(static_cast<Session<multi::P>&>(s), d, multi::DoubleElement{f});
  }
};
template <>
struct medusa::EmvLaunch<multi::Sum> {
  static constexpr ApiKind kind = MLIST;
  static void run(SessionBase& s, const multi::Sum& f, Domain d) {
    exec::run<MLIST>(static_cast<Session<multi::P>&>(s), d, multi::SumElement{f});
  }
};

namespace multi {
void Iteration() {
  InitMessageBuffer(0);
  EMV<EDGE>::Run(Send2{});
  EMV<MESSAGE>::Run(Double{});
  EMV<MLIST>::Run(Sum{}, Received);
}
// Sends three messages along an edge with m = 2.
struct Send3 {
  MEDUSA_HD void operator()(EProxy& e) const {
    e.sendMsg(1);
    e.sendMsg(2);
    e.sendMsg(3);
  }
};
struct Send3Element {
  Send3 f;
  MEDUSA_HD void operator()(const KernelCtx<long long>& c, const P::VertexArrays&,
                            const P::EdgeArrays& ea, EdgeIndex e) const {
    EProxy p{{&c, e, c.edge_src[e], c.out_dst[e]}, ea.weight[e], ea.seen[e]};
    f(p);
  }
};
}  // namespace multi
template <>
struct medusa::EmvLaunch<multi::Send3> {
  static constexpr ApiKind kind = EDGE;
  static void run(SessionBase& s, const multi::Send3& f, Domain d) {
    exec::run<EDGE>(static_cast<Session<multi::P>&>(s), d, multi::Send3Element{f});
  }
};

TEST_CASE("m = 2 with EDGE, MESSAGE and MLIST over Received, Halt, edge fields in input order",
          "[cuda][gpu]") {
  const TestGraph tg = make_graph(3000, 20000, 23);
  Graph<multi::Vertex, multi::Edge> g;
  for (std::uint32_t v = 0; v < tg.n; ++v) g.AddVertex(multi::Vertex{{}, -1});
  for (std::size_t i = 0; i < tg.src.size(); ++i)
    g.AddEdge(tg.src[i], tg.dst[i], multi::Edge{{}, static_cast<int>(i % 97), 0});
  Config conf;
  conf.messagesPerEdge = 2;
  auto device = Init_Device_DS(g, conf);
  const RunStats st = device.Run(multi::Iteration);
  device.Dump_Result(g);
  CHECK(st.supersteps == 3);
  CHECK(st.stop_reason == "halt vote");

  std::vector<long long> total(tg.n, 0);
  std::vector<bool> received(tg.n, false);
  for (std::size_t i = 0; i < tg.src.size(); ++i) {
    total[tg.dst[i]] += 2 * (static_cast<long long>(i % 97) + 1000);
    received[tg.dst[i]] = true;
  }
  // `total` is kDownload only; vertices outside Domain::Received keep their host value.
  for (std::uint32_t v = 0; v < tg.n; ++v) REQUIRE(g.vertex(v).total == (received[v] ? total[v] : -1));
  for (std::size_t i = 0; i < tg.src.size(); ++i)
    REQUIRE(g.edge(i).seen == static_cast<int>(tg.src[i]) * 7 + static_cast<int>(tg.dst[i]));

  SECTION("more than m messages along an edge is an error") {
    auto d2 = Init_Device_DS(g, conf);
    try {
      d2.Run([] {
        InitMessageBuffer(0);
        EMV<EDGE>::Run(multi::Send3{});
      });
      FAIL("Run did not throw");
    } catch (const Error& e) {
      CHECK(std::string(e.what()).find("messagesPerEdge") != std::string::npos);
    }
  }
}

// ============ Struct message + user combiner operator (CUB with a user op), EDGE Active =========
namespace argmin {
struct Best {
  float dist;
  int from;
};
struct Vertex : VertexBase<Best> {
  float dist;
  int parent;
};
struct Edge : EdgeBase<Vertex> {
  float len;
};
}  // namespace argmin

template <>
struct medusa::ProgramTraits<argmin::Vertex, argmin::Edge> {
  using Vertex = argmin::Vertex;
  using Edge = argmin::Edge;
  using Message = argmin::Best;
  struct VertexArrays {
    float* dist;
    int* parent;
  };
  struct EdgeArrays {
    float* len;
  };
  static constexpr std::array<FieldSpec, 2> vertex_fields{
      {{"dist", offsetof(argmin::Vertex, dist), sizeof(float), kUpload | kDownload | kEdgeRead},
       {"parent", offsetof(argmin::Vertex, parent), sizeof(int), kUpload | kDownload}}};
  static constexpr std::array<FieldSpec, 1> edge_fields{
      {{"len", offsetof(argmin::Edge, len), sizeof(float), kUpload}}};
  static VertexArrays bind_vertex(void* const* a) {
    return {static_cast<float*>(a[0]), static_cast<int*>(a[1])};
  }
  static EdgeArrays bind_edge(void* const* a) { return {static_cast<float*>(a[0])}; }
  static constexpr ProgramUses uses = ProgramUses::of(kUsesEdgeFrontier | kUsesMessages);
};

namespace argmin {
using P = ProgramTraits<Vertex, Edge>;
struct MinBest {
  MEDUSA_HD Best operator()(const Best& a, const Best& b) const {
    return (b.dist < a.dist || (b.dist == a.dist && b.from < a.from)) ? b : a;
  }
};
struct HeadProxy {
  const float& dist;
};
struct EProxy : EdgeHandle<Best> {
  const P::VertexArrays* va;
  float& len;
  MEDUSA_HD HeadProxy head() const { return HeadProxy{va->dist[medusa_head_]}; }
};
// Superstep 0: every edge relaxes and activates itself; later supersteps: only active edges
// (all of them, again) relax: the same result, through the edge queue.
struct Relax {
  MEDUSA_HD void operator()(EProxy& e) const {
    e.sendMsg(Best{e.head().dist + e.len, static_cast<int>(e.head_id())});
    e.SetActive();
  }
};
struct RelaxElement {
  Relax f;
  const P::VertexArrays* unused = nullptr;
  MEDUSA_HD void operator()(const KernelCtx<Best>& c, const P::VertexArrays& va,
                            const P::EdgeArrays& ea, EdgeIndex e) const {
    EProxy p{{&c, e, c.edge_src[e], c.out_dst[e]}, &va, ea.len[e]};
    f(p);
  }
};
struct VProxy : VertexHandle<Best> {
  float& dist;
  int& parent;
};
struct Take {
  MEDUSA_HD void operator()(VProxy& v) const {
    const Best b = v.combined_msg();
    if (b.dist < v.dist) {
      v.dist = b.dist;
      v.parent = b.from;
    }
  }
};
struct TakeElement {
  Take f;
  MEDUSA_HD void operator()(const KernelCtx<Best>& c, const P::VertexArrays& va,
                            const P::EdgeArrays&, VertexId id) const {
    VProxy v{{&c, id}, va.dist[id], va.parent[id]};
    f(v);
  }
};
}  // namespace argmin

template <>
struct medusa::EmvLaunch<argmin::Relax> {
  static constexpr ApiKind kind = EDGE;
  static void run(SessionBase& s, const argmin::Relax& f, Domain d) {
    exec::run<EDGE>(static_cast<Session<argmin::P>&>(s), d, argmin::RelaxElement{f});
  }
};
template <>
struct medusa::EmvLaunch<argmin::Take> {
  static constexpr ApiKind kind = VERTEX;
  static void run(SessionBase& s, const argmin::Take& f, Domain d) {
    exec::run<VERTEX>(static_cast<Session<argmin::P>&>(s), d, argmin::TakeElement{f});
  }
};
template <>
struct medusa::CombinerLaunch<argmin::MinBest> {
  static void run(SessionBase& s, const argmin::MinBest& op) {
    static_cast<Session<argmin::P>&>(s).combine(op);
  }
};

TEST_CASE("struct messages with a user combiner, EDGE over the edge frontier (Bellman-Ford)",
          "[cuda][gpu]") {
  const TestGraph tg = make_graph(2000, 12000, 31);
  Graph<argmin::Vertex, argmin::Edge> g;
  const float inf = 1e30f;
  for (std::uint32_t v = 0; v < tg.n; ++v) g.AddVertex(argmin::Vertex{{}, v == 0 ? 0.0f : inf, -1});
  std::vector<float> len(tg.src.size());
  for (std::size_t i = 0; i < tg.src.size(); ++i) {
    len[i] = static_cast<float>(1 + mix(i) % 9);
    g.AddEdge(tg.src[i], tg.dst[i], argmin::Edge{{}, len[i]});
  }
  Config conf;
  conf.maxIteration = 400;  // > longest shortest path in edges (the 200-edge path dominates)
  auto device = Init_Device_DS(g, conf);
  const RunStats st = device.Run([] {
    InitMessageBuffer(argmin::Best{1e30f, 1 << 30});
    EMV<EDGE>::Run(argmin::Relax{}, Superstep() == 0 ? All : Active);
    Combiner(argmin::MinBest{});
    EMV<VERTEX>::Run(argmin::Take{});
  });
  device.Dump_Result(g);
  CHECK(st.supersteps == 400);
  CHECK(st.edges_visited == 400 * tg.src.size());

  // Bellman-Ford on the host, exact in float for these small integer sums.
  std::vector<float> dist(tg.n, inf);
  dist[0] = 0;
  for (std::uint32_t round = 0; round < tg.n; ++round) {
    bool changed = false;
    for (std::size_t i = 0; i < tg.src.size(); ++i)
      if (dist[tg.src[i]] + len[i] < dist[tg.dst[i]]) {
        dist[tg.dst[i]] = dist[tg.src[i]] + len[i];
        changed = true;
      }
    if (!changed) break;
  }
  for (std::uint32_t v = 0; v < tg.n; ++v) {
    REQUIRE(g.vertex(v).dist == dist[v]);
    if (v != 0 && dist[v] < inf) {
      const int p = g.vertex(v).parent;
      REQUIRE(p >= 0);
      // The parent is a tight in-neighbour.
      bool tight = false;
      for (std::size_t i = 0; i < tg.src.size(); ++i)
        if (tg.dst[i] == v && static_cast<int>(tg.src[i]) == p && dist[p] + len[i] == dist[v]) tight = true;
      REQUIRE(tight);
    }
  }
}

TEST_CASE("report() names the device and the memory plan", "[cuda][gpu]") {
  Graph<pr::Vertex, pr::Edge> g;
  for (int v = 0; v < 4; ++v) g.AddVertex(pr::Vertex{{}, 1.0f});
  g.AddEdge(0, 1);
  Config conf;
  conf.maxIteration = 0;
  auto device = Init_Device_DS(g, conf);
  const std::string r = device.report();
  CHECK(r.find("CUDA session on") != std::string::npos);
  CHECK(r.find("message buffer") != std::string::npos);
  const RunStats st = device.Run(pr::Iteration);
  CHECK(st.supersteps == 0);
  CHECK(st.stop_reason == "maxIteration");
}

// ================== Timing on a Kronecker graph (hidden: run with "[.perf]") ====================
// medusa_cuda_gpu_tests "[.perf]"   (MEDUSA_PERF_SCALE=22 for kron-22; default 20)
namespace {
TestGraph kronecker(int scale, int edge_factor, std::uint64_t seed) {
  const std::uint32_t n = 1u << scale;
  const std::uint64_t m = static_cast<std::uint64_t>(edge_factor) << scale;
  TestGraph g{n, {}, {}};
  g.src.reserve(2 * m);
  g.dst.reserve(2 * m);
  for (std::uint64_t i = 0; i < m; ++i) {
    std::uint32_t u = 0, v = 0;
    for (int b = 0; b < scale; ++b) {
      const double r = static_cast<double>(mix(seed ^ (i * 64 + b)) >> 11) * 0x1.0p-53;
      const int q = r < 0.57 ? 0 : r < 0.76 ? 1 : r < 0.95 ? 2 : 3;  // A, B, C, D
      u = (u << 1) | static_cast<std::uint32_t>(q >> 1);
      v = (v << 1) | static_cast<std::uint32_t>(q & 1);
    }
    g.src.push_back(u);  // symmetrized: both directions
    g.dst.push_back(v);
    g.src.push_back(v);
    g.dst.push_back(u);
  }
  return g;
}
}  // namespace

TEST_CASE("timing: PageRank and BFS on a Kronecker graph", "[.perf][cuda][gpu]") {
  const char* env = std::getenv("MEDUSA_PERF_SCALE");
  const int scale = env ? std::atoi(env) : 20;
  const TestGraph tg = kronecker(scale, 16, 1);
  {
    Graph<pr::Vertex, pr::Edge> g;
    for (std::uint32_t v = 0; v < tg.n; ++v) g.AddVertex(pr::Vertex{{}, 1.0f});
    g.SetEdges(tg.src, tg.dst);
    Config conf;
    conf.maxIteration = 20;
    auto device = Init_Device_DS(g, conf);
    std::printf("%s", device.report().c_str());
    device.Run(pr::Iteration);  // warm-up
    const RunStats st = device.Run(pr::Iteration);
    std::printf("PageRank kron-%d: %.3f ms per iteration (%u iterations)\n", scale,
                1e3 * st.seconds / st.supersteps, st.supersteps);
  }
  {
    Graph<bfs::Vertex, bfs::Edge> g;
    for (std::uint32_t v = 0; v < tg.n; ++v) g.AddVertex(bfs::Vertex{{}, bfs::kInf});
    g.SetEdges(tg.src, tg.dst);
    const VertexId source = tg.src[0];
    g.vertex(source).level = 0;
    g.SetActive(source);
    Config conf;
    conf.combinerOpType = MEDUSA_MIN;
    auto device = Init_Device_DS(g, conf);
    const RunStats st = device.Run(bfs::Iteration);
    std::printf("BFS kron-%d from %u: %.3f ms, %u supersteps, %llu edges visited\n", scale, source,
                1e3 * st.seconds, st.supersteps, static_cast<unsigned long long>(st.edges_visited));
  }
}
