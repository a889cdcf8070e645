// Neighbour sets (neighbor_sets.h): intersections by merge and by binary search agree with
// std::set_intersection and hand out user IDs; the sorted-row topologies (input order and degree
// order) keep every edge, its user index and its reverse index.
#include <medusa/neighbor_sets.h>
#include <medusa/topology.h>
#include <medusa/vertex_order.h>

#include "support/random_graph.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <iterator>
#include <vector>

using medusa::EdgeIndex;
using medusa::NeighborSet;
using medusa::Topology;
using medusa::VertexId;

namespace {

std::vector<VertexId> sorted_sample(std::uint32_t n, std::uint32_t range, std::uint64_t seed) {
  std::vector<VertexId> ids;
  for (std::uint32_t i = 0; i < n; ++i) ids.push_back(static_cast<VertexId>(medusa_test::mix64(seed + i) % range));
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

// Rows of `t` sorted, and each CSR position still the user's edge src -> dst with a consistent rid.
void check_sorted_rows(const Topology& t, const std::vector<EdgeIndex>& input_edge,
                       const std::vector<VertexId>& global_id, const medusa_test::EdgeList& el) {
  REQUIRE(t.edge_count == el.src.size());
  std::vector<int> seen(el.src.size(), 0);
  for (VertexId v = 0; v < t.vertex_count; ++v) {
    INFO("local vertex " << v);
    const auto begin = t.out_dst.begin() + static_cast<std::ptrdiff_t>(t.out_offsets[v]);
    const auto end = t.out_dst.begin() + static_cast<std::ptrdiff_t>(t.out_offsets[v + 1]);
    REQUIRE(std::is_sorted(begin, end));
    for (EdgeIndex e = t.out_offsets[v]; e < t.out_offsets[v + 1]; ++e) {
      const EdgeIndex user = input_edge[e];
      ++seen[user];
      REQUIRE(global_id[t.edge_src[e]] == el.src[user]);
      REQUIRE(global_id[t.out_dst[e]] == el.dst[user]);
      REQUIRE(t.in_edge[t.rid[e]] == e);
      REQUIRE(t.in_src[t.rid[e]] == t.edge_src[e]);
    }
  }
  REQUIRE(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
}

}  // namespace

TEST_CASE("intersect_count and for_each_common agree with std::set_intersection, by merge and by search",
          "[runtime][neighbor-sets]") {
  const std::vector<VertexId> global_id = [] {
    std::vector<VertexId> g(1000);
    for (VertexId i = 0; i < 1000; ++i) g[i] = 999 - i;
    return g;
  }();
  // Similar sizes (merge) and a 10 : 1000 pair (binary search), both ways round.
  const std::pair<std::uint32_t, std::uint32_t> sizes[] = {{200, 300}, {10, 900}, {900, 10}, {0, 50}, {1, 1}};
  for (const auto& [na, nb] : sizes) {
    const std::vector<VertexId> a = sorted_sample(na, 1000, 11 * na + 1), b = sorted_sample(nb, 1000, 13 * nb + 2);
    std::vector<VertexId> want;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(want));
    const NeighborSet sa(a.data(), static_cast<std::uint32_t>(a.size()), global_id.data());
    const NeighborSet sb(b.data(), static_cast<std::uint32_t>(b.size()), global_id.data());
    INFO(a.size() << " and " << b.size() << " IDs, " << want.size() << " in common");
    REQUIRE(medusa::intersect_count(sa, sb) == want.size());
    std::vector<VertexId> got;
    medusa::for_each_common(sa, sb, [&](VertexId id) { got.push_back(id); });
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i) REQUIRE(got[i] == global_id[want[i]]);  // user IDs
    if (!a.empty()) CHECK(sa[0] == global_id[a[0]]);
  }
}

TEST_CASE("Sorted rows keep every edge, its user index and its reverse index", "[runtime][neighbor-sets]") {
  medusa_test::EdgeList el = medusa_test::random_graph(300, 4000, 9);
  for (VertexId v = 0; v < 300; v += 2) el.src.push_back(17), el.dst.push_back(299 - v);  // a hub, rows out of order
  const Topology t = Topology::build(300, el.src, el.dst);
  std::vector<VertexId> identity(300);
  for (VertexId v = 0; v < 300; ++v) identity[v] = v;

  SECTION("input vertex order") {
    const Topology sorted = t.with_sorted_rows();
    check_sorted_rows(sorted, sorted.input_edge, identity, el);
  }
  SECTION("degree vertex order: rows sorted by local ID") {
    const medusa::PartitionLayout l = medusa::degree_ordered_layout(t, true);
    check_sorted_rows(l.topology, l.input_edge, l.global_id, el);
  }
  SECTION("the unsorted topology fails the same check (the check can fail)") {
    bool all_sorted = true;
    for (VertexId v = 0; v < 300; ++v)
      all_sorted &= std::is_sorted(t.out_dst.begin() + static_cast<std::ptrdiff_t>(t.out_offsets[v]),
                                   t.out_dst.begin() + static_cast<std::ptrdiff_t>(t.out_offsets[v + 1]));
    CHECK_FALSE(all_sorted);
  }
}
