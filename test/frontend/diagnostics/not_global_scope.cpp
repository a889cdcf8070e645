// Functors must be declared at global namespace scope of the translated file.
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float rank;
};
struct Edge : EdgeBase<Vertex> {
  float weight;
};
namespace app {
struct Scale { // expected-error {{functor 'Scale' must be declared at global namespace scope}}
  void operator()(Vertex& v) const { v.rank *= 2; }
};
}  // namespace app
void Iterate() {
  EMV<VERTEX>::Run(app::Scale{}); // expected-note {{'Scale' is passed to EMV<VERTEX>::Run here}}
}
