// In an ELIST functor the head of every edge is the vertex parameter.
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float rank;
};
struct Edge : EdgeBase<Vertex> {
  float weight;
};
struct Gather {
  void operator()(Vertex& v, EdgeList<Edge>& el) const { // expected-error {{e.head() in ELIST functor 'Gather': the head of every edge in the list is the functor's vertex parameter}}
    for (unsigned i = 0; i < el.size(); ++i) el[i].sendMsg(el[i].head().rank + v.rank);
  }
};
void Iterate() { EMV<ELIST>::Run(Gather{}); }
