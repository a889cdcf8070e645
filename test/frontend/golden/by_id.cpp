// Golden input: reads and sends by vertex id (medusa/by_id.h). An EDGE functor reads the tail's
// label by id and sends to the vertex it names; a VERTEX functor follows labels by id, writing a
// second field; a last VERTEX launch adopts it.
#include <medusa/medusa.h>

#include <cstdio>

using namespace medusa;

struct Vertex : VertexBase<unsigned int> {
  unsigned int label;
  unsigned int next;
};
struct Edge : EdgeBase<Vertex> {};

/* EDGE API */
struct Hook {
  void operator()(Edge& e) const {
    const unsigned int mine = e.head().label;
    const Vertex& tail = vertex_at(e, e.tail_id());
    if (mine < tail.label) e.sendMsgTo(tail.label, mine);
  }
};

/* VERTEX API */
struct Jump {
  void operator()(Vertex& v) const {
    unsigned int label = v.combined_msg() < v.label ? v.combined_msg() : v.label;
    while (vertex_at(v, label).label < label) label = vertex_at(v, label).label;
    v.next = label;
    if (label != v.label) Continue();
  }
};

/* VERTEX API */
struct Adopt {
  void operator()(Vertex& v) const { v.label = v.next; }
};

void Components() {
  InitMessageBuffer(0xffffffffu);
  EMV<EDGE>::Run(Hook{});
  Combiner();
  EMV<VERTEX>::Run(Jump{});
  EMV<VERTEX>::Run(Adopt{});
}

int main() {
  // Two paths, 4-3-2 and 1-0, each edge both ways: components {0, 1} and {2, 3, 4}.
  const int n = 5;
  const int src[] = {4, 3, 3, 2, 1, 0};
  const int dst[] = {3, 4, 2, 3, 0, 1};
  Graph<Vertex, Edge> my_graph;
  for (int i = 0; i < n; ++i) my_graph.AddVertex(Vertex{{}, static_cast<unsigned>(i), 0u});
  for (int e = 0; e < 6; ++e) my_graph.AddEdge(src[e], dst[e], Edge{});

  Config conf;
  conf.combinerOpType = MEDUSA_MIN;
  auto device = Init_Device_DS(my_graph, conf);
  device.Run(Components);
  device.Dump_Result(my_graph);

  const unsigned expected[] = {0, 0, 2, 2, 2};
  int bad = 0;
  for (int v = 0; v < n; ++v) {
    std::printf("%d %u\n", v, my_graph.vertex(v).label);
    if (my_graph.vertex(v).label != expected[v]) ++bad;
  }
  return bad == 0 ? 0 : 1;
}
