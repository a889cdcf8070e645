// Bit-fields and references cannot become device arrays (fixed-size arrays can).
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float history[4];  // fine
  const float& alias; // expected-error {{field 'alias' of type 'const float &' cannot live on the device: a reference refers to host memory}}
  unsigned flag : 1; // expected-error {{field 'flag' of type 'unsigned int' cannot live on the device: bit-fields have no address}}
  float unused[8];  // never used on the device: fine
};
struct Edge : EdgeBase<Vertex> {};
struct Update {
  void operator()(Vertex& v) const {
    v.history[0] = v.alias;
    v.flag = 1;
  }
};
void Iterate() { EMV<VERTEX>::Run(Update{}); }
