// A conditional operator only reads its operands unless the conditional itself is assigned:
// an EDGE functor may read head fields through ?: (the HITS hub/authority pattern).
// expected-no-diagnostics
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<double> {
  double hub;
  double auth;
  double score;
};
struct Edge : EdgeBase<Vertex> {
  double weight;
};
struct SendScore {
  bool of_hub;
  void operator()(Edge& e) const {
    const double x = of_hub ? e.head().hub : e.head().auth;
    const double y = e.head().hub ?: e.head().auth;
    const double z = of_hub ? (x > 0 ? e.head().hub : e.head().auth) : e.weight;
    e.sendMsg(x + y + z);
  }
};
struct Pick {
  bool pick;
  void operator()(Vertex& v) const {
    v.score = pick ? v.hub : v.auth;
    (pick ? v.hub : v.auth) = v.combined_msg();
  }
};
void Iterate() {
  InitMessageBuffer(0.0);
  EMV<EDGE>::Run(SendScore{});
  Combiner();
  EMV<VERTEX>::Run(Pick{true});
}
