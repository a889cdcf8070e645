// Names and small queries of the plain program model.
#include "medusa-cc/ProgramModel.h"

namespace medusa::cc {

const char* apiKindName(ApiKind kind) {
  switch (kind) {
    case ApiKind::Elist: return "ELIST";
    case ApiKind::Edge: return "EDGE";
    case ApiKind::Mlist: return "MLIST";
    case ApiKind::Message: return "MESSAGE";
    case ApiKind::Vertex: return "VERTEX";
  }
  return "?";
}

// medusa/types.h: enum ApiKind { ELIST, EDGE, MLIST, MESSAGE, VERTEX }.
std::optional<ApiKind> apiKindFromRuntimeValue(int64_t value) {
  switch (value) {
    case 0: return ApiKind::Elist;
    case 1: return ApiKind::Edge;
    case 2: return ApiKind::Mlist;
    case 3: return ApiKind::Message;
    case 4: return ApiKind::Vertex;
    default: return std::nullopt;
  }
}

const char* domainName(DomainUse domain) {
  switch (domain) {
    case DomainUse::All: return "All";
    case DomainUse::Active: return "Active";
    case DomainUse::Received: return "Received";
    case DomainUse::Dynamic: return "dynamic";
  }
  return "?";
}

const char* paramRoleName(ParamRole role) {
  switch (role) {
    case ParamRole::Vertex: return "vertex";
    case ParamRole::Edge: return "edge";
    case ParamRole::EdgeList: return "edge_list";
    case ParamRole::MessageList: return "message_list";
    case ParamRole::Message: return "message";
    case ParamRole::InEdgeList: return "in_edge_list";
  }
  return "?";
}

bool FunctorInfo::uses_aggregate(int index) const {
  for (const std::vector<int>* uses : {&aggregates_added, &aggregates_read})
    for (int i : *uses)
      if (i == index) return true;
  return false;
}

std::string FieldInfo::declarator(const char* pointer_or_reference, bool is_const) const {
  const std::string element = (is_const ? "const " : "") + (element_type.empty() ? type : element_type);
  if (array_suffix.empty()) return element + pointer_or_reference + " " + name;
  return element + " (" + pointer_or_reference + name + ")" + array_suffix;
}

std::string FieldInfo::pointerType() const {
  if (array_suffix.empty()) return (element_type.empty() ? type : element_type) + "*";
  return element_type + " (*)" + array_suffix;
}

const FieldInfo* RecordInfo::field(const std::string& field_name) const {
  for (const FieldInfo& f : fields)
    if (f.name == field_name) return &f;
  return nullptr;
}

const FunctorInfo* ProgramModel::functor(const std::string& name) const {
  for (const FunctorInfo& f : functors)
    if (f.name == name) return &f;
  return nullptr;
}

ProgramUsesInfo ProgramModel::uses() const {
  ProgramUsesInfo u;
  u.combiner_consumes_slots = combiner_consumes_slots;
  for (const FunctorInfo& f : functors) {
    u.continue_vote |= f.continue_vote;
    u.halt_vote |= f.halt_vote;
    u.vertex_frontier |= f.sets_vertex_active;
    u.priorities |= f.sets_vertex_priority;
    u.edge_frontier |= f.sets_edge_active;
    u.messages |= f.sends_messages;
    u.neighbor_sets |= f.reads_neighbor_sets;
    u.reads_by_id |= f.reads_by_id;
    u.sends_by_id |= f.sends_by_id;
    u.in_edges |= f.in_edges;
    // ELIST/EDGE functors read combined_msg() of their vertex / an edge's head vertex.
    u.edge_reads_combined |=
        f.reads_combined && (f.kind == ApiKind::Elist || f.kind == ApiKind::Edge);
  }
  for (const RunCallInfo& r : runs) {
    const bool edge_kind = r.requested == ApiKind::Edge;
    // A domain only known at run time may be any of them.
    const bool active = r.domain == DomainUse::Active || r.domain == DomainUse::Dynamic;
    if (active && edge_kind) u.edge_frontier = true;
    if (active && !edge_kind && r.requested != ApiKind::Message) u.vertex_frontier = true;
    if (r.domain == DomainUse::Received || r.domain == DomainUse::Dynamic) u.received = true;
  }
  return u;
}

}  // namespace medusa::cc
