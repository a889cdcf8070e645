// Medusa's user API: what a plain C++ EMV program includes.
//
// Compiled by an ordinary C++ compiler this header only declares the API (so IDEs, linters and
// -fsyntax-only work); the program runs after medusa-cc has translated it. In translated code
// (MEDUSA_GENERATED) the same names are backed by the runtime of the selected backend.
// See docs/programming-guide.md.
#pragma once

#include <medusa/aggregate.h>
#include <medusa/config.h>
#include <medusa/error.h>
#include <medusa/graph.h>
#include <medusa/neighbor_sets.h>
#include <medusa/plan.h>
#include <medusa/print_error.h>
#include <medusa/program.h>
#include <medusa/replayable_iteration.h>
#include <medusa/schedule.h>
#include <medusa/session.h>
#include <medusa/types.h>

#include <cstdint>
#include <type_traits>
#include <typeinfo>

#if defined(MEDUSA_GENERATED)
#include <medusa/device_api.h>
#include <medusa/in_edges.h>
#endif

namespace medusa {

// ---- Data: user structs derive from these to get the built-ins (paper: v.combined_msg(), ...) --

template <class Message>
struct VertexBase {
  using message_type = Message;
  VertexId id() const;
  std::uint32_t edge_count() const;      // out-degree
  std::uint32_t in_edge_count() const;   // in-degree
  Message combined_msg() const;          // result of the last Combiner() for this vertex
  NeighborSet neighbors() const;         // sorted out-neighbours (ELIST only; neighbor_sets.h)
  void SetActive() const;                // active in the next superstep
  void sendMsgTo(VertexId to, const Message& msg) const;  // to any vertex, by id (by_id.h)
  // Active in the superstep that runs its bucket, priority / delta: the lowest bucket runs first
  // (an unsigned integer, e.g. a tentative distance; programming guide, "Priorities").
  void SetActive(std::uint64_t priority) const;
};

template <class Vertex>
struct EdgeBase {
  using vertex_type = Vertex;
  using message_type = typename Vertex::message_type;
  VertexId head_id() const;              // the paper's head: the vertex the edge leaves
  VertexId tail_id() const;              // the vertex the edge enters
  const Vertex& head() const;            // read-only view of the head vertex
  NeighborSet head_neighbors() const;    // the head's sorted out-neighbours (ELIST only)
  NeighborSet tail_neighbors() const;    // the tail's sorted out-neighbours (ELIST only)
  void sendMsg(const message_type& msg) const;  // to the tail
  void SetActive() const;                // active in the next superstep
  void sendMsgTo(VertexId to, const message_type& msg) const;  // to any vertex, by id (by_id.h)
};

#if !defined(MEDUSA_GENERATED)
namespace detail {
template <class Element, class = void>
struct vertex_of {
  using type = Element;
};
template <class Element>
struct vertex_of<Element, std::void_t<typename Element::vertex_type>> {
  using type = typename Element::vertex_type;
};
}  // namespace detail

// Read-only view of vertex `id`, from a functor's vertex or edge parameter (medusa/by_id.h): the
// fields as they were when the launch began.
template <class Element>
const typename detail::vertex_of<Element>::type& vertex_at(const Element& element, VertexId id);

// ---- What functors receive (declarations; translated code supplies the definitions) -----------
template <class Edge>
class EdgeList {
 public:
  std::uint32_t size() const;
  Edge& operator[](std::uint32_t i) const;
};

template <class Message>
class MessageList {
 public:
  std::uint32_t size() const;
  Message& operator[](std::uint32_t i) const;
};

// The in-edges of one vertex, for ELIST functors that send against an edge's direction:
// el[i].sendMsg(x) sends x to in-edge i's head (its source). See medusa/in_edges.h.
template <class Edge>
class InEdgeList {
 public:
  std::uint32_t size() const;  // in-degree
  Edge& operator[](std::uint32_t i) const;
};

void Continue();
void Halt();
std::uint32_t Superstep();
#endif

// ---- System calls for the iteration function (paper Table 2) ----------------------------------

template <ApiKind K>
struct EMV {
  // Runs functor f over the elements of `domain` (all of them by default).
  template <class F>
  static void Run(const F& f, Domain domain = Domain::All)
#if defined(MEDUSA_GENERATED)
  {
    static_assert(EmvLaunch<F>::kind == K, "EMV<KIND>::Run: this functor's signature is of another kind");
    EmvLaunch<F>::run(detail::current_session(), f, domain);
  }
#else
      ;
#endif
};

// Fills every message slot with `value`; it is also what a vertex with no messages combines to,
// so it should be the combiner's identity (0 for sum, +inf for min, ...).
template <class M>
void InitMessageBuffer(const M& value)
#if defined(MEDUSA_GENERATED)
{
  detail::current_session().init_message_buffer(&value, typeid(M));
}
#else
    ;
#endif

// Reduces each vertex's message slots with Config::combinerOpType.
#if defined(MEDUSA_GENERATED)
inline void Combiner() { detail::current_session().combine_builtin(); }
#else
void Combiner();
#endif

// Reduces each vertex's message slots with a user-defined associative operator
// (a struct with `Message operator()(const Message&, const Message&) const`).
template <class Op>
void Combiner(const Op& op)
#if defined(MEDUSA_GENERATED)
{
  CombinerLaunch<Op>::run(detail::current_session(), op);
}
#else
    ;
#endif

// ---- Device data structures and iteration control ---------------------------------------------

#if defined(MEDUSA_GENERATED)
template <class Program>
class Session;  // defined by the backend header
template <class Vertex, class Edge>
using Device = Session<ProgramTraits<Vertex, Edge>>;
#else
template <class Vertex, class Edge>
class Device {
 public:
  // Executes `iteration` once per superstep until maxIteration or the votes stop it.
  RunStats Run(void (*iteration)());
  // Copies the fields the program wrote back into `graph`.
  void Dump_Result(Graph<Vertex, Edge>& graph);
};
#endif

// Builds the device data structures (topology, the used fields as structure-of-arrays, message
// buffer) and copies them to the device.
template <class Vertex, class Edge>
Device<Vertex, Edge> Init_Device_DS(Graph<Vertex, Edge>& graph, const Config& conf = Config{})
#if defined(MEDUSA_GENERATED)
{
  return Device<Vertex, Edge>(graph, conf);
}
#else
    ;
#endif

}  // namespace medusa

#if defined(MEDUSA_GENERATED)
#include <medusa/backend.h>
#endif
