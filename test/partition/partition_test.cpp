// Vertex partitioning: method choice, METIS quality, contiguous balance, partition files, the
// plan a distributed rank holds (its own partitions laid out), and the per-rank partition files.
#include <medusa/error.h>
#include <medusa/io/generators.h>
#include <medusa/partition/assignment.h>
#include <medusa/partition/plan.h>
#include <medusa/partition/rank_files.h>
#include <medusa/topology.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

using namespace medusa;

namespace {

Topology grid(VertexId rows, VertexId cols) {
  io::EdgeListData d = io::generate_grid(rows, cols);
  return Topology::build(d.vertex_count, d.src, d.dst);
}

Topology path_graph(VertexId n) {
  std::vector<VertexId> src, dst;
  for (VertexId v = 0; v + 1 < n; ++v) {
    src.push_back(v);
    dst.push_back(v + 1);
  }
  return Topology::build(n, src, dst);
}

void check_valid(const PartitionAssignment& a, const Topology& t, std::uint32_t k) {
  REQUIRE(a.parts == k);
  REQUIRE(a.part_of.size() == t.vertex_count);
  for (std::uint32_t p : a.part_of) REQUIRE(p < k);
}

// A scratch folder per test run, removed at the end.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    path = std::filesystem::temp_directory_path() /
           ("medusa-partition-test-" + std::to_string(static_cast<unsigned long long>(
                                           std::hash<std::string>{}(Catch::getResultCapture().getCurrentTestName()))));
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  std::string file(const std::string& name, const std::string& content) const {
    const std::string p = (path / name).string();
    std::ofstream(p, std::ios::binary) << content;
    return p;
  }
};

