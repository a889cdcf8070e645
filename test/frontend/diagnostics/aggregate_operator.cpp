// A user's aggregate operator takes and returns the aggregate's type.
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<int> {
  int value;
};
struct Edge : EdgeBase<Vertex> {};
struct Widest {
  double operator()(const double& a, const double& b) const { return a < b ? b : a; } // expected-error {{operator 'Widest' of aggregate 'widest' must be a struct with 'T operator()(const T&, const T&) const' for T = 'float', associative and commutative}}
};
CustomAggregate<float, Widest> widest{0.0f};
struct Use {
  void operator()(Vertex& v) const { widest.add(static_cast<float>(v.value)); }
};
void Iterate() { EMV<VERTEX>::Run(Use{}); }
