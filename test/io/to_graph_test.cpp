// From an edge list to a medusa::Graph, with weights stored where the program wants them.
#include "io_test_support.h"

#include <catch2/catch.hpp>

using namespace medusa;
using namespace medusa::io;
using namespace medusa::io::test;

namespace {
struct Vertex {
  int distance = -1;
};
struct Road {
  unsigned length = 0;
};
}  // namespace

TEST_CASE("to_graph keeps counts and edges in input order", "[io][graph]") {
  const auto data = parse_text("p sp 4 3\na 1 2 7\na 2 3 5\na 4 1 2\n", Format::Dimacs);
  const auto graph = to_graph<Vertex, Road>(data);
  CHECK(graph.vertex_count() == 4);
  REQUIRE(graph.edge_count() == 3);
  CHECK(graph.edge_src(2) == 3);
  CHECK(graph.edge_dst(2) == 0);
  CHECK(graph.edge(0).length == 0);  // without a callable, edge data is value-initialised
  CHECK(graph.vertex(3).distance == -1);
}

TEST_CASE("to_graph with a callable stores the weights, unweighted inputs give 1.0", "[io][graph]") {
  const auto weighted = parse_text("p sp 3 2\na 1 2 7\na 2 3 5\n", Format::Dimacs);
  const auto graph = to_graph<Vertex, Road>(weighted, [](Road& road, double w) { road.length = static_cast<unsigned>(w); });
  CHECK(graph.edge(0).length == 7);
  CHECK(graph.edge(1).length == 5);
  const auto unweighted = parse_text("0 1\n", Format::Snap);
  const auto unit = to_graph<Vertex, Road>(unweighted, [](Road& road, double w) { road.length = static_cast<unsigned>(w); });
  CHECK(unit.edge(0).length == 1);
}
