// Every kind of malformed input gives medusa::Error with "file:line: what (expected ..., got ...)".
// The messages are pinned: users act on them.
#include "io_test_support.h"

#include <catch2/catch.hpp>

using namespace medusa;
using namespace medusa::io;
using namespace medusa::io::test;

namespace {
const std::string kMtxHeader = "%%MatrixMarket matrix coordinate pattern general\n";
std::string mtx_error(const std::string& text) { return parse_error(text, Format::MatrixMarket, "g.mtx"); }
std::string snap_error(const std::string& text) { return parse_error(text, Format::Snap, "g.txt"); }
std::string gr_error(const std::string& text) { return parse_error(text, Format::Dimacs, "g.gr"); }
std::string metis_error(const std::string& text) { return parse_error(text, Format::Metis, "g.graph"); }
}  // namespace

TEST_CASE("Matrix Market errors", "[io][errors][mtx]") {
  CHECK(mtx_error("") == "g.mtx:1: empty file (expected a %%MatrixMarket header)");
  CHECK(mtx_error("3 3 1\n1 2\n") == "g.mtx:1: expected '%%MatrixMarket' header, got '3'");
  CHECK(mtx_error("%%MatrixMarket matrix array real general\n") ==
        "g.mtx:1: expected format 'coordinate' (dense 'array' files are not graphs), got 'array'");
  CHECK(mtx_error("%%MatrixMarket matrix coordinate complex general\n") ==
        "g.mtx:1: expected field 'pattern', 'integer' or 'real', got 'complex'");
  CHECK(mtx_error("%%MatrixMarket matrix coordinate real hermitian\n") ==
        "g.mtx:1: expected symmetry 'general' or 'symmetric', got 'hermitian'");
  CHECK(mtx_error("%%MatrixMarket matrix coordinate pattern symmetric\n3 4 1\n1 1\n") ==
        "g.mtx:2: a symmetric matrix must be square (expected rows = columns, got 3 x 4)");
  CHECK(mtx_error(kMtxHeader + "% only comments\n") ==
        "g.mtx:2: file ends before the size line (expected 'rows columns entries')");
  CHECK(mtx_error(kMtxHeader + "3 3\n") == "g.mtx:2: expected entry count, got end of line");
  CHECK(mtx_error(kMtxHeader + "3 x 1\n") == "g.mtx:2: expected column count (a non-negative integer), got 'x'");
  CHECK(mtx_error(kMtxHeader + "3 3 1\n0 2\n") ==
        "g.mtx:3: vertex id 0 in a 1-based format (expected row from 1 to 3, got 0)");
  CHECK(mtx_error(kMtxHeader + "3 3 1\n1 4\n") ==
        "g.mtx:3: vertex id out of range (expected column from 1 to 3, the declared vertex count, got 4)");
  CHECK(mtx_error(kMtxHeader + "3 3 1\n1 b\n") == "g.mtx:3: expected column (a vertex id from 1 to 3), got 'b'");
  CHECK(mtx_error(kMtxHeader + "3 3 1\n1 2 5\n") ==
        "g.mtx:3: expected end of line after the column (pattern files have no values), got '5'");
  CHECK(mtx_error(kMtxHeader + "3 3 3\n1 2\n2 3\n") == "g.mtx:4: fewer entries than declared (expected 3, got 2)");
  CHECK(mtx_error(kMtxHeader + "3 3 1\n1 2\n2 3\n") == "g.mtx:4: more entries than declared (expected 1, got another)");
  CHECK(mtx_error("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 nan\n") ==
        "g.mtx:3: expected real value (a finite number), got 'nan'");
  CHECK(mtx_error("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2\n") ==
        "g.mtx:3: expected real value, got end of line");
  CHECK(mtx_error("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 1.5\n") ==
        "g.mtx:3: expected integer value (an integer), got '1.5'");
  CHECK(mtx_error(kMtxHeader + "5000000000 5000000000 0\n") ==
        "g.mtx:2: too many vertices for 32-bit ids (expected at most 4294967295, got 5000000000)");
}

TEST_CASE("SNAP errors", "[io][errors][snap]") {
  CHECK(snap_error("") == "g.txt:1: empty file (expected 'source target' lines)");
  CHECK(snap_error("# just a comment\n\n") == "g.txt:2: no edges (expected at least one 'source target' line)");
  CHECK(snap_error("0 1\n-1 2\n") == "g.txt:2: expected source vertex id (a non-negative integer), got '-1'");
  CHECK(snap_error("0 x\n") == "g.txt:1: expected target vertex id (a non-negative integer), got 'x'");
  CHECK(snap_error("0\n") == "g.txt:1: expected 2 or 3 columns (source target [weight]), got 1");
  CHECK(snap_error("0 1 2 3\n") == "g.txt:1: expected 2 or 3 columns (source target [weight]), got 4");
  CHECK(snap_error("0 1\n1 2 3\n") == "g.txt:2: expected end of line after the target (line 1 has 2 columns), got '3'");
  CHECK(snap_error("0 1 1\n1 2\n") == "g.txt:2: expected a weight (line 1 has 3 columns), got end of line");
  CHECK(snap_error("0 1 NaN\n") == "g.txt:1: expected a weight (a finite number), got 'NaN'");
  CHECK(snap_error("0 1 inf\n") == "g.txt:1: expected a weight (a finite number), got 'inf'");
  CHECK(snap_error("0 4294967295\n") ==
        "g.txt:1: vertex id out of range (expected target below 4294967295 for 32-bit ids, got 4294967295)");
  CHECK(snap_error("0 99999999999999999999999\n") ==
        "g.txt:1: expected target vertex id (a non-negative integer), got '99999999999999999999999'");
  CHECK(snap_error("0\x01 1\n") == "g.txt:1: expected source vertex id (a non-negative integer), got '0\\x01'");
}

