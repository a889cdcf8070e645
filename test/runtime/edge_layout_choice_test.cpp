// choose_edge_layout and build_column_major (common/edge_layout.h) on hand-made degree sequences.
#include <medusa/backend/common/edge_layout.h>
#include <medusa/error.h>

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

using namespace medusa;
using common::choose_edge_layout;
using common::LayoutTarget;

namespace {

std::vector<EdgeIndex> offsets_of(const std::vector<EdgeIndex>& degrees) {
  std::vector<EdgeIndex> o{0};
  for (EdgeIndex d : degrees) o.push_back(o.back() + d);
  return o;
}
constexpr std::uint64_t kRoomy = ~std::uint64_t{0};

}  // namespace

TEST_CASE("Auto keeps CSR unless a GPU runs thread-per-vertex ELIST loops", "[runtime]") {
  const auto grid = offsets_of(std::vector<EdgeIndex>(90, 4));
  CHECK(choose_edge_layout(grid, Layout::Auto, true, LayoutTarget::Cpu, kRoomy).layout == Layout::CSR);
  CHECK(choose_edge_layout(grid, Layout::Auto, false, LayoutTarget::Gpu, kRoomy).layout == Layout::CSR);
  CHECK(choose_edge_layout(grid, Layout::CSR, true, LayoutTarget::Gpu, kRoomy).layout == Layout::CSR);
  const auto c = choose_edge_layout(grid, Layout::Auto, true, LayoutTarget::Gpu, kRoomy);
  CHECK(c.layout == Layout::ColumnMajor);
  CHECK(c.width == 4);
  CHECK(c.column_edges == 360);
  CHECK(c.column_slots == 360);
  CHECK(c.bytes() == 360 * common::EdgeLayoutChoice::kSlotBytes);
}

TEST_CASE("Auto on skewed degrees keeps the widest column part a third of the vertices fill", "[runtime]") {
  // 30 vertices of degree 1, 30 of degree 3, 30 of degree 6, one of degree 20.
  std::vector<EdgeIndex> degrees;
  for (EdgeIndex d : {1, 3, 6})
    for (int i = 0; i < 30; ++i) degrees.push_back(d);
  degrees.push_back(20);
  const auto c = choose_edge_layout(offsets_of(degrees), Layout::Auto, true, LayoutTarget::Gpu, kRoomy);
  CHECK(c.layout == Layout::Hybrid);
  CHECK(c.width == 6);  // 31 of 91 vertices have 6 or more out-edges
  CHECK(c.column_slots == 6 * 91);
  CHECK(c.column_edges == 30 * 1 + 30 * 3 + 30 * 6 + 6);
  CHECK_THAT(c.describe(), Catch::Contains("hybrid: out-edges 0..5") && Catch::Contains("the rest CSR"));
  // A hub of degree 1000 holds most edges: the column part would not reach them.
  degrees.back() = 1000;
  const auto hub = choose_edge_layout(offsets_of(degrees), Layout::Auto, true, LayoutTarget::Gpu, kRoomy);
  CHECK(hub.layout == Layout::CSR);
  CHECK_THAT(hub.reason, Catch::Contains("would hold only 24% of the edges"));
}

TEST_CASE("Auto keeps CSR when most vertices have fewer than four out-edges or the slots do not fit",
          "[runtime]") {
  std::vector<EdgeIndex> degrees(60, 3);  // a road network's degrees
  degrees.push_back(5);
  const auto sparse = choose_edge_layout(offsets_of(degrees), Layout::Auto, true, LayoutTarget::Gpu, kRoomy);
  CHECK(sparse.layout == Layout::CSR);
  CHECK_THAT(sparse.reason, Catch::Contains("fewer than 4 out-edges"));
  const auto grid = offsets_of(std::vector<EdgeIndex>(90, 4));
  const auto tight = choose_edge_layout(grid, Layout::Auto, true, LayoutTarget::Gpu, 359);
  CHECK(tight.layout == Layout::CSR);
  CHECK_THAT(tight.reason, Catch::Contains("would not fit"));
}

TEST_CASE("A requested column-major layout that cannot fit is a clear error", "[runtime]") {
  std::vector<EdgeIndex> degrees(1000, 2);
  degrees.push_back(100000);
  CHECK_THROWS_WITH(
      choose_edge_layout(offsets_of(degrees), Layout::ColumnMajor, true, LayoutTarget::Gpu, 1000000),
      Catch::Contains("pads every vertex to the largest out-degree (100000)") &&
          Catch::Contains("use Layout::Hybrid or Layout::Auto"));
  // The hybrid keeps the hub's tail in CSR and fits.
  const auto h = choose_edge_layout(offsets_of(degrees), Layout::Hybrid, false, LayoutTarget::Cpu, 1000000);
  CHECK(h.layout == Layout::Hybrid);
  CHECK(h.width == 2);
}

TEST_CASE("Column slots hold out-edge i of vertex v at i * V + v, padding marked", "[runtime]") {
  // 0 -> 1, 0 -> 2, 0 -> 3; 1 -> 0; 2 has none.
  const Topology t = Topology::build(4, {0, 1, 0, 0}, {1, 0, 2, 3});
  const common::ColumnMajorEdges c = common::build_column_major(t, 2);
  REQUIRE(c.dst.size() == 8);
  REQUIRE(c.rid.size() == 8);
  // column 0: first out-edges of vertices 0..3
  CHECK(c.dst[0] == 1);
  CHECK(c.rid[0] == t.rid[t.out_offsets[0]]);
  CHECK(c.dst[1] == 0);
  CHECK(c.rid[1] == t.rid[t.out_offsets[1]]);
  CHECK(c.dst[2] == kInvalidVertex);
  CHECK(c.rid[2] == common::kNoColumnRid);
  // column 1: second out-edges; only vertex 0 has one (its third stays in CSR)
  CHECK(c.dst[4] == 2);
  CHECK(c.rid[4] == t.rid[t.out_offsets[0] + 1]);
  CHECK(c.dst[5] == kInvalidVertex);
}
