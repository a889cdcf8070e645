// On the device vertices and edges are proxies: helpers cannot take them, their member functions
// cannot be called, and copies cannot be written.
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float rank;
  float doubled() const { return 2 * rank; }
};
struct Edge : EdgeBase<Vertex> {};
float get_rank(const Vertex& v) { return v.rank; } // expected-error {{function 'get_rank' called from device code takes a Vertex (parameter 'v'); on the device vertices and edges are proxies, so pass the field values instead}}
struct Update {
  void operator()(Vertex& v) const {
    v.rank = get_rank(v); // expected-note {{'get_rank' is called from device code here}}
    v.rank = v.doubled(); // expected-error {{member function 'doubled' of vertex type 'Vertex' cannot be called in a functor}}
    Vertex copy = v;
    copy.rank = 1; // expected-error {{variable 'copy' writes field 'rank' of a copy of a vertex}}
  }
};
void Iterate() { EMV<VERTEX>::Run(Update{}); }
