// operator() must be const.
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float rank;
};
struct Edge : EdgeBase<Vertex> {
  float weight;
};
struct Counter {
  int calls = 0;
  void operator()(Vertex& v) { v.rank = calls; } // expected-error {{operator() of functor 'Counter' must be const}}
};
void Iterate() { EMV<VERTEX>::Run(Counter{}); }
