// Domains that do not exist for a kind.
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float rank;
};
struct Edge : EdgeBase<Vertex> {
  float weight;
};
struct SendAlong {
  void operator()(Edge& e) const { e.sendMsg(e.weight); }
};
struct Scale {
  void operator()(float& m) const { m *= 2; }
};
void Iterate() {
  EMV<EDGE>::Run(SendAlong{}, Domain::Received); // expected-error {{Domain::Received cannot be used with EMV<EDGE>::Run; only VERTEX and MLIST functors}}
  EMV<MESSAGE>::Run(Scale{}, Domain::Active); // expected-error {{Domain::Active cannot be used with EMV<MESSAGE>::Run; MESSAGE functors run over every message slot}}
}
