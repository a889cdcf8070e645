// The sparse replica refresh's choice and its diff, on the host (backend/common/sparse_refresh.h;
// the CUDA kernels make the same diff): whatever copy each refresh takes, the replicas end equal
// to the owner's values.
#include <medusa/backend/common/sparse_refresh.h>

#include "support/random_graph.h"

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

using medusa::Toggle;
using medusa::common::choose_refresh_copy;
using medusa::common::RefreshCopy;

TEST_CASE("choose_refresh_copy: dense until the shadow is current, then by the last count", "[runtime]") {
  // Not allowed (a route between ranks, no peer access) or switched off: dense.
  CHECK(choose_refresh_copy(Toggle::On, false, true, 0, 1000) == RefreshCopy::Dense);
  CHECK(choose_refresh_copy(Toggle::Off, true, true, 0, 1000) == RefreshCopy::Dense);
  // The first refresh of a Run: the target's replicas are unknown, so the whole route goes.
  CHECK(choose_refresh_copy(Toggle::On, true, false, 0, 1000) == RefreshCopy::Dense);
  CHECK(choose_refresh_copy(Toggle::Auto, true, false, 0, 1000) == RefreshCopy::Dense);
  CHECK(choose_refresh_copy(Toggle::On, true, true, 1000, 1000) == RefreshCopy::Sparse);
  CHECK(choose_refresh_copy(Toggle::Auto, true, true, 250, 1000) == RefreshCopy::Sparse);
  CHECK(choose_refresh_copy(Toggle::Auto, true, true, 251, 1000) == RefreshCopy::Dense);
  CHECK(choose_refresh_copy(Toggle::Auto, true, true, 0, 0) == RefreshCopy::Sparse);
}

TEST_CASE("sparse_refresh_refusal: multi-hop and off keep every copy dense", "[runtime]") {
  CHECK(medusa::common::sparse_refresh_refusal(1, Toggle::Auto).empty());
  CHECK(medusa::common::sparse_refresh_refusal(1, Toggle::On).empty());
  CHECK(medusa::common::sparse_refresh_refusal(2, Toggle::On).find("2-hop replicas") != std::string::npos);
  CHECK(medusa::common::sparse_refresh_refusal(1, Toggle::Off).find("switched off") != std::string::npos);
}

TEST_CASE("diff_into_shadow + scatter_changed keep the replicas equal to the owner's values", "[runtime]") {
  constexpr std::size_t kOwned = 500, kRouted = 200, kSize = 8;
  const Toggle setting = GENERATE(Toggle::Auto, Toggle::On);
  std::vector<std::byte> owner(kOwned * kSize), shadow(kRouted * kSize), replicas(kRouted * kSize);
  std::vector<medusa::VertexId> index(kRouted);
  for (std::size_t i = 0; i < kRouted; ++i)
    index[i] = static_cast<medusa::VertexId>(medusa_test::mix64(i) % kOwned);  // (repeats allowed)
  for (std::size_t v = 0; v < owner.size(); ++v) owner[v] = static_cast<std::byte>(medusa_test::mix64(v + 7));
  std::vector<medusa::VertexId> changed;
  std::uint64_t last_changed = kRouted;
  bool shadow_current = false;
  std::size_t sparse_refreshes = 0;
  for (int round = 0; round < 40; ++round) {
    // Change a share of the owner's values that grows and shrinks: 0%, then up to 100%.
    const std::uint64_t share = (round * 13) % 101;
    for (std::size_t v = 0; v < kOwned; ++v)
      if (medusa_test::mix64(v * 131 + round) % 100 < share)
        owner[v * kSize + medusa_test::mix64(v + round) % kSize] ^= std::byte{1};
    const RefreshCopy copy = choose_refresh_copy(setting, true, shadow_current, last_changed, kRouted);
    const std::size_t n = medusa::common::diff_into_shadow(shadow.data(), owner.data(), index.data(), kRouted,
                                                           kSize, changed);
    CHECK(n == changed.size());
    if (copy == RefreshCopy::Dense) {
      replicas = shadow;
    } else {
      ++sparse_refreshes;
      medusa::common::scatter_changed(replicas.data(), shadow.data(), changed, kSize);
    }
    shadow_current = true;
    last_changed = n;
    for (std::size_t i = 0; i < kRouted; ++i) {
      INFO("round " << round << ", replica " << i);
      REQUIRE(std::memcmp(replicas.data() + i * kSize, owner.data() + index[i] * kSize, kSize) == 0);
    }
  }
  CHECK(sparse_refreshes > 0);
  if (setting == Toggle::On) CHECK(sparse_refreshes == 39);
}
