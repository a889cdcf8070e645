// The graphs the integration tests run on, loaded once per test binary.
#pragma once

#include "graph_files.h"

#include <string>
#include <vector>

namespace medusa_test {

struct NamedGraph {
  std::string name;
  const EdgeList* graph;  // null when the file is not available (the test then skips it)
};

// karate (34 vertices), road-NY (264,346 vertices, high diameter; only when with_road) and a
// seeded random directed graph with self loops and duplicates.
std::vector<NamedGraph> integration_graphs(bool with_road = true);

// A message for a skipped input.
std::string missing_graph_message(const std::string& name);

}  // namespace medusa_test
