// A user's program outside the Medusa tree: PageRank on a directed ring, where every vertex
// converges to the same rank. Checks itself against the closed form.
#include <medusa/medusa.h>

#include <cmath>
#include <cstdio>

using namespace medusa;

constexpr float kDamping = 0.85f;

struct Vertex : VertexBase<float> {
  float rank;
};
struct Edge : EdgeBase<Vertex> {};

struct Send {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    for (unsigned i = 0; i < el.size(); ++i) el[i].sendMsg(v.rank / el.size());
  }
};
struct Update {
  void operator()(Vertex& v) const { v.rank = (1.0f - kDamping) + kDamping * v.combined_msg(); }
};

void Step() {
  InitMessageBuffer(0.0f);
  EMV<ELIST>::Run(Send{});
  Combiner();
  EMV<VERTEX>::Run(Update{});
}

int main() {
  const VertexId n = 100;
  Graph<Vertex, Edge> g;
  for (VertexId v = 0; v < n; ++v) g.AddVertex(Vertex{{}, 0.5f});
  for (VertexId v = 0; v < n; ++v) g.AddEdge(v, (v + 1) % n);
  Config conf;
  conf.combinerOpType = MEDUSA_SUM;
  conf.maxIteration = 200;
  auto device = Init_Device_DS(g, conf);
  device.Run(Step);
  device.Dump_Result(g);
  // Fixed point of r = (1-d) + d*r is r = 1 for every d < 1.
  for (VertexId v = 0; v < n; ++v) {
    if (std::fabs(g.vertex(v).rank - 1.0f) > 1e-3f) {
      std::printf("ring_rank: FAILED vertex %u rank %f\n", v, g.vertex(v).rank);
      return 1;
    }
  }
  std::printf("ring_rank: OK damping=%g\n", kDamping);
  return 0;
}
