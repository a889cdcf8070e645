// operator() parameters that fit no EMV API kind.
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float rank;
};
struct Edge : EdgeBase<Vertex> {
  float weight;
};
struct TwoVertices {
  void operator()(Vertex& a, Vertex& b) const { a.rank = b.rank; } // expected-error {{operator() of 'TwoVertices' matches no EMV API kind; allowed parameter lists (in either order, by value or reference) are: (Vertex, EdgeList<Edge>) for ELIST, (Edge) for EDGE, (Vertex, MessageList<float>) for MLIST, (float) for MESSAGE, (Vertex) for VERTEX}}
};
struct NoOperator {};
void Iterate() {
  EMV<VERTEX>::Run(TwoVertices{}); // expected-note {{'TwoVertices' is passed to EMV<VERTEX>::Run here}}
  EMV<VERTEX>::Run(NoOperator{}); // expected-error {{functor 'NoOperator' passed to EMV<VERTEX>::Run has no operator()}}
}
