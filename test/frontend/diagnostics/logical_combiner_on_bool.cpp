// A logical combiner operator on bool messages is what it is for: no warning.
// expected-no-diagnostics
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<bool> {
  bool reached;
};
struct Edge : EdgeBase<Vertex> {};
void Iterate() { Combiner(); }
void Configure(Config& conf) {
  conf.combinerOpType = MEDUSA_OR;
  conf.combinerOpType = MEDUSA_LOGICAL_AND;
}
