// The real graphs of ../shared/graphs, checked against the counts in its README. A user's checkout
// has no such folder: then every test here exits with code 77, which ctest reports as skipped.
#define CATCH_CONFIG_RUNNER
#include "io_test_support.h"

#include <medusa/io/graph_summary.h>

#include <catch2/catch.hpp>

#include <chrono>
#include <cstring>
#include <iostream>

using namespace medusa;
using namespace medusa::io;
using namespace medusa::io::test;

namespace {
const std::string kGraphs = MEDUSA_SHARED_GRAPHS_DIR;
std::string graph(const char* name) { return kGraphs + "/" + name; }

// Every directed edge has its reverse (checked by sorting both directions).
bool has_all_reverse_edges(const EdgeListData& data) {
  std::vector<std::uint64_t> forward, backward;
  for (std::size_t e = 0; e < data.src.size(); ++e) {
    forward.push_back((std::uint64_t{data.src[e]} << 32) | data.dst[e]);
    backward.push_back((std::uint64_t{data.dst[e]} << 32) | data.src[e]);
  }
  std::sort(forward.begin(), forward.end());
  std::sort(backward.begin(), backward.end());
  return forward == backward;
}
}  // namespace

TEST_CASE("karate.mtx: 34 vertices, 78 undirected edges, 156 directed", "[io][real]") {
  const auto data = read_graph(graph("karate.mtx"));
  CHECK(data.vertex_count == 34);
  CHECK(data.edge_count() == 156);
  CHECK(data.symmetric);
  CHECK(has_all_reverse_edges(data));
  const auto summary = summarize(data);
  CHECK(summary.out_degree.max == 17);  // vertex 34 (1-based) is the club's president
  CHECK(summary.out_degree.max_vertex == 33);
  CHECK(summary.self_loops == 0);
}

TEST_CASE("road-NY.mtx.xz: 264,346 vertices, 365,050 undirected edges", "[io][real]") {
  const auto data = read_graph(graph("road-NY.mtx.xz"));
  CHECK(data.vertex_count == 264346);
  CHECK(data.edge_count() == 2 * 365050);
  CHECK(data.symmetric);
  CHECK(has_all_reverse_edges(data));
}

TEST_CASE("road-NE.txt.xz: 1,524,453 vertices, 1,934,010 edges, fast", "[io][real]") {
  const auto start = std::chrono::steady_clock::now();
  ReadOptions options;
  options.symmetrize = true;
  const auto data = read_graph(graph("road-NE.txt.xz"), options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(data.vertex_count == 1524453);
  CHECK(data.edge_count() == 2 * 1934010);
  CHECK(data.symmetric);
  CHECK(summarize(data).duplicates == 0);  // each undirected edge is listed once
  // "A couple of seconds": generous for a loaded 2-core machine, tight enough to catch a slow parser.
  CHECK(seconds < 8.0);
  std::cout << "road-NE read and symmetrized in " << seconds << " s\n";
}

TEST_CASE("ego-twitter.txt.xz: 81,306 vertices, 1,342,310 edges, max degree 3,383", "[io][real]") {
  const auto as_listed = read_graph(graph("ego-twitter.txt.xz"));
  CHECK(as_listed.vertex_count == 81306);
  CHECK(as_listed.edge_count() == 1342310);
  const auto loops = summarize(as_listed).self_loops;
  CHECK(loops == 14);  // listed once; symmetrizing does not double them
  ReadOptions options;
  options.symmetrize = true;
  const auto data = read_graph(graph("ego-twitter.txt.xz"), options);
  CHECK(data.edge_count() == 2 * 1342310 - loops);
  CHECK(summarize(data).out_degree.max == 3383);
}

TEST_CASE("wave.graph.xz (METIS): 156,317 vertices, 1,059,331 edges", "[io][real]") {
  const auto data = read_graph(graph("wave.graph.xz"));
  CHECK(data.vertex_count == 156317);
  CHECK(data.edge_count() == 2 * 1059331);
  CHECK(data.symmetric);
  CHECK(has_all_reverse_edges(data));
}

TEST_CASE("Conversions of a real graph round-trip through every writable format", "[io][real]") {
  TempDir dir;
  const auto original = read_graph(graph("karate.mtx"));
  for (const char* name : {"k.medusa-bin", "k.mtx", "k.txt", "k.gr", "k.graph"}) {
    write_graph(dir.file(name), original);
    auto back = read_graph(dir.file(name));
    INFO(name);
    CHECK(back.vertex_count == original.vertex_count);
    CHECK(back.edge_count() == original.edge_count());
    auto sorted = [](EdgeListData d) {
      auto edges = edges_of(d);
      std::sort(edges.begin(), edges.end());
      return edges;
    };
    CHECK(sorted(back) == sorted(original));
  }
}

int main(int argc, char** argv) {
  bool listing = false;
  for (int i = 1; i < argc; ++i) listing = listing || std::strncmp(argv[i], "--list", 6) == 0;
  if (!listing && !std::filesystem::is_directory(kGraphs)) {
    std::cout << "SKIPPED: real graphs folder " << kGraphs
              << " is absent (it sits beside the checkout in CI; see docs/graph-formats.md and "
                 "scripts/fetch-graphs.sh)\n";
    return 77;
  }
  return Catch::Session().run(argc, argv);
}
