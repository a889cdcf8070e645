// Topology::build: forward CSR, reverse CSR, rID and input order (host only: no functors).
#include <medusa/error.h>
#include <medusa/topology.h>

#include "support/random_graph.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

using medusa::EdgeIndex;
using medusa::Topology;
using medusa::VertexId;

namespace {

// Every invariant the backends rely on, checked against the input edge list.
void check_topology(const Topology& t, VertexId n, const std::vector<VertexId>& src,
                    const std::vector<VertexId>& dst) {
  const std::size_t E = src.size();
  REQUIRE(t.vertex_count == n);
  REQUIRE(t.edge_count == E);
  REQUIRE(t.out_offsets.size() == n + 1);
  REQUIRE(t.in_offsets.size() == n + 1);
  REQUIRE(t.out_offsets.front() == 0);
  REQUIRE(t.out_offsets.back() == E);
  REQUIRE(t.in_offsets.back() == E);
  std::vector<int> input_seen(E, 0);
  for (VertexId v = 0; v < n; ++v) {
    EdgeIndex prev_input = 0;
    for (EdgeIndex e = t.out_offsets[v]; e < t.out_offsets[v + 1]; ++e) {
      const EdgeIndex i = t.input_edge[e];
      REQUIRE(i < E);
      ++input_seen[i];
      REQUIRE(src[i] == v);
      REQUIRE(t.edge_src[e] == v);
      REQUIRE(t.out_dst[e] == dst[i]);
      if (e > t.out_offsets[v]) REQUIRE(i > prev_input);  // stable by source
      prev_input = i;
    }
  }
  REQUIRE(std::all_of(input_seen.begin(), input_seen.end(), [](int c) { return c == 1; }));
  // rID: the in-edges of each vertex occupy [in_offsets[v], in_offsets[v+1]); rid and in_edge
  // are inverse permutations.
  for (EdgeIndex e = 0; e < E; ++e) {
    const EdgeIndex r = t.rid[e];
    const VertexId tail = t.out_dst[e];
    REQUIRE(r >= t.in_offsets[tail]);
    REQUIRE(r < t.in_offsets[tail + 1]);
    REQUIRE(t.in_edge[r] == e);
    REQUIRE(t.in_src[r] == t.edge_src[e]);
  }
  // Each vertex's in-edges in CSR order (stable by destination over CSR positions).
  for (VertexId v = 0; v < n; ++v)
    for (EdgeIndex r = t.in_offsets[v] + 1; r < t.in_offsets[v + 1]; ++r) REQUIRE(t.in_edge[r - 1] < t.in_edge[r]);
}

}  // namespace

TEST_CASE("Topology: CSR, reverse CSR, rID and input order of a small graph", "[runtime]") {
  // 0->1, 2->0, 0->2, 1->2, 2->1 (input order deliberately not sorted by source)
  const std::vector<VertexId> src{0, 2, 0, 1, 2};
  const std::vector<VertexId> dst{1, 0, 2, 2, 1};
  const Topology t = Topology::build(3, src, dst);
  CHECK(t.out_offsets == std::vector<EdgeIndex>{0, 2, 3, 5});
  CHECK(t.out_dst == std::vector<VertexId>{1, 2, 2, 0, 1});
  CHECK(t.edge_src == std::vector<VertexId>{0, 0, 1, 2, 2});
  CHECK(t.input_edge == std::vector<EdgeIndex>{0, 2, 3, 1, 4});
  CHECK(t.in_offsets == std::vector<EdgeIndex>{0, 1, 3, 5});
  // in-edges of 0: (2->0)=csr 3; of 1: csr 0 (0->1), csr 4 (2->1); of 2: csr 1 (0->2), csr 2 (1->2)
  CHECK(t.in_edge == std::vector<EdgeIndex>{3, 0, 4, 1, 2});
  CHECK(t.rid == std::vector<EdgeIndex>{1, 3, 4, 0, 2});
  CHECK(t.in_src == std::vector<VertexId>{2, 0, 2, 0, 1});
  CHECK(t.out_degree(0) == 2);
  CHECK(t.in_degree(1) == 2);
  check_topology(t, 3, src, dst);
}

