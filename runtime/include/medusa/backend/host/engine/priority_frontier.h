// SetActive(priority) in the host PartitionEngine (docs/design/priority-buckets.md): the vertices a
// superstep activated wait in buckets (priority_buckets.h), and Domain::Active is the lowest
// bucket's. One partition only. The CUDA engine's counterpart is cuda/engine/priority_frontier.cuh.
#pragma once

#include <medusa/backend/common/priorities.h>
#include <medusa/backend/common/step_counts.h>
#include <medusa/backend/host/priority_buckets.h>
#include <medusa/config.h>
#include <medusa/device_api.h>

#include <string>

namespace medusa::host {

// A part of PartitionEngine<Program> (= Engine).
template <class Program, class Engine>
class PriorityFrontier {
 public:
  // Whether SetActive(priority) orders by bucket: in single-partition runs (common/priorities.h).
  bool priority_buckets() const { return Program::uses.priorities && self().conf_.gpuCount == 1; }

 protected:
  Engine& self() { return static_cast<Engine&>(*this); }
  const Engine& self() const { return static_cast<const Engine&>(*this); }

  // No vertex waiting; delta as configured (0: auto). Kept across Runs.
  void allocate_priorities(KernelCtx<typename Program::Message>& ctx) {
    if (!priority_buckets()) return;
    const Engine& e = self();
    buckets_.allocate(e.vertex_count_, e.conf_.priorityDelta,
                      e.vertex_count_ == 0 ? 1.0 : static_cast<double>(e.edge_count_) / e.vertex_count_);
    ctx.next_priority = buckets_.next_priorities();
  }

  // A superstep's end: the flagged vertices become Domain::Active, or join the buckets, whose
  // lowest one does.
  void promote_vertex_frontier() {
    if (priority_buckets())
      self().vertex_frontier_.promote(buckets_);
    else
      self().vertex_frontier_.promote();
  }

  // The bucket fields of a superstep's StepCounts (the session's report and stop rule).
  void count_buckets(common::StepCounts& c) const {
    if (!priority_buckets()) return;
    c.priority_buckets = true;
    c.bucket = buckets_.bucket();
    c.bucket_width = buckets_.delta();
    c.bucketed_vertices = buckets_.deferred() + self().vertex_frontier_.current().size();
  }

  // The report's words on priorities ("" for a program without them).
  std::string describe_priorities() const {
    if (!Program::uses.priorities) return "";
    if (priority_buckets()) return "; priority buckets of delta " + common::describe_priority_delta(self().conf_);
    return "; " + common::describe_unordered_priorities(common::priorities_unordered_because(self().conf_.gpuCount));
  }

 private:
  PriorityBuckets buckets_;
};

}  // namespace medusa::host
