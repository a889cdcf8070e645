// An MLIST functor may write its message slots (programming guide section 7): a later Combiner
// folds what it wrote.
// expected-no-diagnostics
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<int> {
  int total;
};
struct Edge : EdgeBase<Vertex> {};
struct Send {
  void operator()(Edge& e) const { e.sendMsg(e.head().total); }
};
struct Double {
  void operator()(Vertex& v, MessageList<int>& ml) const {
    for (unsigned i = 0; i < ml.size(); ++i) ml[i] = ml[i] * 2;
  }
};
struct Take {
  void operator()(Vertex& v) const { v.total = v.combined_msg(); }
};
void Step() {
  InitMessageBuffer(0);
  EMV<EDGE>::Run(Send{});
  EMV<MLIST>::Run(Double{});
  Combiner();
  EMV<VERTEX>::Run(Take{});
}
