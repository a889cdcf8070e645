// Test-side graph input, independent of Medusa's loaders: a small Matrix Market reader (plain or
// .xz through `xz -dc`) and the location of the shared test graphs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace medusa_test {

struct EdgeList {
  std::uint32_t vertex_count = 0;
  std::vector<std::uint32_t> src, dst;
};

// The folder with the shared graphs (MEDUSA_TEST_GRAPH_DIR), or "" when it does not exist.
std::string graph_dir();
// Full path of a shared graph file, or "" when absent (tests then skip with a warning).
std::string shared_graph(const std::string& file);

// Reads a Matrix Market coordinate file (1-based); symmetric files yield both directions (self
// loops once). Values after the two indices are ignored. Throws std::runtime_error on bad input.
EdgeList read_matrix_market(const std::string& path);

}  // namespace medusa_test
