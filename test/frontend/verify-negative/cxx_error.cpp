// An ordinary C++ error: clang reports it and medusa-cc writes nothing.
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float rank;
};
struct Edge : EdgeBase<Vertex> {
  float weight;
};
struct Broken {
  void operator()(Vertex& v) const { v.rnak = 1; }
};
void Iterate() { EMV<VERTEX>::Run(Broken{}); }
