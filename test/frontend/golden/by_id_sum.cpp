// Golden input: sends by vertex id under a SUM combiner, beside edge messages. Every vertex sends 1
// along each out-edge and 10 by id to vertex 0, so each vertex's combined value counts its
// in-edges, plus 10 per vertex at vertex 0: each send is folded exactly once, with the slots.
// Only vertices that received run Count (Domain::Received): a send by id counts as received.
#include <medusa/medusa.h>

#include <cstdio>

using namespace medusa;

struct Vertex : VertexBase<int> {
  int heard;
};
struct Edge : EdgeBase<Vertex> {};

/* ELIST API */
struct Announce {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    for (unsigned int i = 0; i < el.size(); i++) el[i].sendMsg(1);
    v.sendMsgTo(0, 10);
  }
};

/* VERTEX API */
struct Count {
  void operator()(Vertex& v) const { v.heard = v.combined_msg(); }
};

void Once() {
  InitMessageBuffer(0);
  EMV<ELIST>::Run(Announce{});
  Combiner();
  EMV<VERTEX>::Run(Count{}, Received);
}

int main() {
  const int n = 5;
  const int src[] = {0, 1, 1, 2, 3};
  const int dst[] = {1, 2, 3, 3, 1};
  Graph<Vertex, Edge> my_graph;
  for (int i = 0; i < n; ++i) my_graph.AddVertex(Vertex{{}, -1});
  for (int e = 0; e < 5; ++e) my_graph.AddEdge(src[e], dst[e], Edge{});

  Config conf;
  conf.combinerOpType = MEDUSA_SUM;
  conf.maxIteration = 1;
  auto device = Init_Device_DS(my_graph, conf);
  device.Run(Once);
  device.Dump_Result(my_graph);

  // In-degrees 0, 2, 1, 2, 0; vertex 0 also hears 10 from each of the 5 vertices; vertex 4 hears
  // nothing, so Count never runs there.
  const int expected[] = {50, 2, 1, 2, -1};
  int bad = 0;
  for (int v = 0; v < n; ++v) {
    std::printf("%d %d\n", v, my_graph.vertex(v).heard);
    if (my_graph.vertex(v).heard != expected[v]) ++bad;
  }
  return bad == 0 ? 0 : 1;
}
