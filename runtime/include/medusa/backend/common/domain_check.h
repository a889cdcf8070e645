// Which EMV kinds may run over which domains, checked before a launch on both backends.
#pragma once

#include <medusa/error.h>
#include <medusa/program.h>
#include <medusa/types.h>

#include <string>

namespace medusa::common {

inline const char* api_kind_name(ApiKind k) {
  switch (k) {
    case ELIST: return "ELIST";
    case EDGE: return "EDGE";
    case MLIST: return "MLIST";
    case MESSAGE: return "MESSAGE";
    case VERTEX: return "VERTEX";
  }
  return "unknown";
}

inline const char* domain_name(Domain d) {
  switch (d) {
    case Domain::All: return "Domain::All";
    case Domain::Active: return "Domain::Active";
    case Domain::Received: return "Domain::Received";
  }
  return "unknown";
}

// Throws an Error for a domain the kind cannot run over, or one the program's ProgramUses did not
// announce (so the runtime did not allocate what it needs).
inline void check_domain(ApiKind kind, Domain domain, const ProgramUses& uses) {
  const std::string call = std::string("EMV<") + api_kind_name(kind) + ">::Run(f, " +
                           domain_name(domain) + ")";
  if (kind == MESSAGE && domain != Domain::All) {
    MEDUSA_THROW(call + ": MESSAGE functors run over every message slot; only Domain::All is allowed");
  }
  if (kind == EDGE && domain == Domain::Received) {
    MEDUSA_THROW(call + ": Domain::Received selects vertices that received messages; it applies to "
                        "VERTEX and MLIST only. Use Domain::All or Domain::Active for EDGE");
  }
  if (kind == ELIST && domain == Domain::Received) {
    MEDUSA_THROW(call + ": Domain::Received applies to VERTEX and MLIST only");
  }
  if (domain == Domain::Active && kind == EDGE && !uses.edge_frontier) {
    MEDUSA_THROW(call + ": the program does not use an edge frontier (ProgramUses::edge_frontier is "
                        "false), so no edge is ever active");
  }
  if (domain == Domain::Active && kind != EDGE && !uses.vertex_frontier) {
    MEDUSA_THROW(call + ": the program does not use a vertex frontier (ProgramUses::vertex_frontier "
                        "is false), so no vertex is ever active");
  }
  if (domain == Domain::Received && !uses.received) {
    MEDUSA_THROW(call + ": the program does not track receivers (ProgramUses::received is false)");
  }
}

}  // namespace medusa::common
