// Functors are copied byte-wise to the device: members must be trivially copyable.
#include <string>
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float rank;
};
struct Edge : EdgeBase<Vertex> {
  float weight;
};
struct Tagged {
  std::string tag; // expected-error {{member 'tag' of functor 'Tagged' has type 'std::string' (aka 'basic_string<char>'), which is not trivially copyable}}
  void operator()(Vertex& v) const { v.rank = 1; }
};
void Iterate() { EMV<VERTEX>::Run(Tagged{}); }
