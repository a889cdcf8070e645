// throw and try cannot run on the GPU.
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float rank;
};
struct Edge : EdgeBase<Vertex> {
  float weight;
};
struct Check {
  void operator()(Vertex& v) const {
    if (v.rank < 0) throw 1; // expected-error {{'throw' cannot run on the GPU}}
    try { // expected-error {{'try' cannot run on the GPU}}
      v.rank = 1;
    } catch (...) {
    }
  }
};
void Iterate() { EMV<VERTEX>::Run(Check{}); }
