// load_graph: a graph file into a medusa::Graph with its real weights, checked against the type of
// the field that receives them; weights for unweighted files only when asked for.
#include "io_test_support.h"

#include <medusa/io/load_graph.h>

#include <catch2/catch.hpp>

#include <cstdint>
#include <set>
#include <string>

using namespace medusa;
using namespace medusa::io;
using namespace medusa::io::test;

namespace {
struct Vertex {
  int distance = -1;
};
struct Link {
  double cost = 0;
  float strength = 0;
  unsigned length = 0;
  int delta = 0;
  std::uint8_t level = 0;
};
struct Base {
  unsigned weight = 0;
};
struct Derived : Base {};

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// A directed Matrix Market file with these weights on edges 1->2, 2->3, 3->1 (1-based).
std::string real_mtx(const std::string& w0, const std::string& w1, const std::string& w2) {
  return "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 " + w0 + "\n2 3 " + w1 + "\n3 1 " + w2 + "\n";
}
}  // namespace

TEST_CASE("load_graph stores fractional weights into float and double fields as they are", "[io][load]") {
  TempDir dir;
  const std::string path = dir.file("w.mtx");
  write_file(path, real_mtx("0.5", "-1.5", "2.25"));
  const auto g = load_graph<Vertex, Link>(path, &Link::cost);
  REQUIRE(g.edge_count() == 3);
  CHECK(g.vertex_count() == 3);
  CHECK(g.edge_src(1) == 1);
  CHECK(g.edge_dst(1) == 2);
  CHECK(g.edge(0).cost == 0.5);
  CHECK(g.edge(1).cost == -1.5);
  CHECK(g.edge(2).cost == 2.25);
  CHECK(g.edge(0).length == 0);  // other fields untouched
  const auto f = load_graph<Vertex, Link>(path, &Link::strength);
  CHECK(f.edge(0).strength == 0.5f);
  CHECK(f.edge(1).strength == -1.5f);
  write_file(path, real_mtx("1", "1e300", "1"));
  CHECK_THROWS_WITH((load_graph<Vertex, Link>(path, &Link::strength)),
                    Catch::Contains("edge 1 (1 -> 2") && Catch::Contains("e+300") &&
                        Catch::Contains("(float) cannot hold: it is too large"));
}

TEST_CASE("load_graph stores integer weights into unsigned, signed and base-class fields", "[io][load]") {
  TempDir dir;
  const std::string path = dir.file("roads.gr");
  write_file(path, "p sp 3 3\na 1 2 7\na 2 3 4000000000\na 3 1 0\n");
  const auto g = load_graph<Vertex, Link>(path, &Link::length);
  CHECK(g.edge(0).length == 7);
  CHECK(g.edge(1).length == 4000000000u);  // above INT_MAX: the full unsigned range
  CHECK(g.edge(2).length == 0);
  const auto b = load_graph<Vertex, Derived>(path, &Derived::weight);  // (a Base::* pointer)
  CHECK(b.edge(1).weight == 4000000000u);
  const std::string signed_path = dir.file("signed.mtx");
  write_file(signed_path, real_mtx("-7", "2147483647", "-2147483648"));
  const auto s = load_graph<Vertex, Link>(signed_path, &Link::delta);
  CHECK(s.edge(0).delta == -7);
  CHECK(s.edge(1).delta == 2147483647);
  CHECK(s.edge(2).delta == -2147483647 - 1);
  write_file(signed_path, real_mtx("1", "2147483648", "1"));
  CHECK_THROWS_WITH((load_graph<Vertex, Link>(signed_path, &Link::delta)), Catch::Contains("it is out of range"));
}

TEST_CASE("load_graph refuses weights the field cannot hold, naming the file, edge and value", "[io][load]") {
  TempDir dir;
  const std::string path = dir.file("bad.mtx");
  SECTION("negative into unsigned") {
    write_file(path, real_mtx("3", "-1.5", "4"));
    const std::string e = error_of([&] { load_graph<Vertex, Link>(path, &Link::length); });
    CHECK(contains(e, path + ":0: edge 1 (1 -> 2, vertices counted from 0) has weight -1.5"));
    CHECK(contains(e, "(unsigned 32-bit integer) cannot hold: it is negative"));
    write_file(path, real_mtx("3", "-2", "4"));
    CHECK(contains(error_of([&] { load_graph<Vertex, Link>(path, &Link::length); }),
                   "has weight -2, which the edge field (unsigned 32-bit integer) cannot hold: it is negative"));
  }
  SECTION("fraction into integer") {
    write_file(path, real_mtx("3", "4", "0.5"));
    const std::string e = error_of([&] { load_graph<Vertex, Link>(path, &Link::delta); });
    CHECK(contains(e, "edge 2 (2 -> 0, vertices counted from 0) has weight 0.5"));
    CHECK(contains(e, "(signed 32-bit integer) cannot hold: it is not an integer"));
    CHECK(contains(e, "float, double"));  // what to do
  }
  SECTION("too large for the integer type") {
    write_file(path, real_mtx("256", "1", "1"));
    CHECK(contains(error_of([&] { load_graph<Vertex, Link>(path, &Link::level); }),
                   "has weight 256, which the edge field (unsigned 8-bit integer) cannot hold: it is out of range"));
    write_file(path, real_mtx("4294967296", "1", "1"));
    CHECK(contains(error_of([&] { load_graph<Vertex, Link>(path, &Link::length); }), "it is out of range"));
  }
}

