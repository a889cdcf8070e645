// The CUDA engine's priority buckets as a near queue and a far pile (common/near_far.h), run in
// order on the host: for random SetActive(priority) calls, every superstep must take the frontier,
// the bucket and the count of bucketed vertices that the host engine's buckets take
// (host/priority_buckets.h), with at most one pile entry per vertex. The kernels run the same steps
// in parallel (cuda/engine/priority_frontier.cuh); the GPU tests compare the engines' supersteps.
#include <medusa/backend/common/near_far.h>
#include <medusa/backend/host/priority_buckets.h>
#include <medusa/device_api.h>

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace {

using medusa::VertexId;
using medusa::common::kNoPriority;
namespace nf = medusa::common;

// The kernels' sequence (priority_frontier.cuh: fold, near, pile minimum, split and finish), one
// vertex at a time.
class NearFarModel {
 public:
  NearFarModel(std::size_t n, std::uint64_t width)
      : next_(n, kNoPriority), waiting_(n, kNoPriority), in_pile_(n, 0), width_(width),
        s_(nf::initial_near_far_state()) {}
  std::uint64_t* next_priorities() { return next_.data(); }

  void promote(const std::vector<VertexId>& activated, std::vector<VertexId>& current) {
    current.clear();
    s_.activated = activated.size();
    for (VertexId v : activated) s_.joined += nf::fold_activated(next_.data(), waiting_.data(), v).joined ? 1 : 0;
    for (VertexId v : activated) s_.activated_min = std::min<std::uint64_t>(s_.activated_min, nf::bucket_of(waiting_[v], width_));
    const bool near = nf::takes_near(s_);
    std::vector<VertexId>& pile = piles_[s_.pile_side];
    for (VertexId v : activated) {
      const nf::NearStep step = nf::near_step(waiting_.data(), in_pile_.data(), v, near, s_.activated_min, width_);
      if (step.taken) current.push_back(v);
      if (step.piled) pile.push_back(v);
    }
    if (!near) {
      ++far_steps_;
      for (VertexId v : pile) s_.pile_min = std::min<std::uint64_t>(s_.pile_min, nf::bucket_of(waiting_[v], width_));
      std::vector<VertexId>& rest = piles_[s_.pile_side ^ 1u];
      for (VertexId v : pile) {
        const nf::SplitStep step = nf::split_step(waiting_.data(), in_pile_.data(), v, s_.pile_min, width_);
        if (step == nf::SplitStep::Taken) current.push_back(v);
        if (step == nf::SplitStep::Kept) rest.push_back(v);
      }
      pile.clear();
    }
    largest_pile_ = std::max(largest_pile_, std::max(piles_[0].size(), piles_[1].size()));
    s_.taken = current.size();
    const nf::NearFarOutcome out = nf::finish_near_far_step(s_);
    bucket_ = out.bucket;
    bucketed_ = out.bucketed_vertices;
    std::sort(current.begin(), current.end());
  }

  std::uint64_t bucket() const { return bucket_; }
  std::uint64_t bucketed_vertices() const { return bucketed_; }
  std::size_t far_steps() const { return far_steps_; }
  std::size_t largest_pile() const { return largest_pile_; }

 private:
  std::vector<std::uint64_t> next_, waiting_;
  std::vector<std::uint8_t> in_pile_;
  std::array<std::vector<VertexId>, 2> piles_;
  std::uint64_t width_;
  nf::NearFarState s_;
  std::uint64_t bucket_ = kNoPriority, bucketed_ = 0;
  std::size_t far_steps_ = 0, largest_pile_ = 0;
};

// SetActive(priority) calls into both engines' slots; the activated vertices (unique, in ID order).
std::vector<VertexId> activate(medusa::host::PriorityBuckets& host, NearFarModel& model,
                               const std::vector<std::pair<VertexId, std::uint64_t>>& calls) {
  std::vector<VertexId> flagged;
  for (const auto& [v, p] : calls) {
    medusa::detail::priority_min(&host.next_priorities()[v], p);
    medusa::detail::priority_min(&model.next_priorities()[v], p);
    flagged.push_back(v);
  }
  std::sort(flagged.begin(), flagged.end());
  flagged.erase(std::unique(flagged.begin(), flagged.end()), flagged.end());
  return flagged;
}

enum class Priorities {
  Ahead,    // SSSP-like: at or above the bucket that runs, mostly within a few buckets
  Anywhere  // any value, lower buckets than the running one included, ~0 (the last bucket) too
};

// Runs `steps` supersteps of random activations on both; returns the model's far steps.
std::size_t run_both(std::uint64_t width, Priorities kind, unsigned seed, std::uint32_t steps) {
  constexpr std::size_t n = 300;
  medusa::host::PriorityBuckets host;
  host.allocate(n, width, 1.0);
  NearFarModel model(n, width);
  std::mt19937_64 rng(seed);
  std::vector<VertexId> host_current, model_current;
  std::uint64_t running = 0;  // the priority range the last superstep ran from
  for (std::uint32_t step = 0; step < steps; ++step) {
    std::vector<std::pair<VertexId, std::uint64_t>> calls;
    const std::size_t count = rng() % 3 == 0 ? 0 : rng() % 40;  // (some supersteps activate nothing)
    for (std::size_t i = 0; i < count; ++i) {
      const VertexId v = static_cast<VertexId>(rng() % n);
      std::uint64_t p = 0;
      if (kind == Priorities::Ahead)
        p = running + rng() % (4 * width);
      else
        p = rng() % 16 == 0 ? kNoPriority : rng() % (40 * width);
      calls.emplace_back(v, p);
    }
    const std::vector<VertexId> flagged = activate(host, model, calls);
    host.promote(flagged, host_current);
    model.promote(flagged, model_current);
    INFO("width " << width << ", seed " << seed << ", superstep " << step);
    REQUIRE(model_current == host_current);
    REQUIRE(model.bucket() == host.bucket());
    REQUIRE(model.bucketed_vertices() == host.deferred() + host_current.size());
    if (kind == Priorities::Ahead && host.bucket() != kNoPriority) running = host.bucket() * width;
  }
  CHECK(model.largest_pile() <= n);  // (one entry per vertex at most)
  return model.far_steps();
}

}  // namespace

