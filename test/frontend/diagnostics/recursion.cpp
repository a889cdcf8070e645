// Recursion (direct or through other functions) cannot run on the GPU.
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float rank;
};
struct Edge : EdgeBase<Vertex> {
  float weight;
};
float ping(float x);
float pong(float x) { return x < 1 ? x : ping(x / 2); } // expected-note {{call cycle: pong -> ping -> pong}}
float ping(float x) { return pong(x - 1); } // expected-error {{recursive call to 'pong' cannot run on the GPU; rewrite it as a loop}}
int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); } // expected-error {{recursive call to 'fact'}} expected-note {{call cycle: fact -> fact}}
struct Recurse {
  void operator()(Vertex& v) const { v.rank = ping(v.rank) + fact(3); }
};
void Iterate() { EMV<VERTEX>::Run(Recurse{}); }