TEST_CASE("load_graph of an unweighted file into a weight field needs a default or random weights",
          "[io][load]") {
  TempDir dir;
  const std::string path = dir.file("plain.txt");
  write_file(path, "0 1\n1 2\n2 0\n");
  const std::string e = error_of([&] { load_graph<Vertex, Link>(path, &Link::length); });
  CHECK(contains(e, path + ":0: the snap file has no edge weights"));
  CHECK(contains(e, "WeightOptions::default_weight"));
  CHECK(contains(error_of([&] { load_graph<Vertex, Link>(path, [](Link&, double) {}); }), "has no edge weights"));
  CHECK(load_graph<Vertex, Link>(path).edge_count() == 3);  // topology only: no weights needed
  CHECK(contains(error_of([&] { to_graph<Vertex, Link>(read_graph(path), &Link::length, path); }),
                 "call io::require_weights"));

  LoadOptions unit;
  unit.weights.default_weight = 1;
  const auto g = load_graph<Vertex, Link>(path, &Link::length, unit);
  for (const Link& edge : g.edges()) CHECK(edge.length == 1);

  LoadOptions both = unit;
  both.weights.random = RandomWeights{};
  CHECK(contains(error_of([&] { load_graph<Vertex, Link>(path, &Link::length, both); }), "set one of them"));
}

TEST_CASE("load_graph gives random weights only when asked, reproducibly, the same both ways", "[io][load]") {
  TempDir dir;
  const std::string path = dir.file("sym.mtx");
  write_file(path, "%%MatrixMarket matrix coordinate pattern symmetric\n40 40 4\n2 1\n3 1\n40 2\n9 5\n");
  LoadOptions random;
  random.weights.random = RandomWeights{7, 10, 20};
  const auto g = load_graph<Vertex, Link>(path, &Link::length, random);
  REQUIRE(g.edge_count() == 8);
  std::set<unsigned> seen;
  for (EdgeIndex e = 0; e < g.edge_count(); ++e) {
    CHECK(g.edge(e).length >= 10);
    CHECK(g.edge(e).length <= 20);
    seen.insert(g.edge(e).length);
    for (EdgeIndex r = 0; r < g.edge_count(); ++r)  // u -> v and v -> u weigh the same
      if (g.edge_src(r) == g.edge_dst(e) && g.edge_dst(r) == g.edge_src(e)) CHECK(g.edge(r).length == g.edge(e).length);
  }
  CHECK(seen.size() > 1);
  const auto again = load_graph<Vertex, Link>(path, &Link::length, random);
  for (EdgeIndex e = 0; e < g.edge_count(); ++e) CHECK(again.edge(e).length == g.edge(e).length);
  random.weights.random->seed = 8;
  const auto other = load_graph<Vertex, Link>(path, &Link::length, random);
  bool differs = false;
  for (EdgeIndex e = 0; e < g.edge_count(); ++e) differs |= other.edge(e).length != g.edge(e).length;
  CHECK(differs);

  // A file's own weights win over random ones.
  write_file(path, real_mtx("3", "4", "5"));
  CHECK(load_graph<Vertex, Link>(path, &Link::length, random).edge(1).length == 4);
}

TEST_CASE("load_graph with a callback passes the file's weights as doubles", "[io][load]") {
  TempDir dir;
  const std::string path = dir.file("w.mtx");
  write_file(path, real_mtx("0.5", "-1.5", "2.25"));
  const auto g = load_graph<Vertex, Link>(path, [](Link& e, double w) { e.delta = static_cast<int>(w * 4); });
  CHECK(g.edge(0).delta == 2);
  CHECK(g.edge(1).delta == -6);
  CHECK(g.edge(2).delta == 9);
}
