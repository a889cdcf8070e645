// The description of one translated program that medusa-cc emits and the runtime consumes:
// which user fields live on the device, in which direction they travel, and what the program uses.
//
// medusa-cc emits one specialization `template <> struct medusa::ProgramTraits<Vertex, Edge>`
// per program; runtime tests write the same by hand. Its members:
//
//   using Vertex = ...; using Edge = ...; using Message = ...;
//   struct VertexArrays { float* rank; ... };        // one device pointer per used vertex field
//   struct EdgeArrays { int* weight; ... };          // one device pointer per used edge field
//   static constexpr std::array<FieldSpec, N> vertex_fields = {...};   // same order as VertexArrays
//   static constexpr std::array<FieldSpec, M> edge_fields = {...};     // same order as EdgeArrays
//   static VertexArrays bind_vertex(void* const* arrays);  // arrays[i] holds vertex_fields[i]
//   static EdgeArrays bind_edge(void* const* arrays);
//   static constexpr ProgramUses uses = ProgramUses::of(kUsesMessages | ...);  // named flags
//
// Generated code checks kCodegenContract at compile time: a file translated by a medusa-cc of
// another contract fails to compile with a message, instead of misreading these members.
#pragma once

#include <cstddef>
#include <cstdint>

namespace medusa {

enum FieldDirection : std::uint8_t {
  kUpload = 1,    // read on the device: copied by Init_Device_DS
  kDownload = 2,  // written on the device: copied back by Dump_Result
  kEdgeRead = 4,  // read by an ELIST or EDGE functor (its vertex, or an edge's head()): a
                  // partitioned run keeps the head-vertex replicas of this field fresh
};

struct FieldSpec {
  const char* name;
  std::size_t offset;  // offsetof(user struct, field)
  std::size_t size;    // sizeof(field)
  std::uint8_t direction;
};

// The version of this contract. Bump it whenever generated code and the runtime change together
// (a member added, a meaning changed); medusa-cc emits a static_assert against it.
inline constexpr int kCodegenContract = 3;

// Named flags for ProgramUses::of (one per ProgramUses member).
enum ProgramUse : std::uint32_t {
  kUsesNothing = 0,
  kUsesContinueVote = 1u << 0,
  kUsesHaltVote = 1u << 1,
  kUsesVertexFrontier = 1u << 2,
  kUsesEdgeFrontier = 1u << 3,
  kUsesReceived = 1u << 4,
  kUsesMessages = 1u << 5,
  kUsesEdgeReadsCombined = 1u << 6,
  kUsesVertexEdgeLoops = 1u << 7,
  kUsesCombinerConsumesSlots = 1u << 8,
  kUsesNeighborSets = 1u << 9,
  kUsesReadsById = 1u << 10,
  kUsesSendsById = 1u << 11,
  kUsesPriorities = 1u << 12,
  kUsesInEdges = 1u << 13,
};
constexpr ProgramUse operator|(ProgramUse a, ProgramUse b) {
  return static_cast<ProgramUse>(static_cast<std::uint32_t>(a) | static_cast<std::uint32_t>(b));
}

// Which runtime features the program needs; lets the runtime skip what is unused.
struct ProgramUses {
  // Not an aggregate: programs say what they use by name, through of().
  explicit constexpr ProgramUses() = default;
  bool continue_vote = false;    // some functor calls Continue(): stop when a superstep has no vote
  bool halt_vote = false;        // some functor calls Halt(): stop after a superstep with a vote
  bool vertex_frontier = false;  // SetActive() on vertices / Domain::Active on vertex kinds
  bool edge_frontier = false;    // SetActive() on edges / Domain::Active on EDGE
  bool received = false;         // Domain::Received is used: track message receivers
  bool messages = false;         // some functor sends messages
  bool edge_reads_combined = false;  // an ELIST/EDGE functor reads combined_msg() of a head vertex
  bool vertex_edge_loops = false;    // an ELIST functor runs its edge loop in one thread per vertex
  // medusa-cc proved that no message slot is read after the Combiner that folded it, before
  // InitMessageBuffer rewrites them all: a pushed frontier need not write its slots.
  bool combiner_consumes_slots = false;
  bool neighbor_sets = false;  // an ELIST functor reads neighbour sets: keep CSR rows sorted
  bool reads_by_id = false;  // a functor reads another vertex's fields: vertex_at(element, id)
  bool sends_by_id = false;  // a functor sends to a vertex by id: sendMsgTo(id, msg) (by_id.h)
  // some functor calls v.SetActive(priority): Domain::Active runs the lowest bucket of priorities
  // first (docs/design/priority-buckets.md)
  bool priorities = false;
  // an ELIST functor takes an InEdgeList (in_edges.h): partitioned runs lay out in-edge rows
  bool in_edges = false;

  static constexpr ProgramUses of(ProgramUse flags) {
    ProgramUses u;
    u.continue_vote = (flags & kUsesContinueVote) != 0;
    u.halt_vote = (flags & kUsesHaltVote) != 0;
    u.vertex_frontier = (flags & kUsesVertexFrontier) != 0;
    u.edge_frontier = (flags & kUsesEdgeFrontier) != 0;
    u.received = (flags & kUsesReceived) != 0;
    u.messages = (flags & kUsesMessages) != 0;
    u.edge_reads_combined = (flags & kUsesEdgeReadsCombined) != 0;
    u.vertex_edge_loops = (flags & kUsesVertexEdgeLoops) != 0;
    u.combiner_consumes_slots = (flags & kUsesCombinerConsumesSlots) != 0;
    u.neighbor_sets = (flags & kUsesNeighborSets) != 0;
    u.reads_by_id = (flags & kUsesReadsById) != 0;
    u.sends_by_id = (flags & kUsesSendsById) != 0;
    u.priorities = (flags & kUsesPriorities) != 0;
    u.in_edges = (flags & kUsesInEdges) != 0;
    return u;
  }
};

// Primary template: only the generated (or hand-written) specializations are complete.
template <class Vertex, class Edge>
struct ProgramTraits;

}  // namespace medusa
