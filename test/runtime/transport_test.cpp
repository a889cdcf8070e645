// The transport layer's pieces that need no MPI: which rank runs which partition, and the
// in-process transport (one rank: every collective leaves its input as it is).
#include <medusa/error.h>
#include <medusa/transport/in_process.h>
#include <medusa/transport/mpi_job.h>
#include <medusa/transport/ownership.h>

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

using medusa::transport::PartitionOwnership;

TEST_CASE("partition p runs on rank p % ranks as its local engine p / ranks", "[runtime][transport]") {
  const std::uint32_t parts = 7;
  for (std::uint32_t ranks = 1; ranks <= 4; ++ranks) {
    std::vector<int> runs(parts, 0);
    for (std::uint32_t r = 0; r < ranks; ++r) {
      const PartitionOwnership own{r, ranks};
      for (std::uint32_t i = 0; i < own.owned_count(parts); ++i) {
        const std::uint32_t p = own.partition(i);
        REQUIRE(p < parts);
        CHECK(own.owns(p));
        CHECK(own.rank_of(p) == r);
        CHECK(own.local_index(p) == i);
        ++runs[p];
      }
    }
    for (std::uint32_t p = 0; p < parts; ++p) CHECK(runs[p] == 1);  // each partition on exactly one rank
  }
  CHECK(PartitionOwnership{3, 4}.owned_count(2) == 0);
  CHECK(PartitionOwnership{0, 1}.owned_count(5) == 5);
}

TEST_CASE("the in-process transport reduces over one rank and has no peer", "[runtime][transport]") {
  medusa::transport::InProcessTransport t;
  CHECK(t.rank() == 0);
  CHECK(t.ranks() == 1);
  int votes[3] = {0, 1, 0};
  std::uint64_t counts[2] = {5, 9};
  t.reduce_step(votes, 3, counts, 2, 0);
  CHECK(votes[1] == 1);
  CHECK(counts[0] == 5);
  CHECK(medusa::transport::gather_doubles(t, {1.5, 2.5}) == std::vector<double>{1.5, 2.5});
  const std::vector<std::vector<std::byte>> to_self{{std::byte{7}, std::byte{9}}};
  CHECK(t.all_to_all(to_self) == to_self);
  CHECK_THROWS_AS(t.all_to_all({{}, {}}), medusa::Error);  // (a block for a second rank)
  int x = 0;
  CHECK_THROWS_AS(t.post_send(0, 1, &x, sizeof x), medusa::Error);
  t.fail_job("nothing to end");  // returns: the caller rethrows
}

TEST_CASE("without a started MPI job the process is rank 0 of 1", "[runtime][transport]") {
  CHECK_FALSE(medusa::transport::job_started());
  CHECK(medusa::transport::job_rank() == 0);
  CHECK(medusa::transport::job_ranks() == 1);
  medusa::transport::fail_job("no job: returns");
}
