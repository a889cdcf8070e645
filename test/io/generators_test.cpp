// Generators: determinism for a seed (whatever the thread count), sizes, and each graph's shape.
#include "io_test_support.h"

#include <medusa/io/generators.h>
#include <medusa/io/graph_summary.h>

#include <catch2/catch.hpp>

#include <omp.h>

#include <algorithm>
#include <deque>
#include <map>
#include <set>

using namespace medusa;
using namespace medusa::io;
using namespace medusa::io::test;

namespace {
// Order-sensitive fingerprint of an edge list (FNV-1a over ids and weights).
std::uint64_t fingerprint(const EdgeListData& data) {
  std::uint64_t h = 0xCBF29CE484222325ull;
  auto mix = [&h](std::uint64_t x) { h = (h ^ x) * 0x100000001B3ull; };
  mix(data.vertex_count);
  for (std::size_t e = 0; e < data.src.size(); ++e) {
    mix(data.src[e]);
    mix(data.dst[e]);
    if (data.weighted()) mix(static_cast<std::uint64_t>(data.weight[e]));
  }
  return h;
}

template <class Generate>
void check_thread_independent(Generate generate) {
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  const auto one = generate();
  omp_set_num_threads(3);
  const auto three = generate();
  omp_set_num_threads(saved);
  CHECK(one.src == three.src);
  CHECK(one.dst == three.dst);
  CHECK(one.weight == three.weight);
}

// Reverse edges with equal weights: the multiset of (u, v, w) equals that of (v, u, w).
bool symmetric_with_weights(const EdgeListData& data) {
  std::vector<WeightedEdge> forward, backward;
  for (std::size_t e = 0; e < data.src.size(); ++e) {
    double w = data.weighted() ? data.weight[e] : 0;
    forward.emplace_back(data.src[e], data.dst[e], w);
    backward.emplace_back(data.dst[e], data.src[e], w);
  }
  std::sort(forward.begin(), forward.end());
  std::sort(backward.begin(), backward.end());
  return forward == backward;
}

bool in_range(const EdgeListData& data) {
  for (std::size_t e = 0; e < data.src.size(); ++e) {
    if (data.src[e] >= data.vertex_count || data.dst[e] >= data.vertex_count) return false;
  }
  return true;
}
}  // namespace

TEST_CASE("Kronecker: sizes, determinism, seed sensitivity, thread independence", "[io][generators][kron]") {
  KroneckerParameters p;
  p.scale = 12;
  GeneratorOptions options;
  options.seed = 42;
  const auto a = generate_kronecker(p, options);
  CHECK(a.vertex_count == 4096);
  CHECK(a.edge_count() == 16 * 4096);
  CHECK(a.format == "kronecker");
  CHECK(in_range(a));
  CHECK(fingerprint(generate_kronecker(p, options)) == fingerprint(a));
  options.seed = 43;
  CHECK(fingerprint(generate_kronecker(p, options)) != fingerprint(a));
  p.scale = 17;  // several blocks of edges, so threads really split the work
  check_thread_independent([&] { return generate_kronecker(p, options); });
}

TEST_CASE("Kronecker output is pinned (same graph on every platform and library)", "[io][generators][kron]") {
  KroneckerParameters p;
  p.scale = 10;
  GeneratorOptions options;
  options.seed = 1;
  options.weighted = true;
  options.weights = {1, 255};
  const auto data = generate_kronecker(p, options);
  CHECK(fingerprint(data) == 0xC2BE905AEB88D211ull);
}

TEST_CASE("Kronecker degrees are skewed (power law) and labels permuted", "[io][generators][kron]") {
  KroneckerParameters p;
  p.scale = 14;
  const auto summary = summarize(generate_kronecker(p));
  CHECK(summary.out_degree.mean == Approx(16.0));
  CHECK(summary.out_degree.max > 40 * summary.out_degree.mean);
  CHECK(summary.out_degree.zero > summary.vertices / 10);  // many isolated vertices, as in Graph500
  // Without the permutation vertex 0 would be the hub; with it the hub lands anywhere.
  CHECK(summary.out_degree.max_vertex != 0);
}

TEST_CASE("Symmetrize, self loops, duplicates and weights", "[io][generators]") {
  KroneckerParameters p;
  p.scale = 10;
  GeneratorOptions options;
  options.symmetrize = true;
  options.weighted = true;
  options.weights = {3, 9};
  const auto raw = generate_kronecker(p, options);
  CHECK(raw.symmetric);
  CHECK(symmetric_with_weights(raw));
  for (double w : raw.weight) REQUIRE((w >= 3 && w <= 9 && w == static_cast<int>(w)));
  std::set<double> distinct(raw.weight.begin(), raw.weight.end());
  CHECK(distinct.size() == 7);

  options.remove_self_loops = true;
  options.remove_duplicates = true;
  const auto simple = generate_kronecker(p, options);
  const auto summary = summarize(simple);
  CHECK(summary.self_loops == 0);
  CHECK(summary.duplicates == 0);
  CHECK(symmetric_with_weights(simple));
  CHECK(std::is_sorted(simple.src.begin(), simple.src.end()));
  CHECK(simple.edge_count() < raw.edge_count());
  CHECK_THROWS_WITH(generate_grid(2, 2, GeneratorOptions{1, false, false, false, true, {5, 4}}),
                    Catch::Contains("weight range is empty (expected lo <= hi, got 5:4)"));
}

