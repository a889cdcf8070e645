// EMV<K>::Run given a functor of another kind.
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float rank;
};
struct Edge : EdgeBase<Vertex> {
  float weight;
};
struct SendAlong {
  void operator()(Edge& e) const { e.sendMsg(e.weight); } // expected-note {{operator() of 'SendAlong' declared here}}
};
void Iterate() {
  EMV<VERTEX>::Run(SendAlong{}); // expected-error {{EMV<VERTEX>::Run is given 'SendAlong', which is a EDGE functor; call EMV<EDGE>::Run}}
}
