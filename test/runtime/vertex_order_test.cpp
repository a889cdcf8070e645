// Degree vertex order: the renumbered layout keeps every edge and each vertex's edge order, Auto
// picks it only for large skewed graphs (on partitions only for programs that read every vertex),
// and partitions order their owned vertices and replicas by it (host only: no functors).
#include <medusa/partition/assignment.h>
#include <medusa/partition/plan.h>
#include <medusa/topology.h>
#include <medusa/vertex_order.h>

#include "support/random_graph.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using medusa::EdgeIndex;
using medusa::Topology;
using medusa::VertexId;
using medusa::VertexOrder;

namespace {

// Both directions of a star with `leaves` leaves around vertex `center`.
Topology star(VertexId leaves, VertexId center) {
  std::vector<VertexId> src, dst;
  for (VertexId v = 0; v <= leaves; ++v) {
    if (v == center) continue;
    src.push_back(center), dst.push_back(v);
    src.push_back(v), dst.push_back(center);
  }
  return Topology::build(leaves + 1, src, dst);
}

Topology ring(VertexId n) {
  std::vector<VertexId> src, dst;
  for (VertexId v = 0; v < n; ++v) {
    src.push_back(v), dst.push_back((v + 1) % n);
    src.push_back((v + 1) % n), dst.push_back(v);
  }
  return Topology::build(n, src, dst);
}

}  // namespace

TEST_CASE("The degree-ordered layout renumbers vertices and keeps each vertex's edges in order",
          "[runtime][vertex-order]") {
  auto el = medusa_test::random_graph(200, 1500, 5);
  for (VertexId v = 0; v < 200; v += 3) el.src.push_back(150), el.dst.push_back(v);  // a hub
  el.src.push_back(7), el.dst.push_back(7);                                          // a self loop
  const Topology t = Topology::build(200, el.src, el.dst);
  const medusa::PartitionLayout l = medusa::degree_ordered_layout(t);
  const Topology& lt = l.topology;

  REQUIRE(l.global_id.size() == 200);
  CHECK(l.global_id[0] == 150);
  REQUIRE(l.owned_count() == 200);
  REQUIRE(l.vertices_within(1) == 200);
  CHECK(l.replicas.empty());
  std::vector<VertexId> local(200);
  for (VertexId i = 0; i < 200; ++i) local[l.global_id[i]] = i;
  for (VertexId i = 1; i < 200; ++i) {
    const VertexId a = l.global_id[i - 1], b = l.global_id[i];
    const EdgeIndex da = t.out_degree(a) + t.in_degree(a), db = t.out_degree(b) + t.in_degree(b);
    INFO("local " << i);
    REQUIRE((da > db || (da == db && a < b)));
  }
  REQUIRE(lt.edge_count == t.edge_count);
  for (VertexId i = 0; i < 200; ++i) {
    const VertexId u = l.global_id[i];
    INFO("vertex " << u << " (local " << i << ")");
    REQUIRE(l.out_degree[i] == t.out_degree(u));
    REQUIRE(l.in_degree[i] == t.in_degree(u));
    REQUIRE(lt.out_degree(i) == t.out_degree(u));
    REQUIRE(lt.in_degree(i) == t.in_degree(u));
    for (EdgeIndex k = 0; k < t.out_degree(u); ++k) {  // same edges, same order
      const EdgeIndex e = t.out_offsets[u] + k, le = lt.out_offsets[i] + k;
      REQUIRE(lt.edge_src[le] == i);
      REQUIRE(lt.out_dst[le] == local[t.out_dst[e]]);
      REQUIRE(l.input_edge[le] == t.input_edge[e]);
      REQUIRE(lt.in_edge[lt.rid[le]] == le);
    }
    for (EdgeIndex k = 0; k < t.in_degree(u); ++k) {  // in-edges in the input order's order
      const EdgeIndex r = t.in_offsets[u] + k, lr = lt.in_offsets[i] + k;
      REQUIRE(lt.in_src[lr] == local[t.in_src[r]]);
      REQUIRE(l.input_edge[lt.in_edge[lr]] == t.input_edge[t.in_edge[r]]);
      REQUIRE(lt.rid[lt.in_edge[lr]] == lr);
    }
  }
}

TEST_CASE("Auto vertex order: degree for large graphs with hubs only", "[runtime][vertex-order]") {
  const Topology hub = star(70000, 12345);
  CHECK(medusa::hub_share(hub) > 0.5);
  CHECK(medusa::hub_share(hub) < 0.52);
  const medusa::VertexOrderChoice star_choice = medusa::choose_vertex_order(hub, VertexOrder::Auto, 0);
  CHECK(star_choice.by_degree());
  CHECK(star_choice.describe() ==
        "vertex order: by descending degree (auto: the top 1% of vertices hold 50.5% of edge endpoints)");

  const medusa::VertexOrderChoice ring_choice = medusa::choose_vertex_order(ring(70000), VertexOrder::Auto, 0);
  CHECK_FALSE(ring_choice.by_degree());
  CHECK(ring_choice.describe() ==
        "vertex order: input IDs (auto: the top 1% of vertices hold 1.0% of edge endpoints (degree order from 20%))");

  const medusa::VertexOrderChoice small = medusa::choose_vertex_order(star(1000, 0), VertexOrder::Auto, 0);
  CHECK_FALSE(small.by_degree());
  CHECK(small.reason == "auto: fewer than 65536 vertices");

  const std::uint64_t copy = medusa::degree_ordered_layout_bytes(hub);
  CHECK_FALSE(medusa::choose_vertex_order(hub, VertexOrder::Auto, 2 * copy - 1).by_degree());
  CHECK(medusa::choose_vertex_order(hub, VertexOrder::Auto, 2 * copy).by_degree());
  CHECK_THAT(medusa::choose_vertex_order(hub, VertexOrder::Auto, copy).reason,
             Catch::Contains("more than half the host's available memory"));

  CHECK(medusa::choose_vertex_order(ring(10), VertexOrder::Degree, 0).by_degree());
  CHECK_FALSE(medusa::choose_vertex_order(hub, VertexOrder::Input, 0).by_degree());
}

