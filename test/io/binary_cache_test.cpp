// The binary cache: exact round trips, reuse while the source is unchanged, damage detection.
#include "io_test_support.h"

#include <catch2/catch.hpp>

#include <thread>

using namespace medusa;
using namespace medusa::io;
using namespace medusa::io::test;

namespace {
EdgeListData sample(bool weighted) {
  EdgeListData data;
  data.vertex_count = 6;
  data.src = {0, 1, 5, 3, 3};
  data.dst = {1, 0, 2, 3, 4};
  if (weighted) data.weight = {0.5, -2, 1e300, 3, 0};
  data.format = "snap";
  data.symmetric = false;
  return data;
}

void require_same(const EdgeListData& a, const EdgeListData& b) {
  CHECK(a.vertex_count == b.vertex_count);
  CHECK(a.src == b.src);
  CHECK(a.dst == b.dst);
  CHECK(a.weight == b.weight);
  CHECK(a.format == b.format);
  CHECK(a.symmetric == b.symmetric);
}
}  // namespace

TEST_CASE("Binary round trip keeps everything, weighted or not", "[io][binary]") {
  TempDir dir;
  for (bool weighted : {false, true}) {
    EdgeListData data = sample(weighted);
    data.symmetric = weighted;  // exercise both flags
    write_binary(dir.file("g.medusa-bin"), data);
    require_same(read_graph(dir.file("g.medusa-bin")), data);
  }
  EdgeListData empty;
  empty.format = "grid";
  write_binary(dir.file("empty.medusa-bin"), empty);
  require_same(read_graph(dir.file("empty.medusa-bin")), empty);
}

TEST_CASE("Binary errors: magic, version, truncation, trailing bytes, checksum, ids", "[io][binary][errors]") {
  TempDir dir;
  const std::string path = dir.file("g.medusa-bin");
  write_binary(path, sample(true));
  const std::string good = read_file(path);
  auto error_with = [&](const std::string& bytes) {
    write_file(path, bytes);
    return error_of([&] { read_graph(path); });
  };
  std::string bad = good;
  bad[0] = 'X';
  CHECK(error_with(bad) == path + ":0: not a medusa binary graph (expected magic 'MEDUSAEL')");
  bad = good;
  bad[8] = 9;
  CHECK(error_with(bad) == path + ":0: unsupported binary graph version (expected 1, got 9)");
  CHECK(error_with(good.substr(0, 40)) == path + ":0: file ends inside the header (expected 64 bytes, got 40)");
  // Plain files: the size is checked against the header before anything is allocated.
  CHECK(error_with(good.substr(0, good.size() - 4)) ==
        path + ":0: file is shorter than its header says (expected 80 bytes of arrays, got 76)");
  CHECK(error_with(good + "x") == path + ":0: file is longer than its header says (expected 80 bytes of arrays, got 81)");
  // Compressed files cannot be sized up front: the stream itself must end in the right place.
  const std::string packed = dir.file("g.medusa-bin.xz");
  write_file(packed, xz_compress(good.substr(0, good.size() - 4)));
  CHECK(error_of([&] { read_graph(packed); }) ==
        packed + ":0: file ends inside the weight array (expected 40 bytes, got 36)");
  write_file(packed, xz_compress(good + "x"));
  CHECK(error_of([&] { read_graph(packed); }) == packed + ":0: bytes after the last array (expected the file to end)");
  write_file(packed, xz_compress(good));
  CHECK(read_graph(packed).edge_count() == 5);
  bad = good;
  bad[good.size() - 1] ^= 1;  // a bit of the last weight
  CHECK(error_with(bad) == path + ":0: checksum mismatch: the arrays are corrupt");
  EdgeListData out_of_range = sample(false);
  out_of_range.dst[2] = 6;
  write_binary(path, out_of_range);
  CHECK(error_of([&] { read_graph(path); }) ==
        path + ":0: edge 2 has an endpoint out of range (expected ids below 6, got 5 -> 6)");
}

TEST_CASE("Cache beside the input is written once and reused while the input is unchanged", "[io][binary][cache]") {
  TempDir dir;
  const std::string input = dir.file("g.txt");
  write_file(input, "0 1\n1 2\n");
  ReadOptions options;
  options.use_cache = true;
  const auto first = read_graph(input, options);
  const std::string cache = input + ".medusa-bin";
  REQUIRE(std::filesystem::exists(cache));
  const auto cache_time = std::filesystem::last_write_time(cache);
  const auto second = read_graph(input, options);
  require_same(first, second);
  CHECK(std::filesystem::last_write_time(cache) == cache_time);  // reused, not rewritten

  // The cache holds the file as parsed; options apply on every read.
  ReadOptions symmetric = options;
  symmetric.symmetrize = true;
  CHECK(read_graph(input, symmetric).edge_count() == 4);
  CHECK(read_graph(input, options).edge_count() == 2);

  // A changed input (different size and time) invalidates the cache.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  write_file(input, "0 1\n1 2\n2 3\n");
  CHECK(edges_of(read_graph(input, options)) == std::vector<Edge>{{0, 1}, {1, 2}, {2, 3}});
  CHECK(read_graph(cache).edge_count() == 3);  // rewritten

  // A damaged cache is rebuilt from the source instead of failing.
  write_file(cache, read_file(cache).substr(0, 70));
  CHECK(read_graph(input, options).edge_count() == 3);
  CHECK(read_graph(cache).edge_count() == 3);
}

TEST_CASE("Cache in a separate folder, and an unwritable cache folder is not an error", "[io][binary][cache]") {
  TempDir dir;
  std::filesystem::create_directory(dir.path() / "cache");
  const std::string input = dir.file("g.mtx");
  write_file(input, "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n");
  ReadOptions options;
  options.use_cache = true;
  options.cache_dir = dir.file("cache");
  CHECK(read_graph(input, options).edge_count() == 1);
  CHECK(std::filesystem::exists(dir.path() / "cache" / "g.mtx.medusa-bin"));
  CHECK_FALSE(std::filesystem::exists(input + ".medusa-bin"));
  CHECK(read_graph(dir.file("cache/g.mtx.medusa-bin")).format == "matrix-market");

  options.cache_dir = dir.file("no/such/folder");
  CHECK(read_graph(input, options).edge_count() == 1);
}
