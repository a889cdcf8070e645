// Array and bit-field members cannot become device arrays (yet).
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float history[4]; // expected-error {{field 'history' of type 'float[4]' cannot live on the device: array fields are not supported yet}}
  unsigned flag : 1; // expected-error {{field 'flag' of type 'unsigned int' cannot live on the device: bit-fields have no address}}
  float unused[8];  // never used on the device: fine
};
struct Edge : EdgeBase<Vertex> {};
struct Update {
  void operator()(Vertex& v) const {
    v.history[0] = 1;
    v.flag = 1;
  }
};
void Iterate() { EMV<VERTEX>::Run(Update{}); }