TEST_CASE("DIMACS errors", "[io][errors][dimacs]") {
  CHECK(gr_error("") == "g.gr:1: empty file (expected 'p sp n m')");
  CHECK(gr_error("c nothing\n") == "g.gr:1: no problem line (expected 'p sp n m')");
  CHECK(gr_error("a 1 2 3\n") == "g.gr:1: arc before the problem line (expected 'p sp n m' first)");
  CHECK(gr_error("p max 3 1\n") == "g.gr:1: expected problem type 'sp', got 'max'");
  CHECK(gr_error("p sp 3 1\np sp 3 1\n") == "g.gr:2: second problem line (expected one 'p sp n m' line, got another)");
  CHECK(gr_error("p sp 3 1\na 0 2 1\n") ==
        "g.gr:2: vertex id 0 in a 1-based format (expected arc tail from 1 to 3, got 0)");
  CHECK(gr_error("p sp 3 1\na 1 9 1\n") ==
        "g.gr:2: vertex id out of range (expected arc head from 1 to 3, the declared vertex count, got 9)");
  CHECK(gr_error("p sp 3 1\na 1 2 -4\n") == "g.gr:2: negative arc length (expected a length >= 0, got -4)");
  CHECK(gr_error("p sp 3 1\na 1 2 2.5\n") == "g.gr:2: expected arc length (an integer), got '2.5'");
  CHECK(gr_error("p sp 3 1\na 1 2 1 9\n") == "g.gr:2: expected end of line after the arc length, got '9'");
  CHECK(gr_error("p sp 3 2\na 1 2 1\n") == "g.gr:2: fewer arcs than declared (expected 2, got 1)");
  CHECK(gr_error("p sp 3 1\na 1 2 1\na 2 3 1\n") == "g.gr:3: more arcs than declared (expected 1, got another)");
  CHECK(gr_error("p sp 3 1\ne 1 2\n") == "g.gr:2: expected a line starting with 'c', 'p' or 'a', got 'e'");
}

TEST_CASE("METIS errors", "[io][errors][metis]") {
  CHECK(metis_error("") == "g.graph:1: empty file (expected the header 'vertices edges [fmt [ncon]]')");
  CHECK(metis_error("% comment only\n") == "g.graph:1: no header (expected 'vertices edges [fmt [ncon]]')");
  CHECK(metis_error("three 1\n") == "g.graph:1: expected vertex count (a non-negative integer), got 'three'");
  CHECK(metis_error("2 1 2\n2\n1\n") == "g.graph:1: expected fmt of up to three 0/1 digits (like 1, 10, 11, 011), got '2'");
  CHECK(metis_error("2 1 1 2\n2 1\n1 1\n") ==
        "g.graph:1: ncon given but fmt has no vertex weights (expected fmt x1x, got 1)");
  CHECK(metis_error("3 1\n2\n1\n") == "g.graph:3: fewer vertex lines than declared (expected 3 after the header on line 1, got 2)");
  CHECK(metis_error("2 1\n2\n1\n2\n") == "g.graph:4: more vertex lines than declared (expected 2, got another)");
  CHECK(metis_error("3 2\n2\n1\n\n") == "g.graph:4: fewer adjacency entries than declared (expected 4 = 2 x 2 edges, got 2)");
  CHECK(metis_error("3 1\n2 3\n1\n1\n") ==
        "g.graph:3: more adjacency entries than declared (expected 2 = 2 x 1 edges, got another)");
  CHECK(metis_error("2 1\n0\n1\n") == "g.graph:2: vertex id 0 in a 1-based format (expected neighbour from 1 to 2, got 0)");
  CHECK(metis_error("2 1\n3\n1\n") ==
        "g.graph:2: vertex id out of range (expected neighbour from 1 to 2, the declared vertex count, got 3)");
  CHECK(metis_error("2 1 1\n2 0\n1 0\n") == "g.graph:2: edge weight 0 (expected a positive integer, got 0)");
  CHECK(metis_error("2 1 1\n2 -3\n1 3\n") == "g.graph:2: expected edge weight (a non-negative integer), got '-3'");
  CHECK(metis_error("2 1 1\n2\n1 3\n") == "g.graph:2: expected edge weight, got end of line");
}

TEST_CASE("Hostile declared counts do not allocate or crash", "[io][errors]") {
  CHECK(mtx_error(kMtxHeader + "4 4 18446744073709551615\n1 2\n") ==
        "g.mtx:3: fewer entries than declared (expected 18446744073709551615, got 1)");
  CHECK(gr_error("p sp 4294967295 9999999999999\na 1 4294967295 0\n") ==
        "g.gr:2: fewer arcs than declared (expected 9999999999999, got 1)");
  CHECK(metis_error("2 99999999999\n2\n1\n") ==
        "g.graph:3: fewer adjacency entries than declared (expected 199999999998 = 2 x 99999999999 edges, got 2)");
  CHECK(metis_error("2 99999999999999\n2\n1\n") ==
        "g.graph:1: implausible edge count (expected at most 2^40, got 99999999999999)");
}
