// Golden input: BFS levels with an ELIST functor over Domain::Active; vertices that improve call
// SetActive() so that they expand in the next superstep. The source is seeded on the host.
#include <medusa/medusa.h>

#include <climits>
#include <cstdio>

using namespace medusa;

struct Vertex : VertexBase<unsigned> {
  unsigned level;
};
struct Edge : EdgeBase<Vertex> {};

struct Expand {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    for (unsigned i = 0; i < el.size(); ++i) el[i].sendMsg(v.level + 1);
  }
};

struct Visit {
  void operator()(Vertex& v) const {
    unsigned candidate = v.combined_msg();
    if (candidate < v.level) {
      v.level = candidate;
      v.SetActive();
    }
  }
};

void Bfs() {
  InitMessageBuffer(UINT_MAX);
  EMV<ELIST>::Run(Expand{}, Domain::Active);
  Combiner();
  EMV<VERTEX>::Run(Visit{}, Domain::Received);
}

int main() {
  const int n = 6;
  const int src[] = {0, 0, 1, 2, 3, 4};
  const int dst[] = {1, 2, 3, 3, 4, 3};
  Graph<Vertex, Edge> my_graph;
  for (int i = 0; i < n; ++i) my_graph.AddVertex(Vertex{{}, i == 0 ? 0u : UINT_MAX});
  for (int e = 0; e < 6; ++e) my_graph.AddEdge(src[e], dst[e]);
  my_graph.SetActive(0);

  Config conf;
  conf.combinerOpType = MEDUSA_MIN;
  conf.maxIteration = n;
  auto device = Init_Device_DS(my_graph, conf);
  device.Run(Bfs);
  device.Dump_Result(my_graph);

  const unsigned want[] = {0, 1, 1, 2, 3, UINT_MAX};
  int bad = 0;
  for (int v = 0; v < n; ++v) {
    std::printf("%d %u\n", v, my_graph.vertex(v).level);
    if (my_graph.vertex(v).level != want[v]) ++bad;
  }
  return bad == 0 ? 0 : 1;
}
