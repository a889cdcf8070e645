// batching() in a program with an edge frontier: a batch carries only a vertex frontier.
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<int> {
  int value;
};
struct Edge : EdgeBase<Vertex> {
  int weight;
};
struct Relay {
  void operator()(Edge& e) const {
    if (e.weight > 0) {
      e.sendMsg(e.weight);
      e.SetActive();
    }
  }
};
struct Take {
  void operator()(Vertex& v) const { v.value = v.combined_msg(); }
};
void Step() {
  InitMessageBuffer(0);
  EMV<EDGE>::Run(Relay{}, Active);
  Combiner();
  EMV<VERTEX>::Run(Take{});
}
MEDUSA_SCHEDULE(Step, Schedule{}.batching()); // expected-error {{schedule of 'Step': batching() cannot batch a program with an edge frontier}}
