// PageRank in the style of the Medusa paper's Figure 2: plain C++, no CUDA.
#include <medusa/medusa.h>

#include <cstdio>

using namespace medusa;

// ---- Data structure definitions
struct Vertex : VertexBase<float> {
  float rank;
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
  Graph<Vertex, Edge> my_graph;
  // A 4-cycle with a chord; samples load real graphs instead (see samples/README.md).
  for (int i = 0; i < 4; ++i) my_graph.AddVertex(Vertex{{}, 1.0f});
  my_graph.AddEdge(0, 1);
  my_graph.AddEdge(1, 2);
  my_graph.AddEdge(2, 3);
  my_graph.AddEdge(3, 0);
  my_graph.AddEdge(0, 2);

  Config conf;
  conf.combinerOpType = MEDUSA_SUM;
  conf.gpuCount = 1;
  conf.maxIteration = 30;
  auto device = Init_Device_DS(my_graph, conf);
  device.Run(PageRank);
  device.Dump_Result(my_graph);

  for (VertexId v = 0; v < my_graph.vertex_count(); ++v)
    std::printf("%u %.6f\n", v, my_graph.vertex(v).rank);
  return 0;
}
