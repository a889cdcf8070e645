// Golden input: functors that call helper functions defined in this file (a free function, a
// function template and a member function of the functor), read a const global and hold a data
// member. medusa-cc compiles the helpers for the device too (MEDUSA_HD). The vertex also has
// fixed-size array fields, one read and one written on the device.
#include <medusa/medusa.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace medusa;

const float kBase = 0.15f;

float damp(float sum, float damping);

template <class T>
T clamp_to(T x, T lo, T hi) {
  return std::min(std::max(x, lo), hi);
}

struct Vertex : VertexBase<float> {
  float rank;
  float weight;
  float scale[2];
  float last[2];
};
struct Edge : EdgeBase<Vertex> {};

struct Share {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    for (unsigned i = 0; i < el.size(); ++i) el[i].sendMsg(portion(v.rank, el.size()));
  }
  float portion(float rank, unsigned parts) const { return rank / parts; }
};

struct Update {
  float damping;
  void operator()(Vertex& v) const {
    v.last[0] = v.combined_msg();
    v.rank = clamp_to(damp(v.combined_msg(), damping) * v.weight * v.scale[0] * v.scale[1], 0.0f, 10.0f);
    v.last[1] = v.rank;
  }
};

void Iterate() {
  InitMessageBuffer(0.0f);
  EMV<ELIST>::Run(Share{});
  Combiner();
  EMV<VERTEX>::Run(Update{0.85f});
}

float damp(float sum, float damping) { return kBase + std::fabs(sum) * damping; }

int main() {
  const int n = 3;
  Graph<Vertex, Edge> my_graph;
  for (int i = 0; i < n; ++i) my_graph.AddVertex(Vertex{{}, 1.0f, 1.0f, {2.0f, 0.5f}, {-1.0f, -1.0f}});
  my_graph.AddEdge(0, 1);
  my_graph.AddEdge(1, 2);
  my_graph.AddEdge(2, 0);
  my_graph.AddEdge(0, 2);

  Config conf;
  conf.maxIteration = 1;
  auto device = Init_Device_DS(my_graph, conf);
  device.Run(Iterate);
  device.Dump_Result(my_graph);

  // One superstep: 0 <- 2 (1.0); 1 <- 0 (0.5); 2 <- 1 (1.0) + 0 (0.5).
  const float sums[] = {1.0f, 0.5f, 1.5f};
  const float want[] = {0.15f + 0.85f * 1.0f, 0.15f + 0.85f * 0.5f, 0.15f + 0.85f * 1.5f};
  int bad = 0;
  for (int v = 0; v < n; ++v) {
    std::printf("%d %.6f\n", v, my_graph.vertex(v).rank);
    const Vertex& x = my_graph.vertex(v);
    if (std::fabs(x.rank - want[v]) > 1e-6f) ++bad;
    if (x.last[0] != sums[v] || x.last[1] != x.rank) ++bad;
  }
  return bad == 0 ? 0 : 1;
}
