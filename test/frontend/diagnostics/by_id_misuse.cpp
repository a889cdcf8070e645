// Reads and sends by vertex id: a read-only view of another vertex, no read of a field the launch
// writes, integral ids, vertex_at on the functor's own element, and only fields of the view.
#include <medusa/medusa.h>
using namespace medusa;
struct Vertex : VertexBase<unsigned int> {
  unsigned int label;
  unsigned int next;
};
struct Edge : EdgeBase<Vertex> {};

struct WriteOther {
  void operator()(Vertex& v) const {
    const_cast<Vertex&>(vertex_at(v, v.label)).next = 1; // expected-error {{functor 'WriteOther' writes field 'next' of a vertex read by id: vertex_at gives a read-only view, and a functor writes only its own vertex; send the value with sendMsgTo(id, msg) and write it in a VERTEX functor}}
  }
};

struct ReadWhatItWrites {
  void operator()(Vertex& v) const {
    v.label = vertex_at(v, v.label).label; // expected-error {{functor 'ReadWhatItWrites' reads field 'label' of other vertices by id and writes its own 'label' in the same launch, so a read could see another element's write; write the new value to a second field and copy it in a later VERTEX launch}}
  }
};

struct FloatId {
  void operator()(Edge& e) const {
    const float where = 1.5f;
    e.sendMsgTo(where, 3u); // expected-error {{the vertex id passed to sendMsgTo has type 'const float'; pass an integral vertex id (medusa::VertexId)}}
  }
};

struct OtherElement {
  void operator()(Vertex& v) const {
    Vertex copy = v;
    v.next = vertex_at(copy, 0u).label; // expected-error {{the first argument of vertex_at must be the functor's vertex parameter, which gives the launch's context}}
  }
};

struct ViewMethod {
  void operator()(Vertex& v) const {
    v.next = vertex_at(v, v.label).edge_count(); // expected-error {{functor 'ViewMethod' calls edge_count() on a vertex read by id: vertex_at gives only that vertex's fields; keep what you need in a field of it, or send it a message with sendMsgTo(id, msg)}}
  }
};

void Iterate() {
  InitMessageBuffer(0u);
  EMV<EDGE>::Run(FloatId{});
  Combiner();
  EMV<VERTEX>::Run(WriteOther{});
  EMV<VERTEX>::Run(ReadWhatItWrites{});
  EMV<VERTEX>::Run(OtherElement{});
  EMV<VERTEX>::Run(ViewMethod{});
}
