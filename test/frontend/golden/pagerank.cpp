// Golden input: PageRank in the style of the Medusa paper's Figure 2 (ELIST + built-in
// Combiner + VERTEX). Checks itself against a sequential computation.
#include <medusa/medusa.h>

#include <cmath>
#include <cstdio>
#include <vector>

using namespace medusa;

// ---- Data structure definitions
struct Vertex : VertexBase<float> {
  float rank;
  int label;  // host-only: never used on the device, so never transferred
};
struct Edge : EdgeBase<Vertex> {};

// ---- Device code APIs
/* ELIST API */
struct SendRank {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    int edge_count = v.edge_count();
    float msg = v.rank / edge_count;
    for (int i = 0; i < edge_count; i++) el[i].sendMsg(msg);
  }
};

/* VERTEX API */
struct UpdateRank {
  void operator()(Vertex& v) const {
    float msg_sum = v.combined_msg();
    v.rank = 0.15f + msg_sum * 0.85f;
  }
};

// ---- Iteration definition
void PageRank() {
  InitMessageBuffer(0.0f);
  EMV<ELIST>::Run(SendRank{});
  Combiner();
  EMV<VERTEX>::Run(UpdateRank{});
}

// ---- Configurations and API execution
int main() {
  const int n = 4;
  const int src[] = {0, 1, 2, 3, 0};
  const int dst[] = {1, 2, 3, 0, 2};
  Graph<Vertex, Edge> my_graph;
  for (int i = 0; i < n; ++i) my_graph.AddVertex(Vertex{{}, 1.0f, i});
  for (int e = 0; e < 5; ++e) my_graph.AddEdge(src[e], dst[e]);

  Config conf;
  conf.combinerOpType = MEDUSA_SUM;
  conf.maxIteration = 30;
  auto device = Init_Device_DS(my_graph, conf);
  device.Run(PageRank);
  device.Dump_Result(my_graph);

  std::vector<float> rank(n, 1.0f);
  for (int it = 0; it < 30; ++it) {
    std::vector<float> sum(n, 0.0f);
    for (int e = 0; e < 5; ++e) sum[dst[e]] += rank[src[e]] / (src[e] == 0 ? 2 : 1);
    for (int v = 0; v < n; ++v) rank[v] = 0.15f + sum[v] * 0.85f;
  }
  int bad = 0;
  for (int v = 0; v < n; ++v) {
    std::printf("%d %.6f\n", v, my_graph.vertex(v).rank);
    if (std::fabs(my_graph.vertex(v).rank - rank[v]) > 1e-4f) ++bad;
  }
  return bad == 0 ? 0 : 1;
}
