// What a replica refresh copies: the vertex fields an edge-side functor reads (medusa-cc's
// kEdgeRead) and something writes, plus the SetActive flags when the program has a vertex
// frontier. Fields nobody writes are uploaded once and never refreshed.
#pragma once

#include <medusa/partition/plan.h>
#include <medusa/program.h>

#include <cstddef>
#include <string>
#include <vector>

namespace medusa::common {

template <class Program>
struct ReplicatedState {
  std::vector<std::size_t> fields;  // indices into Program::vertex_fields
  bool flags = false;

  static ReplicatedState of_program() {
    ReplicatedState r;
    for (std::size_t i = 0; i < Program::vertex_fields.size(); ++i) {
      const FieldSpec& f = Program::vertex_fields[i];
      if ((f.direction & kEdgeRead) && (f.direction & kDownload)) r.fields.push_back(i);
    }
    r.flags = Program::uses.vertex_frontier;
    return r;
  }

  std::size_t field_bytes() const {
    std::size_t b = 0;
    for (std::size_t i : fields) b += Program::vertex_fields[i].size;
    return b;
  }
  std::size_t bytes_per_replica() const { return field_bytes() + (flags ? 1 : 0); }

  // "N replicas x B bytes (rank, frontier flags)"
  std::string describe(const PartitionPlan& plan) const {
    std::string names;
    for (std::size_t i : fields) names += std::string(names.empty() ? "" : ", ") + Program::vertex_fields[i].name;
    if (flags) names += std::string(names.empty() ? "" : ", ") + "frontier flags";
    if (names.empty()) names = "nothing: no edge-side functor reads a written field";
    return std::to_string(plan.replica_count()) + " replicas x " + std::to_string(bytes_per_replica()) +
           " bytes (" + names + ")";
  }
};

}  // namespace medusa::common
