// On the GPU vertices, edges and their fields are views of the graph's arrays: an address taken
// of one does not point into the element as on the host, so pointer arithmetic or indexing on
// it reads other memory. Every such address is rejected; references work.
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<float> {
  float rank;
  float hist[2];
};
struct Edge : EdgeBase<Vertex> {
  float weight;
};
void store(float* out, float x) { *out = x; }
struct Offset {
  void operator()(Vertex& v) const {
    Vertex* p = &v; // expected-error {{address of 'v' taken in device code; on the GPU vertices, edges, edge and message lists, their fields and messages are views of the graph's arrays, so the pointer would not point into the element: use 'v' directly or bind a reference to it ('auto&& x = v;')}}
    p[1].rank = 3;
    float* r = &v.rank; // expected-error {{address of 'v.rank' taken in device code}}
    r[1] = 2;
    store(&v.hist[1], 1.0f); // expected-error {{address of 'v.hist[1]' taken in device code}}
    float& alias = v.rank;
    *(&alias + 1) = 0; // expected-error {{address of 'alias' taken in device code}}
    (&v)->rank = 4; // expected-error {{address of 'v' taken in device code}}
    v.hist[0] = v.rank;  // through the reference itself: fine
  }
};
struct Lists {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    EdgeList<Edge>* list = &el; // expected-error {{address of 'el' taken in device code}}
    (void)list;
    for (unsigned i = 0; i < el.size(); i++) {
      Edge* e = &el[i]; // expected-error {{address of 'el[i]' taken in device code}}
      e->sendMsg(v.rank);
    }
  }
};
struct Head {
  void operator()(Edge& e) const {
    const Vertex* h = &e.head(); // expected-error {{address of 'e.head()' taken in device code}}
    e.sendMsg(h->rank);
  }
};
struct Gather {
  void operator()(Vertex& v, MessageList<float>& ml) const {
    const float* first = &ml[0]; // expected-error {{address of 'ml[0]' taken in device code}}
    v.rank = ml.size() > 1 ? first[1] : 0;
  }
};
struct Scale {
  void operator()(float& m) const {
    float* next = &m + 1; // expected-error {{address of 'm' taken in device code}}
    m = *next;
  }
};
void Iterate() {
  EMV<VERTEX>::Run(Offset{});
  EMV<ELIST>::Run(Lists{});
  EMV<EDGE>::Run(Head{});
  EMV<MLIST>::Run(Gather{});
  EMV<MESSAGE>::Run(Scale{});
}
