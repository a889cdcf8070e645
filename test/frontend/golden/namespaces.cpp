// Golden input: graph types, functors and a combiner operator inside named (and inline)
// namespaces. Connected components by label propagation: every vertex takes the smallest label
// among itself and its in-neighbours until nothing changes.
#include <medusa/medusa.h>

#include <cstdio>

namespace graph {
struct Vertex : medusa::VertexBase<unsigned> {
  unsigned label;
};
struct Edge : medusa::EdgeBase<Vertex> {};
}  // namespace graph

namespace algo {
using graph::Edge;
using graph::Vertex;

struct MinLabel {
  unsigned operator()(const unsigned& a, const unsigned& b) const { return a < b ? a : b; }
};

inline namespace v1 {
struct SendLabel {
  void operator()(Vertex& v, medusa::EdgeList<Edge>& el) const {
    for (unsigned i = 0; i < el.size(); ++i) el[i].sendMsg(v.label);
  }
};
}  // namespace v1

struct TakeLabel {
  void operator()(Vertex& v) const {
    const unsigned candidate = v.combined_msg();
    if (candidate < v.label) {
      v.label = candidate;
      medusa::Continue();
    }
  }
};

void Propagate() {
  medusa::InitMessageBuffer(0xffffffffu);
  medusa::EMV<medusa::ELIST>::Run(SendLabel{});
  medusa::Combiner(MinLabel{});
  medusa::EMV<medusa::VERTEX>::Run(TakeLabel{});
}
}  // namespace algo

int main() {
  // Two components, {0, 1, 2, 3} and {4, 5}, edges in both directions.
  const unsigned src[] = {3, 2, 1, 5};
  const unsigned dst[] = {2, 1, 0, 4};
  medusa::Graph<graph::Vertex, graph::Edge> g;
  for (unsigned i = 0; i < 6; ++i) g.AddVertex(graph::Vertex{{}, i});
  for (int e = 0; e < 4; ++e) {
    g.AddEdge(src[e], dst[e]);
    g.AddEdge(dst[e], src[e]);
  }
  auto device = medusa::Init_Device_DS(g, medusa::Config{});
  device.Run(algo::Propagate);
  device.Dump_Result(g);
  const unsigned want[] = {0, 0, 0, 0, 4, 4};
  int bad = 0;
  for (unsigned v = 0; v < 6; ++v) {
    std::printf("%u %u\n", v, g.vertex(v).label);
    if (g.vertex(v).label != want[v]) ++bad;
  }
  return bad == 0 ? 0 : 1;
}
