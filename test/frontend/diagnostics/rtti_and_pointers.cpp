// RTTI, calls through function pointers and host-side Medusa APIs cannot run on the GPU.
#include <typeinfo>
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float rank;
};
struct Edge : EdgeBase<Vertex> {
  float weight;
};
struct Base {
  virtual ~Base() = default;
};
struct Derived : Base {};
float twice(float x) { return 2 * x; }
struct Misuse {
  const Base* base; // expected-error {{member 'base' of functor 'Misuse' is a pointer}}
  void operator()(Vertex& v) const {
    float (*fn)(float) = twice;
    v.rank = fn(v.rank); // expected-error {{call through a function pointer cannot be translated for the GPU}}
    if (dynamic_cast<const Derived*>(base)) v.rank = 0; // expected-error {{'dynamic_cast' cannot run on the GPU}}
    if (typeid(*base) == typeid(Derived)) v.rank = 1; // expected-error 2 {{'typeid' cannot run on the GPU}} expected-error {{call to 'std::type_info::operator==' on a value of type 'std::type_info' cannot be used on the GPU}}
    InitMessageBuffer(0.0f); // expected-error {{'medusa::InitMessageBuffer' is a host-side Medusa API}}
  }
};
void Iterate() { EMV<VERTEX>::Run(Misuse{}); }
