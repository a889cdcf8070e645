// The logical combiner operators fold an integer message to 0 or 1: medusa-cc warns and names the
// bitwise operator (a reachability mask under MEDUSA_OR ended as "own bit | 1").
#include <cstdint>
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<std::uint32_t> {
  std::uint32_t mask;
};
struct Edge : EdgeBase<Vertex> {};
void Iterate() { Combiner(); }
void Configure(Config& conf, bool all) {
  conf.combinerOpType = MEDUSA_OR; // expected-warning {{MEDUSA_OR is a logical operator: it folds 'unsigned int' messages to 0 or 1, not bit by bit; use MEDUSA_BIT_OR to combine bitmasks (or a bool message type for a logical result)}}
  conf.combinerOpType = MEDUSA_LOGICAL_AND; // expected-warning {{MEDUSA_LOGICAL_AND is a logical operator: it folds 'unsigned int' messages to 0 or 1, not bit by bit; use MEDUSA_BIT_AND}}
  conf.combinerOpType = all ? MEDUSA_BIT_AND : MEDUSA_BIT_OR;
  conf.combinerOpType = MEDUSA_BIT_XOR;
  conf.combinerOpType = MEDUSA_MIN;
}
