// Field names that clash with Medusa built-ins or use the reserved prefix.
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float rank;
  int id; // expected-error {{field 'id' of vertex type 'Vertex' clashes with the Medusa built-in 'id'; rename it}}
  int medusa_flag; // expected-error {{field 'medusa_flag' of vertex type 'Vertex' uses the prefix 'medusa_'}}
};
struct Edge : EdgeBase<Vertex> {
  int head; // expected-error {{field 'head' of edge type 'Edge' clashes with the Medusa built-in 'head'}}
  float sendMsg; // expected-error {{field 'sendMsg' of edge type 'Edge' clashes}}
};
struct Update {
  void operator()(Vertex& v) const { v.rank = 1; }
};
void Iterate() { EMV<VERTEX>::Run(Update{}); }
