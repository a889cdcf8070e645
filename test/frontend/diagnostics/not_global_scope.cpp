// Functors must be declared at namespace scope (named namespaces are fine) of the translated file.
// (Functors in anonymous namespaces or functions are already C++ errors: EMV<K>::Run<F> has no
// definition outside translation.)
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float rank;
};
struct Edge : EdgeBase<Vertex> {};
namespace app {
struct Scale {  // fine: a named namespace
  void operator()(Vertex& v) const { v.rank *= 2; }
};
}  // namespace app
struct Outer {
  struct Nested { // expected-error {{functor 'Nested' must be declared at namespace scope (not inside a function, a class or an anonymous namespace)}}
    void operator()(Vertex& v) const { v.rank = 0; }
  };
};
void Iterate() {
  EMV<VERTEX>::Run(app::Scale{});
  EMV<VERTEX>::Run(Outer::Nested{}); // expected-note {{'Nested' is passed to EMV<VERTEX>::Run here}}
}
