// Every text format on small inline inputs, with the exact edges expected.
#include "io_test_support.h"

#include <catch2/catch.hpp>

using namespace medusa;
using namespace medusa::io;
using namespace medusa::io::test;

TEST_CASE("Matrix Market pattern general: entry (i, j) is edge i-1 -> j-1", "[io][mtx]") {
  const auto data = parse_text(
      "%%MatrixMarket matrix coordinate pattern general\n"
      "% a comment\n"
      "\n"
      "3 3 3\n"
      "1 2\n"
      "2 3\n"
      "% comments may sit between entries\n"
      "3 1\n",
      Format::MatrixMarket);
  CHECK(data.vertex_count == 3);
  CHECK_FALSE(data.symmetric);
  CHECK_FALSE(data.weighted());
  CHECK(data.format == "matrix-market");
  CHECK(edges_of(data) == std::vector<Edge>{{0, 1}, {1, 2}, {2, 0}});
}

TEST_CASE("Matrix Market real symmetric stores off-diagonal entries both ways", "[io][mtx]") {
  const auto data = parse_text(
      "%%MatrixMarket matrix coordinate real symmetric\n"
      "4 4 3\n"
      "2 1 0.5\n"
      "3 3 2\n"
      "4 2 -1.25e1\n",
      Format::MatrixMarket);
  CHECK(data.vertex_count == 4);
  CHECK(data.symmetric);
  CHECK(weighted_edges_of(data) ==
        std::vector<WeightedEdge>{{1, 0, 0.5}, {0, 1, 0.5}, {2, 2, 2.0}, {3, 1, -12.5}, {1, 3, -12.5}});
}

TEST_CASE("Matrix Market integer, mixed-case banner, CRLF and rectangular sizes", "[io][mtx]") {
  const auto data = parse_text(
      "%%MatrixMarket MATRIX Coordinate Integer General\r\n"
      "2 5 2\r\n"
      "1 5 7\r\n"
      "2 1 -3\r\n",
      Format::MatrixMarket);
  CHECK(data.vertex_count == 5);  // the larger dimension
  CHECK(weighted_edges_of(data) == std::vector<WeightedEdge>{{0, 4, 7.0}, {1, 0, -3.0}});
}

TEST_CASE("SNAP edge list: comments, tabs, blank lines, 0-based, directed", "[io][snap]") {
  const auto data = parse_text(
      "# Directed graph\n"
      "# FromNodeId\tToNodeId\n"
      "0\t1\n"
      "1 2\n"
      "\n"
      "  4   0  \n",
      Format::Snap);
  CHECK(data.vertex_count == 5);  // max id + 1
  CHECK_FALSE(data.symmetric);
  CHECK(data.format == "snap");
  CHECK(edges_of(data) == std::vector<Edge>{{0, 1}, {1, 2}, {4, 0}});
}

TEST_CASE("SNAP: a '# Nodes: N' comment keeps isolated vertices at the end", "[io][snap]") {
  const auto data = parse_text("# Nodes: 10 Edges: 1\n0 1\n", Format::Snap);
  CHECK(data.vertex_count == 10);
  // A smaller declared count than the ids need is not trusted (SNAP files with sparse ids).
  CHECK(parse_text("# Nodes: 2 Edges: 1\n0 7\n", Format::Snap).vertex_count == 8);
}

TEST_CASE("SNAP: optional weight column", "[io][snap]") {
  const auto data = parse_text("0 1 2.5\n1 0 -1\n2 2 1e3\n", Format::Snap);
  CHECK(weighted_edges_of(data) == std::vector<WeightedEdge>{{0, 1, 2.5}, {1, 0, -1.0}, {2, 2, 1000.0}});
}

TEST_CASE("SNAP with symmetrize adds each reverse edge once, not for self loops", "[io][snap]") {
  ReadOptions options;
  options.symmetrize = true;
  const auto data = parse_text("0 1\n2 2\n", Format::Snap, "input", options);
  CHECK(data.symmetric);
  CHECK(edges_of(data) == std::vector<Edge>{{0, 1}, {2, 2}, {1, 0}});
}

TEST_CASE("DIMACS .gr: problem line, comments, 1-based arcs with lengths", "[io][dimacs]") {
  const auto data = parse_text(
      "c 9th DIMACS challenge style\n"
      "p sp 3 3\n"
      "c arcs follow\n"
      "a 1 2 7\n"
      "a 2 3 0\n"
      "a 3 1 100000\n",
      Format::Dimacs);
  CHECK(data.vertex_count == 3);
  CHECK_FALSE(data.symmetric);
  CHECK(data.format == "dimacs");
  CHECK(weighted_edges_of(data) == std::vector<WeightedEdge>{{0, 1, 7.0}, {1, 2, 0.0}, {2, 0, 100000.0}});
}

TEST_CASE("METIS: adjacency lines, each undirected edge twice, empty line = isolated vertex", "[io][metis]") {
  const auto data = parse_text(
      "% a METIS file\n"
      "4 2\n"
      "2 3\n"
      "1\n"
      "1\n"
      "\n",
      Format::Metis);
  CHECK(data.vertex_count == 4);
  CHECK(data.symmetric);
  CHECK_FALSE(data.weighted());
  CHECK(edges_of(data) == std::vector<Edge>{{0, 1}, {0, 2}, {1, 0}, {2, 0}});
}

TEST_CASE("METIS fmt=1: edge weights after each neighbour", "[io][metis]") {
  const auto data = parse_text("3 2 1\n2 5 3 7\n1 5\n1 7\n", Format::Metis);
  CHECK(weighted_edges_of(data) == std::vector<WeightedEdge>{{0, 1, 5.0}, {0, 2, 7.0}, {1, 0, 5.0}, {2, 0, 7.0}});
}

