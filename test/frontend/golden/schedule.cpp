// Golden input: schedules written in the source, apart from the algorithm (MEDUSA_SCHEDULE).
// BFS-Q pushes its frontier in every superstep and runs without batches; PageRank keeps its VERTEX
// step out of the gather. medusa-cc folds each into the function's superstep plan and registers
// it; the results stay those of the plain program. Checks itself against sequential computations.
#include <medusa/medusa.h>

#include <climits>
#include <cmath>
#include <cstdio>
#include <vector>

using namespace medusa;

// ---- Data structure definitions
struct Vertex : VertexBase<float> {
  float level;
  float rank;
};
struct Edge : EdgeBase<Vertex> {};

// ---- Device code APIs
/* ELIST API, active vertices only */
struct Expand {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    float next = v.level + 1.0f;
    for (unsigned int i = 0; i < el.size(); i++) el[i].sendMsg(next);
  }
};
/* VERTEX API, vertices that received a message only */
struct Visit {
  void operator()(Vertex& v) const {
    float level = v.combined_msg();
    if (level < v.level) {
      v.level = level;
      v.SetActive();
      Continue();
    }
  }
};
/* ELIST API */
struct SendRank {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    int edge_count = v.edge_count();
    float msg = v.rank / edge_count;
    for (int i = 0; i < edge_count; i++) el[i].sendMsg(msg);
  }
};
/* VERTEX API; Continue(): the program votes (BFS), so PageRank must too, until maxIteration */
struct UpdateRank {
  void operator()(Vertex& v) const {
    v.rank = 0.15f + v.combined_msg() * 0.85f;
    Continue();
  }
};

// ---- Iteration definitions
void BFS() {
  InitMessageBuffer(1e30f);
  EMV<ELIST>::Run(Expand{}, Active);
  Combiner();
  EMV<VERTEX>::Run(Visit{}, Received);
}
void PageRank() {
  InitMessageBuffer(0.0f);
  EMV<ELIST>::Run(SendRank{});
  Combiner();
  EMV<VERTEX>::Run(UpdateRank{});
}

// ---- Schedule
MEDUSA_SCHEDULE(BFS, Schedule{}.push().no_batching());
MEDUSA_SCHEDULE(PageRank, Schedule{}.no_vertex_fusion());

// ---- Configurations and API execution
int main() {
  const int n = 6;
  const int src[] = {0, 1, 2, 3, 0, 4};
  const int dst[] = {1, 2, 3, 0, 2, 5};
  const int m = 6;
  Graph<Vertex, Edge> graph;
  for (int i = 0; i < n; ++i) graph.AddVertex(Vertex{{}, i == 0 ? 0.0f : 1e30f, 1.0f});
  for (int e = 0; e < m; ++e) graph.AddEdge(src[e], dst[e]);
  graph.SetActive(0);

  Config bfs_conf;
  bfs_conf.combinerOpType = MEDUSA_MIN;
  bfs_conf.verbose = true;  // the tuning report names the schedule's settings (ctest checks it)
  auto bfs = Init_Device_DS(graph, bfs_conf);
  bfs.Run(BFS);
  bfs.Dump_Result(graph);

  Config rank_conf;
  rank_conf.combinerOpType = MEDUSA_SUM;
  rank_conf.maxIteration = 30;
  auto pagerank = Init_Device_DS(graph, rank_conf);
  pagerank.Run(PageRank);
  pagerank.Dump_Result(graph);

  const float expected_level[] = {0, 1, 1, 2, 1e30f, 1e30f};
  std::vector<float> rank(n, 1.0f);
  for (int it = 0; it < 30; ++it) {
    std::vector<float> sum(n, 0.0f);
    for (int e = 0; e < m; ++e) sum[dst[e]] += rank[src[e]] / (src[e] == 0 ? 2 : 1);
    for (int v = 0; v < n; ++v) rank[v] = 0.15f + sum[v] * 0.85f;
  }
  int bad = 0;
  for (int v = 0; v < n; ++v) {
    std::printf("%d %g %.6f\n", v, graph.vertex(v).level, graph.vertex(v).rank);
    if (graph.vertex(v).level != expected_level[v]) ++bad;
    if (std::fabs(graph.vertex(v).rank - rank[v]) > 1e-4f) ++bad;
  }
  return bad == 0 ? 0 : 1;
}