TEST_CASE("near-far buckets take the host engine's buckets, superstep by superstep", "[runtime][priorities]") {
  for (std::uint64_t width : {std::uint64_t{1}, std::uint64_t{7}, std::uint64_t{100}}) {
    for (unsigned seed = 1; seed <= 4; ++seed) {
      for (Priorities kind : {Priorities::Ahead, Priorities::Anywhere}) {
        // Both ways of taking a bucket must have run (else this test proves only one).
        CHECK(run_both(width, kind, seed, 400) > 0);
      }
    }
  }
}

TEST_CASE("near-far buckets as one bucket while the auto delta is undecided", "[runtime][priorities]") {
  // Width ~0 (every priority is bucket 0): each superstep takes every vertex it activated, from A.
  NearFarModel model(8, kNoPriority);
  medusa::host::PriorityBuckets host;
  host.allocate(8, kNoPriority, 1.0);
  std::vector<VertexId> host_current, current;
  const std::vector<VertexId> flagged = activate(host, model, {{3, 0}, {5, 0}, {1, kNoPriority}});
  host.promote(flagged, host_current);
  model.promote(flagged, current);
  CHECK(current == std::vector<VertexId>{1, 3, 5});
  CHECK(current == host_current);
  CHECK(model.bucket() == 0);
  CHECK(model.bucketed_vertices() == 3);
  model.promote({}, current);
  CHECK(current.empty());
  CHECK(model.bucket() == kNoPriority);
  CHECK(model.bucketed_vertices() == 0);
  CHECK(model.far_steps() == 0);
}

TEST_CASE("near-far buckets: a far step drops stale pile entries and keeps the rest once", "[runtime][priorities]") {
  NearFarModel model(8, 10);
  medusa::host::PriorityBuckets host;
  host.allocate(8, 10, 1.0);
  std::vector<VertexId> current, host_current;
  auto step = [&](const std::vector<std::pair<VertexId, std::uint64_t>>& calls) {
    const std::vector<VertexId> flagged = activate(host, model, calls);
    host.promote(flagged, host_current);
    model.promote(flagged, current);
    REQUIRE(current == host_current);
    REQUIRE(model.bucket() == host.bucket());
  };
  step({{1, 5}, {2, 45}, {3, 75}});  // near: bucket 0 = {1}; 2 and 3 go on the pile
  CHECK(current == std::vector<VertexId>{1});
  step({{2, 8}});                    // near: 2 moves down to bucket 0 and runs; its pile entry goes stale
  CHECK(current == std::vector<VertexId>{2});
  CHECK(model.far_steps() == 0);
  step({});                          // far: the stale entry of 2 is dropped, 3 (bucket 7) runs
  CHECK(current == std::vector<VertexId>{3});
  CHECK(model.bucket() == 7);
  CHECK(model.far_steps() == 1);
  step({{2, 30}, {4, 31}});          // near after a far step: both in bucket 3, below nothing else
  CHECK(current == std::vector<VertexId>{2, 4});
  step({});
  CHECK(current.empty());
  CHECK(model.bucketed_vertices() == 0);
}
