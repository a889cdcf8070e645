// Golden input: SSSP in the style of the Medusa overview paper's Figure 1: an EDGE functor that
// reads its head vertex, a MIN combiner, a VERTEX functor that votes with Continue().
#include <medusa/medusa.h>

#include <climits>
#include <cstdio>
#include <vector>

using namespace medusa;

struct Vertex : VertexBase<unsigned int> {
  unsigned int distance;
  bool updated;
};
struct Edge : EdgeBase<Vertex> {
  unsigned int length;
};

/* EDGE API */
struct SendDistance {
  void operator()(Edge& e) const {
    if (e.head().updated) {
      unsigned int msg = e.head().distance + e.length;
      e.sendMsg(msg);
    }
  }
};

/* VERTEX API */
struct UpdateDistance {
  void operator()(Vertex& v) const {
    unsigned int min_msg = v.combined_msg();
    if (min_msg < v.distance) {
      v.distance = min_msg;
      v.updated = true;
      Continue();
    } else {
      v.updated = false;
    }
  }
};

void SSSP() {
  InitMessageBuffer(UINT_MAX);
  EMV<EDGE>::Run(SendDistance{});
  Combiner();
  EMV<VERTEX>::Run(UpdateDistance{});
}

int main() {
  const int n = 5;
  const int src[] = {0, 0, 1, 2, 1, 3};
  const int dst[] = {1, 2, 2, 3, 3, 4};
  const unsigned len[] = {4, 1, 2, 5, 8, 3};
  Graph<Vertex, Edge> my_graph;
  for (int i = 0; i < n; ++i) my_graph.AddVertex(Vertex{{}, i == 0 ? 0u : UINT_MAX, i == 0});
  for (int e = 0; e < 6; ++e) my_graph.AddEdge(src[e], dst[e], Edge{{}, len[e]});

  Config conf;
  conf.combinerOpType = MEDUSA_MIN;
  auto device = Init_Device_DS(my_graph, conf);
  device.Run(SSSP);
  device.Dump_Result(my_graph);

  std::vector<unsigned> dist(n, UINT_MAX);
  dist[0] = 0;
  for (int round = 0; round < n; ++round)
    for (int e = 0; e < 6; ++e)
      if (dist[src[e]] != UINT_MAX && dist[src[e]] + len[e] < dist[dst[e]])
        dist[dst[e]] = dist[src[e]] + len[e];
  int bad = 0;
  for (int v = 0; v < n; ++v) {
    std::printf("%d %u\n", v, my_graph.vertex(v).distance);
    if (my_graph.vertex(v).distance != dist[v]) ++bad;
  }
  return bad == 0 ? 0 : 1;
}
