// Functors and combiner operators are copied to the GPU: a pointer or reference member would
// hold a host address, which device code cannot dereference.
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float rank;
};
struct Edge : EdgeBase<Vertex> {
  float weight;
};
struct Keep {
  float* keep; // expected-error {{member 'keep' of functor 'Keep' is a pointer; the functor is copied to the GPU, where a host address cannot be dereferenced: store the values in a vertex or edge field, or pass them as value members}}
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    for (unsigned i = 0; i < el.size(); i++) el[i].sendMsg(v.rank + keep[0]);
  }
};
struct Inner {
  float scale;
  const float* table;
};
struct Params {
  float damping;  // a plain struct of values is fine
};
struct Holder {
  const float& alpha; // expected-error {{member 'alpha' of functor 'Nested' is a reference; the functor is copied}}
};
struct Nested : Holder {
  Params params;
  Inner inner; // expected-error {{member 'inner' of functor 'Nested' holds a pointer ('inner.table'); the functor is copied}}
  int* rows[4]; // expected-error {{member 'rows' of functor 'Nested' holds a pointer ('rows[i]')}}
  float (*fn)(float); // expected-error {{member 'fn' of functor 'Nested' is a pointer}}
  void operator()(Vertex& v) const { v.rank = params.damping * inner.scale; }
};
struct MinOp {
  const float* bias; // expected-error {{member 'bias' of combiner operator 'MinOp' is a pointer}}
  float operator()(const float& a, const float& b) const { return a < b ? a : b; }
};
void Iterate() {
  EMV<ELIST>::Run(Keep{});
  static const float alpha = 0.5f;
  EMV<VERTEX>::Run(Nested{{alpha}, {0.85f}, {1.0f, nullptr}, {}, nullptr});
  Combiner(MinOp{nullptr});
}
