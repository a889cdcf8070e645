// xz and gzip inputs are read directly, recognised by their magic bytes; damage is reported.
#include "io_test_support.h"

#include <catch2/catch.hpp>

using namespace medusa;
using namespace medusa::io;
using namespace medusa::io::test;

namespace {
// Big enough to span several decompression chunks and read-buffer refills.
std::string big_snap() {
  std::string text = "# a path\n";
  for (int v = 0; v < 300000; ++v) text += std::to_string(v) + " " + std::to_string(v + 1) + " " + std::to_string(v % 7) + "\n";
  return text;
}
}  // namespace

TEST_CASE("xz and gzip files read like the plain file", "[io][compressed]") {
  TempDir dir;
  const std::string text = big_snap();
  write_file(dir.file("g.txt"), text);
  write_file(dir.file("g.txt.xz"), xz_compress(text));
  write_file(dir.file("g.txt.gz"), gzip_compress(text));
  const auto plain = read_graph(dir.file("g.txt"));
  REQUIRE(plain.edge_count() == 300000);
  CHECK(weighted_edges_of(read_graph(dir.file("g.txt.xz"))) == weighted_edges_of(plain));
  CHECK(weighted_edges_of(read_graph(dir.file("g.txt.gz"))) == weighted_edges_of(plain));
}

TEST_CASE("Compression is recognised by content, not name, and gzip members may be concatenated", "[io][compressed]") {
  TempDir dir;
  const std::string header = "%%MatrixMarket matrix coordinate pattern general\n3 3 2\n";
  write_file(dir.file("misnamed.mtx"), xz_compress(header + "1 2\n2 3\n"));
  CHECK(edges_of(read_graph(dir.file("misnamed.mtx"))) == std::vector<Edge>{{0, 1}, {1, 2}});
  // `cat a.gz b.gz` is a valid gzip file holding a then b.
  write_file(dir.file("joined.mtx.gz"), gzip_compress(header + "1 2\n") + gzip_compress("2 3\n"));
  CHECK(edges_of(read_graph(dir.file("joined.mtx.gz"))) == std::vector<Edge>{{0, 1}, {1, 2}});
  write_file(dir.file("joined.mtx.xz"), xz_compress(header + "1 2\n") + xz_compress("2 3\n"));
  CHECK(edges_of(read_graph(dir.file("joined.mtx.xz"))) == std::vector<Edge>{{0, 1}, {1, 2}});
}

TEST_CASE("Truncated or corrupt compressed streams are errors, not short graphs", "[io][compressed][errors]") {
  TempDir dir;
  const std::string text = big_snap();
  const std::string xz = xz_compress(text);
  const std::string gz = gzip_compress(text);
  write_file(dir.file("cut.txt.xz"), xz.substr(0, xz.size() / 2));
  write_file(dir.file("cut.txt.gz"), gz.substr(0, gz.size() / 2));
  const std::string xz_error = error_of([&] { read_graph(dir.file("cut.txt.xz")); });
  const std::string gz_error = error_of([&] { read_graph(dir.file("cut.txt.gz")); });
  // The line is where decoding stopped: after the last complete line delivered.
  CHECK_THAT(xz_error, Catch::Matches(dir.file("cut.txt.xz") + ":[0-9]+: xz stream is truncated"));
  CHECK_THAT(gz_error, Catch::Matches(dir.file("cut.txt.gz") + ":[0-9]+: gzip stream is truncated"));

  // Only the 12-byte xz stream footer missing: all data decoded, still an error.
  write_file(dir.file("nofooter.txt.xz"), xz.substr(0, xz.size() - 12));
  CHECK_THAT(error_of([&] { read_graph(dir.file("nofooter.txt.xz")); }), Catch::Contains("xz stream is truncated"));

  std::string flipped = xz;
  flipped[flipped.size() / 2] ^= 0x55;
  write_file(dir.file("flipped.txt.xz"), flipped);
  CHECK_THAT(error_of([&] { read_graph(dir.file("flipped.txt.xz")); }), Catch::Contains("xz stream is corrupt"));

  // Flip a bit of the gzip trailer's CRC: the data inflates fine, the check catches it. (Damage
  // inside the deflate data may instead surface as a parse error, which is an error too.)
  std::string flipped_gz = gz;
  flipped_gz[flipped_gz.size() - 8] ^= 0x01;
  write_file(dir.file("flipped.txt.gz"), flipped_gz);
  CHECK_THAT(error_of([&] { read_graph(dir.file("flipped.txt.gz")); }), Catch::Contains("gzip stream is corrupt"));

  write_file(dir.file("garbage.txt.gz"), gz + "trailing junk");
  CHECK_THAT(error_of([&] { read_graph(dir.file("garbage.txt.gz")); }), Catch::Contains("gzip stream is corrupt"));
}
