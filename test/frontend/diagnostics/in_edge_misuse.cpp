// ELIST functors over in-edges (InEdgeList) run pulled, each in-edge in the thread of its head:
// an edge-parallel loop, no write to their own vertex, Domain::All, and the built-in Combiner()
// right after them (Domain::Active: in_edge_domain.cpp).
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float score;
  float seen;
};
struct Edge : EdgeBase<Vertex> {};

struct WritesVertex {
  void operator()(Vertex& v, InEdgeList<Edge>& in) const { // expected-error {{ELIST functor 'WritesVertex' over in-edges writes field 'seen' of its vertex: each in-edge runs in the thread of its head, so several threads would write it; send a message and write it in a VERTEX functor}}
    for (unsigned i = 0; i < in.size(); ++i) in[i].sendMsg(v.score);
    v.seen = 1.0f;
  }
};
struct StopsEarly {
  void operator()(Vertex& v, InEdgeList<Edge>& in) const { // expected-error {{ELIST functor 'StopsEarly' takes an InEdgeList: its body must be local declarations followed by one loop 'for (i = 0; i < in.size(); ++i)' whose iterations use 'in' only as 'in[i]'}}
    for (unsigned i = 0; i < in.size(); ++i) {
      if (v.score > 1.0f) break;
      in[i].sendMsg(v.score);
    }
  }
};
struct SendBack {
  void operator()(Vertex& v, InEdgeList<Edge>& in) const {
    for (unsigned i = 0; i < in.size(); ++i) in[i].sendMsg(v.score);
  }
};
struct Keep {
  void operator()(Vertex& v) const { v.score = v.combined_msg(); }
};

void Iterate() {
  InitMessageBuffer(0.0f);
  EMV<ELIST>::Run(WritesVertex{});
  Combiner();
  InitMessageBuffer(0.0f);
  EMV<ELIST>::Run(StopsEarly{});
  Combiner();
}
void NoCombiner() {
  InitMessageBuffer(0.0f);
  EMV<ELIST>::Run(SendBack{}); // expected-error {{EMV<ELIST>::Run(SendBack) sends against the edges' direction: the next Medusa operation of 'NoCombiner' must be the built-in Combiner(), which folds those messages}}
  EMV<VERTEX>::Run(Keep{});
}
