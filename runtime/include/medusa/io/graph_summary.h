// Counts and degree statistics of an edge list (what `medusa-gen info` prints).
#pragma once

#include <medusa/io/graph_file.h>

#include <string>

namespace medusa::io {

struct DegreeStats {
  EdgeIndex min = 0, max = 0;
  double mean = 0;
  VertexId max_vertex = 0;  // a vertex of maximum degree
  VertexId zero = 0;        // vertices of degree 0
};

struct GraphSummary {
  std::string format;
  VertexId vertices = 0;
  EdgeIndex edges = 0;  // directed edges as stored
  bool symmetric = false, weighted = false;
  EdgeIndex self_loops = 0;
  EdgeIndex duplicates = 0;  // edges repeating an earlier (src, dst)
  DegreeStats out_degree, in_degree;
  double hub_share = 0;  // of the 2E edge endpoints, at the top 1% of vertices by in + out degree
  double weight_min = 0, weight_max = 0;
};

GraphSummary summarize(const EdgeListData& data);
// Human-readable, one "key: value" per line.
std::string describe(const GraphSummary& summary);

}  // namespace medusa::io
