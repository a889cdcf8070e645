// One recording of a batch of supersteps (a BatchGraph) over the streams of every partition of a
// run, so that k partitions replay a batch as one partition does (docs/design/superstep-batches.md).
//
// The capture starts and ends on one stream, the origin (the last partition's: the one the end of
// each batched superstep runs on). The partitions' other compute streams are forked into it by an
// event at its start. The replica exchange's copy streams join it by themselves: they wait on
// events their partitions record inside the capture. At the end every stream still in the capture
// is joined back to the origin, as stream capture requires. A launch of the graph (at the end of
// the recording, and each replay) runs on the origin after the work the other compute streams had
// before it, and they wait for it. With one partition there is nothing to fork or join: it is the
// plain recording.
#pragma once

#include <medusa/backend/cuda/batch_graph.h>
#include <medusa/backend/cuda/buffer.h>
#include <medusa/backend/cuda/check.h>
#include <medusa/error.h>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

namespace medusa::gpu {

// The id of the capture `s` takes part in; 0 when it is not capturing.
inline unsigned long long capture_id(cudaStream_t s) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  unsigned long long id = 0;
  MEDUSA_CUDA_CHECK(cudaStreamGetCaptureInfo(s, &status, &id));
  return status == cudaStreamCaptureStatusActive ? id : 0;
}

class BatchRecording {
 public:
  // `origin`: where the capture starts and ends; `forked`: the partitions' other compute streams;
  // `sides`: streams that may join the capture through events (copy streams). All on the current
  // device, which stays current for every call.
  void set_streams(cudaStream_t origin, const std::vector<cudaStream_t>& forked, std::vector<cudaStream_t> sides) {
    MEDUSA_REQUIRE(!graph_.recording(), "internal: the streams of a batch recording change while it records");
    origin_ = origin;
    forked_.clear();
    for (cudaStream_t s : forked)  // (partitions that share a GPU share its stream)
      if (s != origin && std::find(forked_.begin(), forked_.end(), s) == forked_.end()) forked_.push_back(s);
    sides_ = std::move(sides);
    if (!captured_) captured_ = std::make_unique<Event>();
    if (!launched_) launched_ = std::make_unique<Event>();
  }
  bool recording() const { return graph_.recording(); }
  // Whether the last recording launched was the same work as the one before it.
  bool repeated() const { return graph_.repeated(); }

  void begin() {
    graph_.begin(origin_);
    for (cudaStream_t s : forked_) wait(s, origin_, *captured_);
  }
  // Ends the recording and launches it; nothing when it ended already (the partitions read their
  // batches back one after another, and the first ends the recording for all).
  void end_and_launch() {
    if (!graph_.recording()) return;
    join_origin();
    graph_.end(origin_);
    launch();
  }
  // Launches the last recording again.
  void replay() { launch(); }
  // A Run that throws: drops a recording in progress.
  void abandon() { graph_.abandon(origin_); }

 private:
  // `waiter`'s later work waits for what `s` was given until now.
  static void wait(cudaStream_t waiter, cudaStream_t s, const Event& e) {
    MEDUSA_CUDA_CHECK(cudaEventRecord(e.get(), s));
    MEDUSA_CUDA_CHECK(cudaStreamWaitEvent(waiter, e.get(), 0));
  }
  void join_origin() {
    const unsigned long long id = capture_id(origin_);
    for (const std::vector<cudaStream_t>* streams : {&forked_, &sides_})
      for (cudaStream_t s : *streams)
        if (id != 0 && capture_id(s) == id) wait(origin_, s, *captured_);
  }
  // The graph runs after what the partitions' streams were given before (their batch's state
  // uploaded), and what they are given next runs after it.
  void launch() {
    for (cudaStream_t s : forked_) wait(origin_, s, *launched_);
    graph_.replay(origin_);
    for (cudaStream_t s : forked_) wait(s, origin_, *launched_);
  }

  BatchGraph graph_;
  cudaStream_t origin_ = nullptr;
  std::vector<cudaStream_t> forked_, sides_;
  // Recorded and waited on at once, one stream after another: inside the capture, and outside it.
  std::unique_ptr<Event> captured_, launched_;
};

}  // namespace medusa::gpu