TEST_CASE("METIS fmt=11 and fmt=011 with ncon: vertex weights are skipped", "[io][metis]") {
  const auto eleven = parse_text("3 2 11\n9 2 5 3 7\n8 1 5\n7 1 7\n", Format::Metis);
  CHECK(weighted_edges_of(eleven) ==
        std::vector<WeightedEdge>{{0, 1, 5.0}, {0, 2, 7.0}, {1, 0, 5.0}, {2, 0, 7.0}});
  const auto two_constraints = parse_text("3 1 011 2\n1 1 2 4\n1 1 1 4\n0 0\n", Format::Metis);
  CHECK(two_constraints.vertex_count == 3);
  CHECK(weighted_edges_of(two_constraints) == std::vector<WeightedEdge>{{0, 1, 4.0}, {1, 0, 4.0}});
  const auto sizes = parse_text("2 1 100\n3 2\n4 1\n", Format::Metis);  // vertex sizes first
  CHECK(edges_of(sizes) == std::vector<Edge>{{0, 1}, {1, 0}});
}

TEST_CASE("Options: self loops and duplicates (the first weight of a pair is kept)", "[io][options]") {
  ReadOptions options;
  options.remove_self_loops = true;
  options.remove_duplicates = true;
  const auto data = parse_text("2 1 9\n0 1 1\n1 1 4\n2 1 3\n0 1 2\n", Format::Snap, "input", options);
  CHECK(weighted_edges_of(data) == std::vector<WeightedEdge>{{0, 1, 1.0}, {2, 1, 9.0}});
  CHECK(data.vertex_count == 3);  // removing edges never renumbers vertices
}

TEST_CASE("Format from extension, after .xz/.gz", "[io][detect]") {
  CHECK(format_from_extension("a/b.mtx") == Format::MatrixMarket);
  CHECK(format_from_extension("b.MTX.xz") == Format::MatrixMarket);
  CHECK(format_from_extension("b.txt.gz") == Format::Snap);
  CHECK(format_from_extension("b.el") == Format::Snap);
  CHECK(format_from_extension("b.snap") == Format::Snap);
  CHECK(format_from_extension("USA-road-d.NY.gr") == Format::Dimacs);
  CHECK(format_from_extension("wave.graph.xz") == Format::Metis);
  CHECK(format_from_extension("x.medusa-bin") == Format::Binary);
  CHECK(format_from_extension("x.csv") == Format::Auto);
  CHECK(std::string(format_name(Format::Metis)) == "metis");
}

TEST_CASE("Format sniffed from content when the name says nothing", "[io][detect]") {
  CHECK(parse_text("%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n", Format::Auto).format ==
        "matrix-market");
  CHECK(parse_text("c road\np sp 2 1\na 1 2 3\n", Format::Auto).format == "dimacs");
  CHECK(parse_text("p sp 2 1\na 1 2 3\n", Format::Auto).format == "dimacs");
  CHECK(parse_text("# snap\n0 1\n", Format::Auto).format == "snap");
  CHECK(parse_error("", Format::Auto, "empty.dat") == "empty.dat:1: empty file (cannot tell its format)");
  CHECK(parse_error("0 1\n1 2\n", Format::Auto, "plain.dat") ==
        "plain.dat:0: cannot tell the file's format (expected a known extension "
        ".mtx/.txt/.el/.snap/.gr/.graph/.medusa-bin, a %%MatrixMarket header, DIMACS 'c'/'p sp' lines or SNAP "
        "'#' comments); name the format in ReadOptions or with --format");
}

TEST_CASE("Files on disk: extension decides, unknown extension sniffed", "[io][detect]") {
  TempDir dir;
  write_file(dir.file("g.mtx"), "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 2\n2 1\n3 2\n");
  write_file(dir.file("g.data"), "c sniffed\np sp 2 1\na 2 1 5\n");
  CHECK(edges_of(read_graph(dir.file("g.mtx"))) == std::vector<Edge>{{1, 0}, {0, 1}, {2, 1}, {1, 2}});
  CHECK(weighted_edges_of(read_graph(dir.file("g.data"))) == std::vector<WeightedEdge>{{1, 0, 5.0}});
  write_binary(dir.file("binary.dat"), read_graph(dir.file("g.mtx")));
  CHECK(read_graph(dir.file("binary.dat")).format == "matrix-market");  // sniffed by its magic
  CHECK(error_of([&] { read_graph(dir.file("missing.mtx")); }) ==
        dir.file("missing.mtx") + ":0: cannot open: No such file or directory");
}

TEST_CASE("Long lines and inputs larger than the read buffer parse completely", "[io][buffer]") {
  // A METIS line longer than the 4 MiB initial buffer, then a SNAP file of many lines.
  const VertexId n = 700000;
  std::string metis = std::to_string(n) + " " + std::to_string(n - 1) + "\n";
  for (VertexId v = 2; v <= n; ++v) metis += std::to_string(v) + " ";
  metis += "\n";
  for (VertexId v = 2; v <= n; ++v) metis += "1\n";
  REQUIRE(metis.size() > (4u << 20));
  const auto star = parse_text(metis, Format::Metis);
  CHECK(star.edge_count() == 2 * (n - 1));
  CHECK(star.dst[n - 2] == n - 1);
  CHECK(star.src.back() == n - 1);

  std::string snap;
  for (VertexId v = 0; v < 500000; ++v) snap += std::to_string(v) + "\t" + std::to_string(v + 1) + "\n";
  const auto path = parse_text(snap, Format::Snap);
  CHECK(path.edge_count() == 500000);
  CHECK(path.vertex_count == 500001);
  CHECK(path.src[123456] == 123456);
  CHECK(path.dst[499999] == 500000);
}
