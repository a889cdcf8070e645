// Golden input: neighbour sets. Every edge u -> w counts the common out-neighbours of u and w
// (intersect_count) and sends the count to w, and lists them (for_each_common) into a bit mask
// it sends along as well; the program is marked kUsesNeighborSets, so its rows are kept sorted.
// Checks itself against a sequential computation.
#include <medusa/medusa.h>

#include <cstdio>

using namespace medusa;

struct Message {
  int common;
  unsigned mask;
};
struct Add {
  Message operator()(const Message& a, const Message& b) const { return Message{a.common + b.common, a.mask | b.mask}; }
};

struct Vertex : VertexBase<Message> {
  int common;
  unsigned mask;
};
struct Edge : EdgeBase<Vertex> {};

struct Common {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    const NeighborSet mine = v.neighbors();
    for (unsigned i = 0; i < el.size(); ++i) {
      unsigned mask = 0;
      for_each_common(mine, el[i].tail_neighbors(), [&](VertexId x) { mask |= 1u << x; });
      el[i].sendMsg(Message{static_cast<int>(intersect_count(el[i].head_neighbors(), el[i].tail_neighbors())), mask});
    }
  }
};

struct Collect {
  void operator()(Vertex& v) const {
    v.common = v.combined_msg().common;
    v.mask = v.combined_msg().mask;
  }
};

void Count() {
  InitMessageBuffer(Message{0, 0});
  EMV<ELIST>::Run(Common{});
  Combiner(Add{});
  EMV<VERTEX>::Run(Collect{});
}

int main() {
  const int n = 5, m = 9;
  // Rows given out of order: the runtime sorts them.
  const int src[m] = {0, 0, 0, 1, 1, 2, 2, 3, 4};
  const int dst[m] = {3, 1, 2, 2, 3, 3, 0, 4, 0};
  Graph<Vertex, Edge> my_graph;
  for (int i = 0; i < n; ++i) my_graph.AddVertex(Vertex{{}, -1, 0});
  for (int e = 0; e < m; ++e) my_graph.AddEdge(src[e], dst[e]);

  Config conf;
  conf.maxIteration = 1;
  auto device = Init_Device_DS(my_graph, conf);
  device.Run(Count);
  device.Dump_Result(my_graph);

  bool edge[n][n] = {};
  for (int e = 0; e < m; ++e) edge[src[e]][dst[e]] = true;
  int want_common[n] = {};
  unsigned want_mask[n] = {};
  for (int e = 0; e < m; ++e)
    for (int x = 0; x < n; ++x)
      if (edge[src[e]][x] && edge[dst[e]][x]) {
        ++want_common[dst[e]];
        want_mask[dst[e]] |= 1u << x;
      }
  int bad = 0;
  for (int v = 0; v < n; ++v) {
    const Vertex& got = my_graph.vertex(v);
    std::printf("%d: %d common, mask %x (want %d, %x)\n", v, got.common, got.mask, want_common[v], want_mask[v]);
    if (got.common != want_common[v] || got.mask != want_mask[v]) ++bad;
  }
  return bad == 0 ? 0 : 1;
}
