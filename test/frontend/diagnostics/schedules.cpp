// Schedules set in the source (MEDUSA_SCHEDULE) that the superstep plan cannot honour, and ones
// that change nothing.
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float value;
};
struct Edge : EdgeBase<Vertex> {};
struct Expand {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    for (unsigned int i = 0; i < el.size(); i++) el[i].sendMsg(v.value + 1.0f);
  }
};
struct Visit {
  void operator()(Vertex& v) const {
    if (v.combined_msg() < v.value) {
      v.value = v.combined_msg();
      v.SetActive();
      Continue();
    }
  }
};
struct SendAlong {
  void operator()(Edge& e) const { e.sendMsg(e.head().value); }
};
struct Keep {
  void operator()(Vertex& v) const { v.value = v.combined_msg(); }
};
void BFS() {
  InitMessageBuffer(1e30f);
  EMV<ELIST>::Run(Expand{}, Active);
  Combiner();
  EMV<VERTEX>::Run(Visit{}, Received);
}
void Spread() {
  InitMessageBuffer(0.0f);
  EMV<ELIST>::Run(Expand{});
  Combiner();
  EMV<VERTEX>::Run(Keep{});
}
void Relax() {
  InitMessageBuffer(0.0f);
  EMV<EDGE>::Run(SendAlong{});
  Combiner();
  EMV<VERTEX>::Run(Keep{});
}
void Settle() { EMV<VERTEX>::Run(Keep{}); }
void Spread2() {
  InitMessageBuffer(0.0f);
  EMV<ELIST>::Run(Expand{});
  Combiner();
  EMV<VERTEX>::Run(Keep{});
}
void NotAnIteration() {}

MEDUSA_SCHEDULE(NotAnIteration, Schedule{}.push()); // expected-error {{MEDUSA_SCHEDULE names 'NotAnIteration', which is not an iteration function}}
MEDUSA_SCHEDULE(BFS, Schedule{}.pull().batching()); // expected-error {{schedule of 'BFS': batching() and pull() contradict each other: batches push every frontier}}
MEDUSA_SCHEDULE(BFS, Schedule{}.push()); // expected-error {{a second MEDUSA_SCHEDULE for 'BFS' (the first is on line 57)}}
MEDUSA_SCHEDULE(Spread, Schedule{}.pull().no_end_fusion()); // expected-error {{schedule of 'Spread': pull() needs a pass over the frontier that runs as one pass}} expected-warning {{schedule of 'Spread': no_end_fusion() changes nothing}}
MEDUSA_SCHEDULE(Relax, Schedule{}.push_combine()); // expected-error {{schedule of 'Relax': push_combine() cannot push under this program's Combiner(): only MEDUSA_MIN and MEDUSA_MAX}}
MEDUSA_SCHEDULE(Settle, Schedule{}.vertex_fusion().push()); // expected-error {{schedule of 'Settle': vertex_fusion() needs an EMV<VERTEX>::Run over every vertex right after a pull gather}} expected-error {{schedule of 'Settle': push() forces the direction of passes over the frontier (Domain::Active), and there is none}}
MEDUSA_SCHEDULE(Spread2, Schedule{}.no_gather_fusion().source_prefetch()); // expected-error {{schedule of 'Spread2': source_prefetch() computes messages in a VERTEX step joined to a pull gather, which no_gather_fusion() switches off}}

int main() {
  Config conf;
  conf.combinerOpType = MEDUSA_SUM;
  return 0;
}

namespace {
void Hidden() { EMV<VERTEX>::Run(Keep{}); }
}  // namespace
MEDUSA_SCHEDULE(Hidden, Schedule{}.no_batching()); // expected-error {{iteration function with a MEDUSA_SCHEDULE 'Hidden' must be declared at namespace scope (not inside a function, a class or an anonymous namespace)}}
