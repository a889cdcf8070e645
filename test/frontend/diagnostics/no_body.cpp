// Functions without a body in this file cannot be compiled for the GPU.
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float rank;
};
struct Edge : EdgeBase<Vertex> {
  float weight;
};
float external_scale(float x);
float helper(float x) { return external_scale(x); } // expected-error {{call to 'external_scale', whose body medusa-cc cannot see or translate}}
struct CallExternal {
  void operator()(Vertex& v) const {
    v.rank = helper(v.rank); // expected-note {{'helper' is called from device code here}}
  }
};
void Iterate() { EMV<VERTEX>::Run(CallExternal{}); }
