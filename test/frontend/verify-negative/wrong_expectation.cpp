// Negative control for --verify: the expectation below is wrong, so verification must fail.
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float rank;
};
struct Edge : EdgeBase<Vertex> {
  float weight;
};
struct Print {
  void operator()(Vertex& v) const {
    throw 1; // expected-error {{this is not the message medusa-cc prints}}
  }
};
void Iterate() { EMV<VERTEX>::Run(Print{}); }
