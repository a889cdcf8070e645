// An ELIST functor over in-edges runs over every vertex: its pass is pulled by the receivers.
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float score;
};
struct Edge : EdgeBase<Vertex> {};
struct SendBack {
  void operator()(Vertex& v, InEdgeList<Edge>& in) const {
    for (unsigned i = 0; i < in.size(); ++i) in[i].sendMsg(v.score);
  }
};
void Iterate() {
  InitMessageBuffer(0.0f);
  EMV<ELIST>::Run(SendBack{}, Domain::Active); // expected-error {{Domain::Active cannot be used with EMV<ELIST>::Run; an ELIST functor over in-edges (InEdgeList) runs over every vertex (Domain::All)}}
  Combiner();
}