TEST_CASE("R-MAT: sizes, determinism, no permutation (vertex 0 is the hub)", "[io][generators][rmat]") {
  RmatParameters p;
  p.scale = 14;
  p.edges = 100000;
  const auto data = generate_rmat(p);
  CHECK(data.vertex_count == 16384);
  CHECK(data.edge_count() == 100000);
  CHECK(in_range(data));
  CHECK(fingerprint(generate_rmat(p)) == fingerprint(data));
  const auto summary = summarize(data);
  CHECK(summary.out_degree.max > 10 * summary.out_degree.mean);
  CHECK(summary.out_degree.max_vertex == 0);  // quadrant a (0.45) is the largest
  check_thread_independent([&] { return generate_rmat(p); });
  p.d = 0.5;
  CHECK_THROWS_WITH(generate_rmat(p), Catch::Contains("a + b + c + d = 1"));
}

TEST_CASE("Uniform G(n, m): exactly m distinct edges, flat degrees", "[io][generators][uniform]") {
  GeneratorOptions options;
  options.remove_self_loops = true;
  options.remove_duplicates = true;
  const auto data = generate_uniform(1000, 20000, options);
  CHECK(data.edge_count() == 20000);
  const auto summary = summarize(data);
  CHECK(summary.self_loops == 0);
  CHECK(summary.duplicates == 0);
  CHECK(summary.out_degree.max < 3 * summary.out_degree.mean);
  check_thread_independent([&] { return generate_uniform(5000, 300000, options); });

  // Complete graph on 10 vertices: all 45 pairs, both directions.
  options.symmetrize = true;
  const auto complete = generate_uniform(10, 45, options);
  CHECK(complete.edge_count() == 90);
  CHECK(summarize(complete).out_degree.min == 9);
  CHECK_THROWS_WITH(generate_uniform(10, 46, options),
                    Catch::Contains("cannot draw 46 distinct edges: only 45 exist with these options"));
}

TEST_CASE("Bipartite: every edge goes from the left side to the right side", "[io][generators][bipartite]") {
  const auto data = generate_bipartite(300, 500, 4000);
  CHECK(data.vertex_count == 800);
  CHECK(data.edge_count() == 4000);
  for (std::size_t e = 0; e < data.src.size(); ++e) {
    REQUIRE(data.src[e] < 300);
    REQUIRE(data.dst[e] >= 300);
    REQUIRE(data.dst[e] < 800);
  }
  GeneratorOptions options;
  options.symmetrize = true;
  options.remove_duplicates = true;
  const auto both = generate_bipartite(300, 500, 4000, options);
  CHECK(both.edge_count() == 8000);  // exactly 4000 distinct pairs, each both ways
  CHECK(symmetric_with_weights(both));
  for (std::size_t e = 0; e < both.src.size(); ++e) REQUIRE((both.src[e] < 300) != (both.dst[e] < 300));
}

TEST_CASE("Grid: 4-neighbour structure and diameter rows + cols - 2", "[io][generators][grid]") {
  const VertexId rows = 30, cols = 50;
  const auto data = generate_grid(rows, cols);
  CHECK(data.vertex_count == rows * cols);
  CHECK(data.edge_count() == 2 * (rows * (cols - 1) + cols * (rows - 1)));
  CHECK(data.symmetric);
  for (std::size_t e = 0; e < data.src.size(); ++e) {
    const long r1 = data.src[e] / cols, c1 = data.src[e] % cols, r2 = data.dst[e] / cols, c2 = data.dst[e] % cols;
    REQUIRE(std::abs(r1 - r2) + std::abs(c1 - c2) == 1);
  }
  const auto summary = summarize(data);
  CHECK(summary.out_degree.min == 2);  // corners
  CHECK(summary.out_degree.max == 4);
  CHECK(summary.duplicates == 0);
  // BFS from a corner reaches the opposite corner last.
  std::vector<std::vector<VertexId>> adjacency(data.vertex_count);
  for (std::size_t e = 0; e < data.src.size(); ++e) adjacency[data.src[e]].push_back(data.dst[e]);
  std::vector<int> depth(data.vertex_count, -1);
  std::deque<VertexId> queue{0};
  depth[0] = 0;
  while (!queue.empty()) {
    VertexId v = queue.front();
    queue.pop_front();
    for (VertexId w : adjacency[v]) {
      if (depth[w] < 0) depth[w] = depth[v] + 1, queue.push_back(w);
    }
  }
  CHECK(*std::max_element(depth.begin(), depth.end()) == static_cast<int>(rows + cols - 2));
  CHECK(depth[rows * cols - 1] == static_cast<int>(rows + cols - 2));
  CHECK(generate_grid(1, 1).edge_count() == 0);
}
