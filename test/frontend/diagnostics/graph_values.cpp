// Vertices and edges are views of the graph's arrays on the device: a copy may be read, but not
// written, default-constructed, or bound from el[i] to a non-const reference.
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float rank;
};
struct Edge : EdgeBase<Vertex> {
  float weight;
};
struct Gather {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    for (unsigned i = 0; i < el.size(); ++i) {
      auto e = el[i];            // a copy that is only read: fine
      auto&& f = el[i];          // fine
      const Edge& g = el[i];     // fine
      Edge& h = el[i]; // expected-error {{'h' binds el[i] to a non-const reference; on the device el[i] is a temporary view of the edge, so write 'auto&& h = el[i];'}}
      f.weight = e.weight + g.weight + h.weight;
      e.weight = 0; // expected-error {{variable 'e' writes field 'weight' of a copy of an edge}}
    }
    Vertex fresh{}; // expected-error {{variable 'fresh' is a new vertex value}}
    v.rank = fresh.rank;
  }
};
void Iterate() { EMV<ELIST>::Run(Gather{}); }
