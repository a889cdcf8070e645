// Combiner operators: the signature is checked, and built-in operators need arithmetic messages.
#include <medusa/medusa.h>
using namespace medusa;
struct Pair {
  float a;
  int b;
};
struct Vertex : VertexBase<Pair> {
  float rank;
};
struct Edge : EdgeBase<Vertex> {};
struct WrongOp {
  float operator()(float x, float y) const { return x + y; } // expected-error {{combiner operator 'WrongOp' must have 'M operator()(const M&, const M&) const' with M the message type 'Pair'}}
};
void Iterate() {
  Combiner(WrongOp{});
  Combiner(); // expected-error {{Combiner() with a built-in operator needs an arithmetic message type, but messages are 'Pair'; pass a combiner operator}}
}
