// Golden input: messages against the edges' direction. Every vertex sends its weight back along
// its in-edges (InEdgeList) to the vertices pointing at it, which sum them: each vertex learns the
// total weight of its out-neighbours. Checks itself against a sequential computation.
#include <medusa/medusa.h>

#include <cstdio>

using namespace medusa;

struct Vertex : VertexBase<int> {
  int weight;
  int out_weight;
};
struct Edge : EdgeBase<Vertex> {};

struct SendBack {
  void operator()(Vertex& v, InEdgeList<Edge>& in) const {
    for (unsigned i = 0; i < in.size(); ++i) in[i].sendMsg(v.weight);
  }
};

struct Collect {
  void operator()(Vertex& v) const { v.out_weight = v.combined_msg(); }
};

void Gather() {
  InitMessageBuffer(0);
  EMV<ELIST>::Run(SendBack{});
  Combiner();
  EMV<VERTEX>::Run(Collect{});
}

int main() {
  const int n = 5;
  const int src[] = {0, 0, 1, 3, 3, 4, 0};
  const int dst[] = {1, 2, 2, 0, 4, 4, 1};
  Graph<Vertex, Edge> my_graph;
  for (int i = 0; i < n; ++i) my_graph.AddVertex(Vertex{{}, 10 * (i + 1), -1});
  for (int e = 0; e < 7; ++e) my_graph.AddEdge(src[e], dst[e]);

  Config conf;
  conf.combinerOpType = MEDUSA_SUM;
  conf.maxIteration = 1;
  auto device = Init_Device_DS(my_graph, conf);
  device.Run(Gather);
  device.Dump_Result(my_graph);

  int want[n] = {};
  for (int e = 0; e < 7; ++e) want[src[e]] += 10 * (dst[e] + 1);
  int bad = 0;
  for (int v = 0; v < n; ++v) {
    std::printf("%d %d (want %d)\n", v, my_graph.vertex(v).out_weight, want[v]);
    if (my_graph.vertex(v).out_weight != want[v]) ++bad;
  }
  return bad == 0 ? 0 : 1;
}
