// An EDGE functor owns no vertex: writing the head vertex is rejected.
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float rank;
};
struct Edge : EdgeBase<Vertex> {
  float weight;
};
struct WriteHead {
  void operator()(Edge& e) const {
    const_cast<Vertex&>(e.head()).rank = e.weight; // expected-error {{EDGE functor 'WriteHead' writes field 'rank' of a vertex; an edge owns no vertex, so send a message}}
    e.sendMsg(e.head().rank);
  }
};
void Iterate() { EMV<EDGE>::Run(WriteHead{}); }
