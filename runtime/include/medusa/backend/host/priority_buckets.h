// Priority buckets (docs/design/priority-buckets.md): the vertices SetActive(priority) made active
// wait in buckets of width delta (bucket = priority / delta), and each superstep's Domain::Active
// holds only the lowest non-empty bucket. The others stay deferred for later supersteps.
#pragma once

#include <medusa/backend/common/priorities.h>
#include <medusa/error.h>
#include <medusa/types.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

namespace medusa::host {

class PriorityBuckets {
 public:
  static constexpr std::uint64_t kNone = ~std::uint64_t{0};  // no priority / no bucket

  // n vertices; delta 0 is auto (chosen at the first superstep that gives a non-zero priority).
  void allocate(std::size_t n, std::uint64_t delta, double mean_out_degree) {
    next_.assign(n, kNone);
    pending_.assign(n, kNone);
    delta_ = delta;
    mean_out_degree_ = mean_out_degree > 0 ? mean_out_degree : 1.0;
  }
  // The slots SetActive(priority) folds into (KernelCtx::next_priority).
  std::uint64_t* next_priorities() { return next_.data(); }

  // End of a superstep: the vertices `activated` in it join the deferred ones (a vertex keeps its
  // lowest priority); the lowest bucket's vertices leave them for `current`, in ID order.
  void promote(const std::vector<VertexId>& activated, std::vector<VertexId>& current) {
    if (delta_ == 0) choose_delta(activated);
    const std::uint64_t width = delta_ == 0 ? kNone : delta_;  // (undecided: every priority so far is 0)
    for (VertexId v : activated) {
      const std::uint64_t p = next_[v] == kNone ? kNone - 1 : next_[v];  // (SetActive(~0): the last bucket)
      next_[v] = kNone;
      const std::uint64_t old = pending_[v];
      if (old == kNone) ++deferred_;
      if (p >= old) continue;
      pending_[v] = p;
      // A vertex that moved to a lower bucket leaves a stale entry behind; taking a bucket skips it.
      if (old == kNone || p / width != old / width) buckets_[p / width].push_back(v);
    }
    current.clear();
    bucket_ = kNone;
    while (current.empty() && !buckets_.empty()) {
      const auto lowest = buckets_.begin();
      for (VertexId v : lowest->second) {
        if (pending_[v] == kNone || pending_[v] / width != lowest->first) continue;  // stale
        pending_[v] = kNone;
        --deferred_;
        current.push_back(v);
      }
      if (!current.empty()) bucket_ = lowest->first;
      buckets_.erase(lowest);
    }
    std::sort(current.begin(), current.end());
  }

  std::uint64_t bucket() const { return bucket_; }      // the bucket promote() made current
  std::uint64_t deferred() const { return deferred_; }  // active vertices in higher buckets
  std::uint64_t delta() const { return delta_; }        // 0 while auto has not chosen yet

 private:
  void choose_delta(const std::vector<VertexId>& activated) {
    common::PrioritySum first;
    for (VertexId v : activated)
      if (next_[v] != kNone && next_[v] != 0) first.add(next_[v]);
    delta_ = common::auto_priority_delta(first, mean_out_degree_);
  }

  std::vector<std::uint64_t> next_;     // this superstep's lowest priority per vertex
  std::vector<std::uint64_t> pending_;  // a deferred vertex's priority, else kNone
  std::map<std::uint64_t, std::vector<VertexId>> buckets_;  // bucket -> its vertices (some stale)
  std::uint64_t delta_ = 0;
  double mean_out_degree_ = 1.0;
  std::uint64_t deferred_ = 0;
  std::uint64_t bucket_ = kNone;
};

}  // namespace medusa::host
