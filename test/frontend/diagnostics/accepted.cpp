// A program that uses every allowed construct translates without diagnostics.
// expected-no-diagnostics
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float rank;
};
struct Edge : EdgeBase<Vertex> {
  float weight;
};
const float kDamping = 0.85f;
template <class T>
T square(T x) { return x * x; }
struct Message {
  void operator()(float& m) const { m = std::fabs(m); }
};
struct Gather {
  void operator()(Vertex& v, MessageList<float>& ml) const {
    float best = std::numeric_limits<float>::max();
    for (unsigned i = 0; i < ml.size(); ++i) best = std::min(best, ml[i]);
    std::uint32_t n = v.in_edge_count();
    v.rank = square(best) * kDamping + n;
    if (Superstep() > 3) Halt();
  }
};
struct Spread {
  void operator()(Edge& e) const {
    float r = e.head().rank;
    auto add = [&](float x) { return x + r; };
    e.sendMsg(add(e.weight));
    e.SetActive();
  }
};
void Iterate() {
  EMV<EDGE>::Run(Spread{}, Domain::Active);
  EMV<MESSAGE>::Run(Message{});
  EMV<MLIST>::Run(Gather{}, Domain::Received);
}