TEST_CASE("Topology: rIDs of edges with the same tail are consecutive", "[runtime]") {
  const auto g = medusa_test::random_graph(50, 400, 7);
  const Topology t = Topology::build(g.vertex_count, g.src, g.dst);
  check_topology(t, g.vertex_count, g.src, g.dst);
  for (VertexId v = 0; v < g.vertex_count; ++v) {
    std::vector<EdgeIndex> rids;
    for (EdgeIndex e = 0; e < t.edge_count; ++e) {
      if (t.out_dst[e] == v) rids.push_back(t.rid[e]);
    }
    std::sort(rids.begin(), rids.end());
    for (std::size_t k = 0; k < rids.size(); ++k) REQUIRE(rids[k] == t.in_offsets[v] + k);
  }
}

TEST_CASE("Topology: empty graphs", "[runtime]") {
  const Topology none = Topology::build(0, {}, {});
  CHECK(none.vertex_count == 0);
  CHECK(none.edge_count == 0);
  CHECK(none.out_offsets == std::vector<EdgeIndex>{0});
  CHECK(none.in_offsets == std::vector<EdgeIndex>{0});
  const Topology isolated = Topology::build(4, {}, {});
  CHECK(isolated.out_offsets == std::vector<EdgeIndex>(5, 0));
  CHECK(isolated.in_offsets == std::vector<EdgeIndex>(5, 0));
  CHECK(isolated.rid.empty());
}

TEST_CASE("Topology: self loops and duplicate edges are kept", "[runtime]") {
  const std::vector<VertexId> src{1, 1, 1, 0, 1};
  const std::vector<VertexId> dst{1, 0, 0, 0, 1};
  const Topology t = Topology::build(2, src, dst);
  check_topology(t, 2, src, dst);
  CHECK(t.out_degree(1) == 4);
  CHECK(t.in_degree(0) == 3);
  CHECK(t.in_degree(1) == 2);
}

TEST_CASE("Topology: vertex ids out of range name the edge and the id", "[runtime]") {
  try {
    (void)Topology::build(3, {0, 1, 2}, {1, 7, 0});
    FAIL("no error for an out-of-range destination");
  } catch (const medusa::Error& e) {
    const std::string msg = e.message();
    CHECK(msg.find("edge 1") != std::string::npos);
    CHECK(msg.find("destination vertex id 7") != std::string::npos);
    CHECK(msg.find("3 vertices") != std::string::npos);
  }
  try {
    (void)Topology::build(2, {0, 5}, {1, 1});
    FAIL("no error for an out-of-range source");
  } catch (const medusa::Error& e) {
    CHECK(std::string(e.message()).find("source vertex id 5") != std::string::npos);
  }
  CHECK_THROWS_AS(Topology::build(0, {0}, {0}), medusa::Error);
  CHECK_THROWS_AS(Topology::build(2, {0, 1}, {1}), medusa::Error);
}

TEST_CASE("Topology: a larger random graph (parallel id check path)", "[runtime]") {
  const auto g = medusa_test::random_graph(20000, 200000, 3);
  const Topology t = Topology::build(g.vertex_count, g.src, g.dst);
  check_topology(t, g.vertex_count, g.src, g.dst);
  auto bad = g;
  bad.dst[123456] = 20000;
  bad.dst[150000] = 30000;
  try {
    (void)Topology::build(bad.vertex_count, bad.src, bad.dst);
    FAIL("no error");
  } catch (const medusa::Error& e) {
    CHECK(e.message().find("edge 123456") != std::string::npos);
  }
}

TEST_CASE("Topology: hubs whose rows fill whole sort buckets and span input chunks", "[runtime]") {
  // Vertex 3 receives a third of the edges and vertex 70000 sends a quarter: the counting sorts
  // move them as large buckets of one key; the rest is spread over 100000 vertices.
  auto g = medusa_test::random_graph(100000, 300000, 11);
  for (std::size_t i = 0; i < g.dst.size(); i += 3) g.dst[i] = 3;
  for (std::size_t i = 1; i < g.src.size(); i += 4) g.src[i] = 70000;
  const Topology t = Topology::build(g.vertex_count, g.src, g.dst);
  check_topology(t, g.vertex_count, g.src, g.dst);
  CHECK(t.in_degree(3) >= 100000);
  CHECK(t.out_degree(70000) >= 75000);
}
