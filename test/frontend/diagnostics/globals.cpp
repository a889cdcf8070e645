// Non-const globals live in host memory; const globals are fine.
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float rank;
};
struct Edge : EdgeBase<Vertex> {
  float weight;
};
float g_scale = 2.0f;
int g_counter = 0;
const float kBase = 0.15f;
struct UseGlobals {
  void operator()(Vertex& v) const {
    v.rank = kBase * g_scale; // expected-error {{variable 'g_scale' is a non-const global variable in host memory and cannot be read on the GPU}}
    g_counter++; // expected-error {{variable 'g_counter' is a non-const global variable in host memory and cannot be written on the GPU}}
    static int calls = 0;
    calls = 1; // expected-error {{variable 'calls' is a non-const static variable}}
  }
};
void Iterate() { EMV<VERTEX>::Run(UseGlobals{}); }