TEST_CASE("Auto vertex order on partitions: degree for programs that read every vertex, input for a queue frontier",
          "[runtime][vertex-order][partition]") {
  const Topology hub = star(70000, 12345);
  medusa::ProgramReach pagerank;  // no frontier
  pagerank.edges = hub.edge_count;
  const medusa::VertexOrderChoice all = medusa::choose_partition_vertex_order(hub, VertexOrder::Auto, pagerank);
  CHECK(all.by_degree());
  CHECK(all.describe() ==
        "vertex order: by descending degree (auto: no frontier; the top 1% of vertices hold 50.5% of edge endpoints)");
  CHECK_FALSE(medusa::choose_partition_vertex_order(ring(70000), VertexOrder::Auto, pagerank).by_degree());
  CHECK(medusa::choose_partition_vertex_order(star(1000, 0), VertexOrder::Auto, pagerank).reason ==
        "auto: no frontier; fewer than 65536 vertices");

  medusa::ProgramReach bfs = pagerank;  // one seed: 2 of the star's 140,000 edges
  bfs.frontier = true;
  bfs.seed_edges = hub.out_degree(0);
  const medusa::VertexOrderChoice queue = medusa::choose_partition_vertex_order(hub, VertexOrder::Auto, bfs);
  CHECK_FALSE(queue.by_degree());
  CHECK(queue.reason == "auto: a frontier from seeds with 1 of 140000 out-edges (under E/8) runs as a queue, which "
                        "degree order slows");
  CHECK(medusa::choose_partition_vertex_order(hub, VertexOrder::Degree, bfs).by_degree());
  medusa::ProgramReach unseeded = bfs;  // (kcore: its functors activate the first frontier)
  unseeded.seed_edges = 0;
  CHECK_THAT(medusa::choose_partition_vertex_order(hub, VertexOrder::Auto, unseeded).reason,
             Catch::StartsWith("auto: a frontier without seeds from the host"));

  medusa::ProgramReach label_propagation = bfs;  // seeds that reach an eighth of the edges start dense
  label_propagation.seed_edges = hub.edge_count / 8;
  const medusa::VertexOrderChoice dense = medusa::choose_partition_vertex_order(hub, VertexOrder::Auto, label_propagation);
  CHECK(dense.by_degree());
  CHECK_THAT(dense.reason, Catch::StartsWith("auto: a frontier that starts dense; the top 1%"));
  label_propagation.seed_edges -= 1;
  CHECK_FALSE(medusa::choose_partition_vertex_order(hub, VertexOrder::Auto, label_propagation).by_degree());

  medusa::ProgramReach by_id = pagerank;
  by_id.by_id = true;
  CHECK(medusa::choose_partition_vertex_order(hub, VertexOrder::Auto, by_id).reason ==
        "auto: the program reads or sends by vertex id");
  CHECK_FALSE(medusa::choose_partition_vertex_order(hub, VertexOrder::Input, pagerank).by_degree());
}

TEST_CASE("Partitions in degree order: owned vertices by degree, replicas and their routes follow them",
          "[runtime][vertex-order]") {
  auto el = medusa_test::random_graph(300, 2000, 9);
  for (VertexId v = 0; v < 300; v += 2) el.src.push_back(250), el.dst.push_back(v);
  const Topology t = Topology::build(300, el.src, el.dst);
  const medusa::PartitionAssignment a = medusa::partition_vertices(t, 3, medusa::PartitionMethod::Contiguous);
  for (const VertexOrder order : {VertexOrder::Input, VertexOrder::Degree}) {
    const medusa::PartitionPlan plan = medusa::build_partition_plan(t, a, 2, order);
    INFO("order " << (order == VertexOrder::Degree ? "degree" : "input"));
    CHECK((plan.describe().find("owned vertices by descending degree") != std::string::npos) ==
          (order == VertexOrder::Degree));
    std::size_t owned_total = 0;
    for (const medusa::PartitionLayout& l : plan.partitions) {
      owned_total += l.owned_count();
      for (VertexId i = 1; i < l.owned_count(); ++i) {
        const VertexId x = l.global_id[i - 1], y = l.global_id[i];
        const EdgeIndex dx = t.out_degree(x) + t.in_degree(x), dy = t.out_degree(y) + t.in_degree(y);
        INFO("partition " << l.index << ", local " << i);
        REQUIRE((order == VertexOrder::Degree ? (dx > dy || (dx == dy && x < y)) : x < y));
      }
      for (const medusa::ReplicaRoute& r : l.replicas) {
        const medusa::PartitionLayout& owner = plan.partitions[r.owner];
        for (VertexId j = 0; j < r.end - r.begin; ++j) {
          REQUIRE(r.owner_local[j] < owner.owned_count());
          REQUIRE(owner.global_id[r.owner_local[j]] == l.global_id[r.begin + j]);
          // Replicas in their owner's order: the hubs' replicas together, the copies read in order.
          if (j > 0) REQUIRE(r.owner_local[j - 1] < r.owner_local[j]);
        }
      }
    }
    CHECK(owned_total == 300);
  }
  CHECK_THROWS_WITH(medusa::build_partition_plan(t, a, 1, VertexOrder::Auto), Catch::Contains("Input or Degree"));
}
