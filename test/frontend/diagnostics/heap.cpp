// new/delete and malloc/free cannot run on the GPU.
#include <cstdlib>
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float rank;
};
struct Edge : EdgeBase<Vertex> {
  float weight;
};
struct Allocate {
  void operator()(Vertex& v) const {
    float* p = new float(v.rank); // expected-error {{'new' cannot run on the GPU (no heap in device code)}}
    delete p; // expected-error {{'delete' cannot run on the GPU}}
    void* q = std::malloc(4); // expected-error {{call to 'malloc' cannot run on the GPU}}
    std::free(q); // expected-error {{call to 'free' cannot run on the GPU}}
  }
};
void Iterate() { EMV<VERTEX>::Run(Allocate{}); }
