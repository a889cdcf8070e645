// The bitwise combiner operators need integer messages; the logical ones accept any arithmetic type.
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float rank;
};
struct Edge : EdgeBase<Vertex> {};
void Iterate() { Combiner(); }
void Configure(Config& conf) {
  conf.combinerOpType = MEDUSA_BIT_XOR; // expected-error {{MEDUSA_BIT_XOR is a bitwise operator and needs an integer message type, but messages are 'float'; use an integer message type, MEDUSA_LOGICAL_OR / MEDUSA_LOGICAL_AND for 0/1 results, or Combiner(MyOp{})}}
  conf.combinerOpType = MEDUSA_LOGICAL_OR;
}
