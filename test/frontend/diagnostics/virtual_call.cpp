// A virtual call inside a functor cannot run on the GPU.
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float rank;
};
struct Edge : EdgeBase<Vertex> {
  float weight;
};
struct Shape {
  virtual float area() const { return 1.0f; }
};
struct UseShape {
  void operator()(Vertex& v) const {
    const Shape local;
    const Shape& shape = local;  // a pointer member would be rejected: it holds a host address
    v.rank = shape.area(); // expected-error {{virtual call to 'Shape::area' cannot run on the GPU}}
  }
};
void Iterate() { EMV<VERTEX>::Run(UseShape{}); }
