// What keeps a program to one hop of replicas (docs/multi-gpu.md, "Multi-hop replication").
#pragma once

#include <medusa/program.h>

namespace medusa::common {

// Whether a program may keep more than one hop of replicas: replicated edges and the outer hops
// are not refreshed, so nothing may live on them that a refresh cannot restore.
template <class Program>
const char* multi_hop_obstacle() {
  bool writes_edge_field = false;
  for (const FieldSpec& f : Program::edge_fields) writes_edge_field |= (f.direction & kDownload) != 0;
  return Program::uses.vertex_frontier ? "the program uses a vertex frontier (SetActive/Domain::Active)"
         : Program::uses.edge_frontier ? "the program uses an edge frontier"
         : writes_edge_field           ? "a functor writes an edge field"
         : Program::uses.in_edges      ? "an ELIST functor runs over in-edges (InEdgeList)"
                                       : nullptr;
}

}  // namespace medusa::common
