// Neighbour sets (neighbors(), head_neighbors(), tail_neighbors()) are read by ELIST functors over
// out-edges only; the other kinds and in-edge ELIST functors are rejected.
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<int> {
  int degree;
};
struct Edge : EdgeBase<Vertex> {};

struct InVertex {
  void operator()(Vertex& v) const { v.degree = static_cast<int>(v.neighbors().size()); } // expected-error {{functor 'InVertex' reads neighbour sets (neighbors(), head_neighbors() or tail_neighbors()), which only ELIST functors over out-edges (EdgeList) may, but it is a VERTEX functor; move the intersection into an ELIST functor}}
};
struct InEdge {
  void operator()(Edge& e) const { e.sendMsg(static_cast<int>(intersect_count(e.head_neighbors(), e.tail_neighbors()))); } // expected-error {{functor 'InEdge' reads neighbour sets (neighbors(), head_neighbors() or tail_neighbors()), which only ELIST functors over out-edges (EdgeList) may, but it is an EDGE functor; move the intersection into an ELIST functor}}
};
struct OverInEdges {
  void operator()(Vertex& v, InEdgeList<Edge>& in) const { // expected-error {{functor 'OverInEdges' reads neighbour sets (neighbors(), head_neighbors() or tail_neighbors()), which only ELIST functors over out-edges (EdgeList) may, but it is an ELIST functor over in-edges (InEdgeList); move the intersection into an ELIST functor}}
    for (unsigned i = 0; i < in.size(); ++i) in[i].sendMsg(static_cast<int>(in[i].head_neighbors().size()));
  }
};
struct Accepted {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    for (unsigned i = 0; i < el.size(); ++i) el[i].sendMsg(static_cast<int>(intersect_count(v.neighbors(), el[i].tail_neighbors())));
  }
};

void Iterate() {
  EMV<VERTEX>::Run(InVertex{});
  InitMessageBuffer(0);
  EMV<EDGE>::Run(InEdge{});
  Combiner();
  InitMessageBuffer(0);
  EMV<ELIST>::Run(OverInEdges{});
  Combiner();
  InitMessageBuffer(0);
  EMV<ELIST>::Run(Accepted{});
  Combiner();
}