std::string error_of(const std::string& path, VertexId n, std::uint32_t k) {
  try {
    load_partition(path, n, k);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("k = 1 puts every vertex in part 0 without METIS", "[partition]") {
  Topology t = grid(20, 20);
  for (PartitionMethod m : {PartitionMethod::Auto, PartitionMethod::Metis, PartitionMethod::Contiguous}) {
    if (m == PartitionMethod::Metis && !metis_available()) continue;
    PartitionAssignment a = partition_vertices(t, 1, m);
    check_valid(a, t, 1);
    CHECK(a.method == "single");
    for (std::uint32_t p : a.part_of) CHECK(p == 0);
  }
  CHECK_THROWS_AS(partition_vertices(t, 0, PartitionMethod::Auto), Error);
}

TEST_CASE("tiny graphs and graphs without edges fall back to contiguous", "[partition]") {
  Topology small = path_graph(100);  // 100 < 64 * 2 vertices
  PartitionAssignment a = partition_vertices(small, 2, PartitionMethod::Auto);
  check_valid(a, small, 2);
  CHECK(a.method == "contiguous");
  if (metis_available()) CHECK(partition_vertices(small, 2, PartitionMethod::Metis).method == "contiguous");

  Topology empty = Topology::build(1000, {}, {});
  PartitionAssignment b = partition_vertices(empty, 4, PartitionMethod::Auto);
  check_valid(b, empty, 4);
  CHECK(b.method == "contiguous");
  PartitionQuality q = measure_partition(empty, b);
  CHECK(q.cut_edges == 0);
  CHECK(q.vertex_imbalance <= 1.01);

  // More parts than vertices: every vertex still lands in a valid part.
  Topology three = path_graph(3);
  check_valid(partition_vertices(three, 8, PartitionMethod::Auto), three, 8);
}

TEST_CASE("Metis without METIS built in says how to fix it", "[partition]") {
  if (metis_available()) {
    CHECK(partition_vertices(grid(4, 4), 2, PartitionMethod::Auto).method == "contiguous");
    return;
  }
  try {
    partition_vertices(grid(40, 40), 2, PartitionMethod::Metis);
    FAIL("expected medusa::Error");
  } catch (const Error& e) {
    CHECK_THAT(e.what(), Catch::Contains("libmetis-dev") && Catch::Contains("Contiguous"));
  }
}

TEST_CASE("METIS k-way on a 2-D grid: balanced, few cut edges, deterministic", "[partition]") {
  if (!metis_available()) {
    WARN("built without METIS: skipped");
    return;
  }
  Topology t = grid(64, 64);
  for (std::uint32_t k : {2u, 4u, 7u}) {
    CAPTURE(k);
    PartitionAssignment a = partition_vertices(t, k, PartitionMethod::Metis, 7);
    check_valid(a, t, k);
    CHECK(a.method == "metis k-way");
    PartitionQuality q = measure_partition(t, a);
    CHECK(q.vertex_imbalance <= 1.1);
    CHECK(q.edge_imbalance <= 1.1);
    for (std::uint64_t n : q.vertices) CHECK(n > 0);

    PartitionAssignment hash;
    hash.parts = k;
    hash.part_of.resize(t.vertex_count);
    for (VertexId v = 0; v < t.vertex_count; ++v) hash.part_of[v] = (v * 2654435761u >> 7) % k;
    const std::uint64_t hash_cut = measure_partition(t, hash).cut_edges;
    CHECK(q.cut_edges * 8 < hash_cut);

    PartitionAssignment again = partition_vertices(t, k, PartitionMethod::Metis, 7);
    CHECK(again.part_of == a.part_of);
  }
  CHECK(partition_vertices(t, 4, PartitionMethod::Auto).method == "metis k-way");
}

TEST_CASE("METIS handles self loops, duplicates and one-way edges", "[partition]") {
  if (!metis_available()) return;
  std::vector<VertexId> src, dst;
  const VertexId n = 1000;
  for (VertexId v = 0; v < n; ++v) {
    src.push_back(v), dst.push_back((v + 1) % n);  // one direction only
    src.push_back(v), dst.push_back((v + 1) % n);  // duplicate
    src.push_back(v), dst.push_back(v);            // self loop
  }
  Topology t = Topology::build(n + 50, src, dst);  // 50 isolated vertices
  PartitionAssignment a = partition_vertices(t, 4, PartitionMethod::Metis, 3);
  check_valid(a, t, 4);
  PartitionQuality q = measure_partition(t, a);
  CHECK(q.cut_edges <= 40);
  CHECK(q.vertex_imbalance <= 1.1);
}

TEST_CASE("contiguous ranges are consecutive and balanced", "[partition]") {
  Topology t = grid(50, 80);
  for (std::uint32_t k : {2u, 3u, 8u}) {
    CAPTURE(k);
    PartitionAssignment a = partition_vertices(t, k, PartitionMethod::Contiguous);
    check_valid(a, t, k);
    CHECK(a.method == "contiguous");
    for (VertexId v = 1; v < t.vertex_count; ++v) REQUIRE(a.part_of[v] >= a.part_of[v - 1]);
    CHECK(a.part_of.front() == 0);
    CHECK(a.part_of.back() == k - 1);
    PartitionQuality q = measure_partition(t, a);
    CHECK(q.vertex_imbalance <= 1.05);
    CHECK(q.edge_imbalance <= 1.05);
  }
  // Skewed degrees: one hub with many edges gets a part of few vertices.
  std::vector<VertexId> src, dst;
  for (VertexId v = 1; v < 4000; ++v) src.push_back(0), dst.push_back(v);
  Topology star = Topology::build(4000, src, dst);
  PartitionAssignment s = partition_vertices(star, 2, PartitionMethod::Contiguous);
  CHECK(s.part_of[0] == 0);
  CHECK(measure_partition(star, s).vertices[0] < 2100);
}

TEST_CASE("measure_partition counts cut edges and in-edges per part", "[partition]") {
  Topology t = path_graph(4);  // 0->1->2->3
  PartitionAssignment a;
  a.parts = 2;
  a.part_of = {0, 0, 1, 1};
  PartitionQuality q = measure_partition(t, a);
  CHECK(q.cut_edges == 1);
  CHECK(q.vertices == std::vector<std::uint64_t>{2, 2});
  CHECK(q.edges == std::vector<std::uint64_t>{1, 2});
  CHECK(q.edge_imbalance == Approx(2.0 * 2 / 3));
  a.part_of[3] = 2;
  CHECK_THROWS_AS(measure_partition(t, a), Error);
}

TEST_CASE("partition files round-trip", "[partition]") {
  TempDir dir;
  Topology t = grid(30, 30);
  PartitionAssignment a = partition_vertices(t, 12, PartitionMethod::Auto, 5);
  const std::string path = (dir.path / "g.part.12").string();
  save_partition(path, a);
  PartitionAssignment b = load_partition(path, t.vertex_count, 12);
  CHECK(b.part_of == a.part_of);
  CHECK(b.parts == 12);
  CHECK(b.method == "file " + path);
  // Overwriting keeps the file whole and leaves no temporary behind.
  save_partition(path, a);
  CHECK(std::distance(std::filesystem::directory_iterator(dir.path), std::filesystem::directory_iterator{}) == 1);
  // Blanks and CRLF are tolerated.
  const std::string crlf = dir.file("crlf.part", "0\r\n 1 \r\n2\r\n");
  CHECK(load_partition(crlf, 3, 3).part_of == std::vector<std::uint32_t>{0, 1, 2});
  // Nothing to write into: a clear error.
  CHECK_THROWS_AS(save_partition((dir.path / "no-such-dir" / "x.part").string(), a), Error);
}

TEST_CASE("partition file errors name the file and line", "[partition]") {
  TempDir dir;
  const std::string bad = dir.file("bad.part", "0\n1\nx1\n0\n");
  std::string e = error_of(bad, 4, 2);
  CHECK_THAT(e, Catch::Contains(bad + ":3:") && Catch::Contains("expected a partition number"));

  const std::string negative = dir.file("neg.part", "0\n-1\n");
  CHECK_THAT(error_of(negative, 2, 2), Catch::Contains(negative + ":2:"));

  const std::string range = dir.file("range.part", "0\n1\n2\n");
  e = error_of(range, 3, 2);
  CHECK_THAT(e, Catch::Contains(range + ":3:") && Catch::Contains("out of range"));
  const std::string huge = dir.file("huge.part", "0\n99999999999999999999999999\n");
  CHECK_THAT(error_of(huge, 2, 2), Catch::Contains(huge + ":2:") && Catch::Contains("out of range"));

  const std::string few = dir.file("few.part", "0\n1\n");
  CHECK_THAT(error_of(few, 3, 2), Catch::Contains(few + ":2:") && Catch::Contains("3 vertices"));
  const std::string empty = dir.file("empty.part", "");
  CHECK_THAT(error_of(empty, 3, 2), Catch::Contains("has 0 lines"));

  const std::string many = dir.file("many.part", "0\n1\n0\n1\n");
  CHECK_THAT(error_of(many, 3, 2), Catch::Contains(many + ":4:") && Catch::Contains("more lines"));

  const std::string blank = dir.file("blank.part", "0\n\n1\n");
  CHECK_THAT(error_of(blank, 3, 2), Catch::Contains(blank + ":2:"));

  const std::string missing = (dir.path / "missing.part").string();
  CHECK_THAT(error_of(missing, 3, 2), Catch::Contains(missing + ":0:") && Catch::Contains("cannot open"));
  CHECK_THAT(error_of(dir.path.string(), 3, 2), Catch::Contains(dir.path.string()));

  // Damaged compressed data is an error, not a crash.
  const std::string xz = dir.file("bad.part.xz", std::string("\xFD" "7zXZ\0garbage", 13));
  CHECK(error_of(xz, 3, 2) != "no error");
  const std::string gz = dir.file("bad.part.gz", std::string("\x1f\x8b\x08garbage", 10));
  CHECK(error_of(gz, 3, 2) != "no error");
}

// A rank of a distributed run builds the local graphs of its own partitions only (plan.h, `held`).
TEST_CASE("a plan lays out the held partitions, and only sizes and routes of the others", "[partition]") {
  const Topology t = grid(12, 12);
  const PartitionAssignment a = partition_vertices(t, 3, PartitionMethod::Contiguous);
  for (std::uint32_t hops : {1u, 2u}) {
    CAPTURE(hops);
    const PartitionPlan all = build_partition_plan(t, a, hops);
    const PartitionPlan mine = build_partition_plan(t, a, hops, VertexOrder::Input, {false, true, false});
    CHECK(mine.describe() == all.describe());
    CHECK(mine.replica_count() == all.replica_count());
    CHECK(mine.resident_bytes() < all.resident_bytes() / 2);
    for (std::uint32_t p = 0; p < 3; ++p) {
      CAPTURE(p);
      const PartitionLayout& full = all.partitions[p];
      const PartitionLayout& part = mine.partitions[p];
      CHECK(part.held == (p == 1));
      CHECK(part.hop_begin == full.hop_begin);
      CHECK(part.topology.vertex_count == full.topology.vertex_count);
      CHECK(part.topology.edge_count == full.topology.edge_count);
      REQUIRE(part.replicas.size() == full.replicas.size());
      for (std::size_t i = 0; i < part.replicas.size(); ++i) {
        const ReplicaRoute &r = part.replicas[i], &f = full.replicas[i];
        CHECK((r.owner == f.owner && r.begin == f.begin && r.end == f.end));
        // Kept where this rank sends or receives along the route.
        if (part.held || r.owner == 1) CHECK(r.owner_local == f.owner_local);
        else CHECK(r.owner_local.empty());
      }
      if (part.held) {
        CHECK(part.global_id == full.global_id);
        CHECK(part.input_edge == full.input_edge);
        CHECK(part.topology.in_src == full.topology.in_src);
        CHECK(part.resident_bytes() == full.resident_bytes());
      } else {
        CHECK(part.global_id.empty());
        CHECK(part.topology.out_dst.empty());
        CHECK(part.input_edge.empty());
      }
    }
  }
  CHECK_THROWS_WITH(build_partition_plan(t, a, 1, VertexOrder::Input, {true}),
                    Catch::Contains("1 held flags for 3 partitions"));
}

// What rank 0 sends each rank of a distributed run whose graph it alone holds: a layout as bytes
// comes back whole, and the sizes and routes of another rank's partition are what that rank's own
// plan would hold (plan.h: write_layout, read_layout, sizes_and_routes).
TEST_CASE("a layout goes through bytes whole, and a rank gets the sizes and routes its plan holds", "[partition]") {
  const Topology t = grid(9, 11);
  const PartitionAssignment a = partition_vertices(t, 3, PartitionMethod::Contiguous);
  const auto same = [](const PartitionLayout& x, const PartitionLayout& y) {
    CHECK(x.index == y.index);
    CHECK(x.held == y.held);
    CHECK(x.topology.vertex_count == y.topology.vertex_count);
    CHECK(x.topology.edge_count == y.topology.edge_count);
    CHECK(x.topology.out_offsets == y.topology.out_offsets);
    CHECK(x.topology.out_dst == y.topology.out_dst);
    CHECK(x.topology.edge_src == y.topology.edge_src);
    CHECK(x.topology.rid == y.topology.rid);
    CHECK(x.topology.in_offsets == y.topology.in_offsets);
    CHECK(x.topology.in_src == y.topology.in_src);
    CHECK(x.topology.in_edge == y.topology.in_edge);
    CHECK(x.topology.input_edge == y.topology.input_edge);
    CHECK(x.global_id == y.global_id);
    CHECK(x.hop_begin == y.hop_begin);
    CHECK(x.out_degree == y.out_degree);
    CHECK(x.in_degree == y.in_degree);
    CHECK(x.input_edge == y.input_edge);
    CHECK(x.owned_row_offsets == y.owned_row_offsets);
    CHECK(x.owned_row_dst == y.owned_row_dst);
    REQUIRE(x.replicas.size() == y.replicas.size());
    for (std::size_t i = 0; i < x.replicas.size(); ++i) {
      const ReplicaRoute &r = x.replicas[i], &s = y.replicas[i];
      CHECK((r.owner == s.owner && r.begin == s.begin && r.end == s.end && r.owner_local == s.owner_local));
    }
  };
  const auto through_bytes = [](const PartitionLayout& l) {
    std::vector<std::byte> bytes;
    write_layout(bytes, l);
    std::size_t at = 0;
    PartitionLayout back = read_layout(bytes, at);
    CHECK(at == bytes.size());
    return back;
  };
  for (std::uint32_t hops : {1u, 2u}) {
    CAPTURE(hops);
    const PartitionPlan all = build_partition_plan(t, a, hops);
    const std::vector<bool> held{false, true, false};
    const PartitionPlan mine = build_partition_plan(t, a, hops, VertexOrder::Input, held);
    for (std::uint32_t p = 0; p < 3; ++p) {
      CAPTURE(p);
      same(through_bytes(all.partitions[p]), all.partitions[p]);
      if (hops == 1) {
        const PartitionLayout with_rows = build_partition_plan(t, a, 1, VertexOrder::Input, {}, {}, true).partitions[p];
        same(through_bytes(with_rows), with_rows);
      }
      if (p != 1) same(through_bytes(sizes_and_routes(all.partitions[p], held)), mine.partitions[p]);
    }
  }
  std::vector<std::byte> bytes;
  write_layout(bytes, build_partition_plan(t, a, 1).partitions[0]);
  bytes.resize(bytes.size() - 1);
  std::size_t at = 0;
  CHECK_THROWS_WITH(read_layout(bytes, at), Catch::Contains("partition layout: "));
}

// Neighbour sets on k partitions (plan.h NeighborRows): every local vertex, owned or replica, gets
// its whole out-row of the graph in global IDs, sorted, though the partition's local edges hold
// only the part that ends at its owned vertices; the rows go through bytes with the layout.
TEST_CASE("neighbour rows hold every local vertex's whole sorted out-row in global IDs", "[partition]") {
  // Directed, rows out of order: vertex v -> (7 v + 3 k) mod 50 for k = 0 .. v mod 6.
  std::vector<VertexId> src, dst;
  for (VertexId v = 0; v < 50; ++v)
    for (VertexId k = 0; k <= v % 6; ++k) src.push_back(v), dst.push_back((7 * v + 50 - 3 * k) % 50);
  const Topology t = Topology::build(50, src, dst);
  const PartitionAssignment a = partition_vertices(t, 3, PartitionMethod::Contiguous);
  for (std::uint32_t hops : {1u, 2u}) {
    CAPTURE(hops);
    PartitionPlan plan = build_partition_plan(t, a, hops, VertexOrder::Degree, {},
                                              [&](PartitionLayout& l) { add_neighbor_rows(l, t); });
    for (PartitionLayout& l : plan.partitions) {
      CAPTURE(l.index);
      REQUIRE(l.neighbor_rows.offsets.size() == l.vertex_count() + 1);
      for (VertexId i = 0; i < l.vertex_count(); ++i) {
        const VertexId g = l.global_id[i];
        std::vector<VertexId> want;
        for (std::size_t e = 0; e < src.size(); ++e)
          if (src[e] == g) want.push_back(dst[e]);
        std::sort(want.begin(), want.end());
        const auto begin = l.neighbor_rows.ids.begin() + static_cast<std::ptrdiff_t>(l.neighbor_rows.offsets[i]);
        const auto end = l.neighbor_rows.ids.begin() + static_cast<std::ptrdiff_t>(l.neighbor_rows.offsets[i + 1]);
        CHECK(std::vector<VertexId>(begin, end) == want);
      }
      CHECK(l.neighbor_row_bytes == (l.vertex_count() + 1) * sizeof(EdgeIndex) +
                                        l.neighbor_rows.ids.size() * sizeof(VertexId));
      std::vector<std::byte> bytes;
      write_layout(bytes, l);
      std::size_t at = 0;
      const PartitionLayout back = read_layout(bytes, at);
      CHECK(back.neighbor_rows.offsets == l.neighbor_rows.offsets);
      CHECK(back.neighbor_rows.ids == l.neighbor_rows.ids);
      CHECK(sizes_and_routes(l, std::vector<bool>(3, false)).neighbor_row_bytes == l.neighbor_row_bytes);
    }
    CHECK(plan.neighbor_row_bytes() > 0);
    CHECK_THAT(plan.describe(), Catch::Contains("neighbour rows"));
  }
  // Without them (programs that read no neighbour sets) the layout has none, and says nothing.
  CHECK(build_partition_plan(t, a, 1).partitions[0].neighbor_rows.offsets.empty());
  CHECK_THAT(build_partition_plan(t, a, 1).describe(), !Catch::Contains("neighbour rows"));
  // With owned rows too (a program with in-edge functors and neighbour sets): both go through bytes.
  PartitionPlan both = build_partition_plan(
      t, a, 1, VertexOrder::Input, {}, [&](PartitionLayout& l) { add_neighbor_rows(l, t); }, true);
  for (const PartitionLayout& l : both.partitions) {
    CAPTURE(l.index);
    REQUIRE(!l.owned_row_offsets.empty());
    REQUIRE(l.neighbor_rows.offsets.size() == l.vertex_count() + 1);
    std::vector<std::byte> bytes;
    write_layout(bytes, l);
    std::size_t at = 0;
    const PartitionLayout back = read_layout(bytes, at);
    CHECK(at == bytes.size());
    CHECK(back.owned_row_offsets == l.owned_row_offsets);
    CHECK(back.owned_row_dst == l.owned_row_dst);
    CHECK(back.neighbor_rows.offsets == l.neighbor_rows.offsets);
    CHECK(back.neighbor_rows.ids == l.neighbor_rows.ids);
  }
}

// Programs with in-edge functors: each partition holds the whole out-row of every vertex it owns,
// in the whole graph's order, every target local (extra replicas where needed).
TEST_CASE("owned rows: every out-edge of each owned vertex, in global order, to local vertices", "[partition]") {
  const VertexId n = 40;
  std::vector<VertexId> src, dst;  // one-way edges, repeats and self loops
  for (VertexId v = 0; v < n; ++v)
    for (VertexId k = 0; k < v % 4; ++k) src.push_back(v), dst.push_back((v * 7 + k * 13) % n);
  const Topology t = Topology::build(n, src, dst);
  const PartitionAssignment a = partition_vertices(t, 3, PartitionMethod::Contiguous);
  const PartitionPlan plain = build_partition_plan(t, a, 1);
  const PartitionPlan rows = build_partition_plan(t, a, 1, VertexOrder::Input, {}, {}, true);
  bool extra_replicas = false;
  for (std::uint32_t p = 0; p < 3; ++p) {
    CAPTURE(p);
    const PartitionLayout& l = rows.partitions[p];
    CHECK(plain.partitions[p].owned_row_offsets.empty());
    CHECK(l.topology.edge_count == plain.partitions[p].topology.edge_count);  // (the same local edges)
    extra_replicas |= l.vertex_count() > plain.partitions[p].vertex_count();
    REQUIRE(l.owned_row_offsets.size() == l.owned_count() + 1);
    for (VertexId i = 0; i < l.owned_count(); ++i) {
      const VertexId u = l.global_id[i];
      std::vector<VertexId> want(t.out_dst.begin() + t.out_offsets[u], t.out_dst.begin() + t.out_offsets[u + 1]);
      std::vector<VertexId> got;
      for (EdgeIndex e = l.owned_row_offsets[i]; e < l.owned_row_offsets[i + 1]; ++e)
        got.push_back(l.global_id[l.owned_row_dst[e]]);
      CHECK(got == want);
    }
  }
  CHECK(extra_replicas);
  CHECK_THROWS_WITH(build_partition_plan(t, a, 2, VertexOrder::Input, {}, {}, true), Catch::Contains("one hop"));
}

TEST_CASE("rank files hold each rank's partition and its local edges", "[partition]") {
  TempDir dir;
  io::EdgeListData d = io::generate_grid(6, 7);
  for (EdgeIndex e = 0; e < d.edge_count(); ++e) d.weight.push_back(static_cast<double>(e) + 0.5);
  const Topology t = Topology::build(d.vertex_count, d.src, d.dst);
  const PartitionAssignment a = partition_vertices(t, 3, PartitionMethod::Contiguous);
  const std::string prefix = (dir.path / "grid").string();
  const RankFilesWritten written = write_rank_files(prefix, d, t, a);
  REQUIRE(written.paths == std::vector<std::string>{prefix + ".0-of-3", prefix + ".1-of-3", prefix + ".2-of-3"});
  const PartitionPlan whole = build_partition_plan(t, a, 1);
  EdgeIndex local_edges = 0;
  for (std::uint32_t r = 0; r < 3; ++r) {
    const RankFile f = read_rank_file(prefix, r, 3, RankFilePart::Plan);
    CHECK(f.header.graph_id == written.graph_id);
    CHECK(f.header.weighted);
    REQUIRE(f.plan.parts == 3);
    CHECK(f.plan.hops == 1);
    CHECK(f.plan.global_vertices == t.vertex_count);
    CHECK(f.plan.global_edges == t.edge_count);
    for (std::uint32_t q = 0; q < 3; ++q) {
      const PartitionLayout& got = f.plan.partitions[q];
      CHECK(got.held == (q == r));
      CHECK(got.hop_begin == whole.partitions[q].hop_begin);
      CHECK(got.replicas.size() == whole.partitions[q].replicas.size());
    }
    const PartitionLayout& mine = f.plan.partitions[r];
    CHECK(mine.global_id == whole.partitions[r].global_id);
    CHECK(mine.input_edge == whole.partitions[r].input_edge);
    CHECK(mine.topology.out_dst == whole.partitions[r].topology.out_dst);
    const RankFile e = read_rank_file(prefix, r, 3, RankFilePart::Edges);
    CHECK(e.edges.vertex_count == t.vertex_count);
    REQUIRE(e.edges.edge_count() == mine.topology.edge_count);
    for (EdgeIndex j = 0; j < e.edges.edge_count(); ++j) {
      const EdgeIndex input = mine.input_edge[j];
      REQUIRE(e.edges.src[j] == d.src[input]);
      REQUIRE(e.edges.dst[j] == d.dst[input]);
      REQUIRE(e.edges.weight[j] == d.weight[input]);
    }
    local_edges += e.edges.edge_count();
  }
  CHECK(local_edges == t.edge_count);  // (one hop: every edge in its tail's partition alone)
  // With whole out-rows (medusa-part --in-edges): the layouts of build_partition_plan's owned_rows,
  // and another partitioning id than the files without them.
  write_rank_files(prefix + "-in", d, t, a, /*owned_rows=*/true);
  const PartitionPlan with_rows = build_partition_plan(t, a, 1, VertexOrder::Input, {}, {}, true);
  for (std::uint32_t r = 0; r < 3; ++r) {
    const RankFile f = read_rank_file(prefix + "-in", r, 3, RankFilePart::Plan);
    CHECK(f.header.partitioning_id != read_rank_file(prefix, r, 3, RankFilePart::Plan).header.partitioning_id);
    CHECK(f.plan.partitions[r].owned_row_offsets == with_rows.partitions[r].owned_row_offsets);
    CHECK(f.plan.partitions[r].owned_row_dst == with_rows.partitions[r].owned_row_dst);
  }
}

TEST_CASE("rank file errors name the file and what is wrong", "[partition]") {
  TempDir dir;
  const io::EdgeListData d = io::generate_grid(5, 5);
  const Topology t = Topology::build(d.vertex_count, d.src, d.dst);
  const std::string prefix = (dir.path / "g").string();
  write_rank_files(prefix, d, t, partition_vertices(t, 2, PartitionMethod::Contiguous));
  const auto error_of = [&](std::uint32_t rank, std::uint32_t ranks) -> std::string {
    try {
      read_rank_file(prefix, rank, ranks, RankFilePart::Plan);
    } catch (const Error& e) {
      return e.what();
    }
    return "no error";
  };
  const auto bytes_of = [](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string rank0 = bytes_of(prefix + ".0-of-2"), rank1 = bytes_of(prefix + ".1-of-2");
  SECTION("a job of another number of ranks") {
    const std::string e = error_of(1, 3);
    CHECK_THAT(e, Catch::Contains(prefix + ".1-of-3:0: rank 1 of 3 cannot open its partition file"));
    CHECK_THAT(e, Catch::Contains("there is " + prefix + ".0-of-2: the files were made for another number of ranks"));
    CHECK_THAT(e, Catch::Contains("medusa-part <graph> -k 3 --rank-files " + prefix));
  }
  SECTION("another rank's file") {
    dir.file("g.0-of-2", rank1);
    CHECK_THAT(error_of(0, 2), Catch::Contains(prefix + ".0-of-2:0: the file was made for rank 1 of 2 ranks, and "
                                                        "rank 0 of 2 reads it"));
  }
  SECTION("cut short") {
    dir.file("g.1-of-2", rank1.substr(0, rank1.size() / 2));
    CHECK_THAT(error_of(1, 2), Catch::Contains("the partition file is damaged"));
  }
  SECTION("a byte changed") {
    std::string changed = rank0;
    changed[changed.size() / 2] = static_cast<char>(changed[changed.size() / 2] ^ 1);
    dir.file("g.0-of-2", changed);
    CHECK_THAT(error_of(0, 2), Catch::Contains("damaged") && Catch::Contains("checksum different"));
  }
  SECTION("not a partition file") {
    dir.file("g.0-of-2", "0\n1\n");
    CHECK_THAT(error_of(0, 2), Catch::Contains("not a Medusa partition file"));
  }
  SECTION("another format version") {
    std::string old = rank0;
    old[8] = static_cast<char>(kRankFileVersion + 1);  // (the version follows the 8-byte magic)
    dir.file("g.0-of-2", old);
    CHECK_THAT(error_of(0, 2), Catch::Contains("format version " + std::to_string(kRankFileVersion + 1)));
  }
}
