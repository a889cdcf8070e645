// The next superstep's source messages, computed by this superstep's VERTEX step
// (VertexStepThenMessage in gather.cuh): PageRank's superstep then skips the pass that computes one
// message per source vertex, which reads every vertex's rank and degree again right after the
// gather wrote them. docs/design/pull-fusion.md, "The next superstep's messages".
//
// The engine meets the two functors in two calls (the fused pass's Work, then the VERTEX launch's
// element), so the element names the Work it may compute for: medusa-cc emits
// `using medusa_next_source_work = ...` in a VERTEX element that its iteration function launches
// right after a pass of that Work (next_source_work). The rest is a speculation the engine checks
// before using it: the prefetched messages replace the pass only when the pass is for the same
// Work (type and bytes) and no user code ran since the VERTEX step that computed them. Otherwise
// the pass runs as before, so a wrong guess costs the prefetch's writes and nothing else.
#pragma once

#include <medusa/tuning.h>
#include <medusa/backend/common/pull_fusion.h>
#include <medusa/backend/cuda/batch_policy.h>
#include <medusa/backend/cuda/buffer.h>

#include <cuda_runtime.h>

#include <any>
#include <array>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

namespace medusa::gpu {

// The Work a VERTEX element may compute the next superstep's source messages of (void: none).
template <class Element, class = void>
struct next_source_work {
  using type = void;
};
template <class Element>
struct next_source_work<Element, std::void_t<typename Element::medusa_next_source_work>> {
  using type = typename Element::medusa_next_source_work;
};

template <class Msg>
class SourcePrefetcher {
 public:
  explicit SourcePrefetcher(Toggle mode) : mode_(mode) {}
  // The mode of one Run (a source schedule: schedule.h).
  void set_mode(Toggle mode) { mode_ = mode; }
  // Prefetches computed and then not used, this many in a row, stop the planning: the iteration
  // does not repeat its pass (user code run in between, another Work, a Work whose padding bytes
  // differ between copies), and each would cost a prefetch's writes.
  static constexpr std::uint32_t kMaxWasted = 3;
  // Tuning::sourcePrefetch Auto (the default) prefetches on graphs of at most this many edges per
  // vertex. There the skipped pass is a large share of a superstep; on denser graphs it is a small
  // share of the gather, and the gather's heavier VERTEX step costs more (docs/tuning.md,
  // "Measurements behind the defaults").
  static constexpr std::uint64_t kMaxAverageDegree = 8;
  // Left free on the device after the spare buffer: the prefetch is an optimization, never the
  // reason a run fails for memory.
  static constexpr std::size_t kFreeMargin = std::size_t{64} << 20;

  // Whether the pass that computes `work`'s messages may be skipped: the prefetched ones are its
  // result (`user_launches`: the engine's count of launches that ran user code). Then they trade
  // places with `current`, the engine's buffer of source messages.
  template <class Work>
  bool take(const Work& work, std::uint64_t user_launches, DeviceBuffer<Msg>& current) {
    const bool ready = valid_ && launches_ == user_launches && tag_ == tag<Work>() && same_bytes(work);
    if (valid_ && !ready) ++wasted_;
    valid_ = false;
    if (!ready) return false;
    wasted_ = 0;
    std::swap(current, next_);
    ++swaps_;
    ++hits_;
    return true;
  }

  // The pass of `work` about to be gathered: a VERTEX step joining the gather may compute its
  // messages for the next superstep, when medusa-cc proved them steady (is_steady_source_message).
  template <class Work>
  void plan(const Work& work, std::uint64_t vertices, std::uint64_t edges) {
    planned_ = false;
    if constexpr (common::is_steady_source_message<Work>::value && sizeof(Work) <= kMaxWorkBytes) {
      if (!wanted(vertices, edges) || wasted_ >= kMaxWasted) return;
      if (tag_ != tag<Work>() || !same_bytes(work)) {  // (a repeating pass keeps the last copy)
        work_ = work;
        tag_ = tag<Work>();
        size_ = sizeof(Work);
        std::memcpy(bytes_.data(), static_cast<const void*>(&work), sizeof(Work));
      }
      planned_ = true;
    }
  }
  // The planned Work, when it is `Work` (the VERTEX element's next_source_work) and the spare
  // buffer exists: the VERTEX step then writes its messages to next(). Null otherwise.
  template <class Work>
  const Work* planned(std::uint64_t vertices) {
    if (!planned_ || tag_ != tag<Work>() || !ensure_spare(vertices)) return nullptr;
    return std::any_cast<Work>(&work_);
  }
  Msg* next() const { return next_.data(); }
  // After the gather was issued: `computed`, whether its VERTEX step computes the planned messages.
  void issued(bool computed, std::uint64_t user_launches) {
    valid_ = planned_ && computed;
    launches_ = user_launches;
    planned_ = false;
  }
  void invalidate() { valid_ = planned_ = false; }
  bool valid() const { return valid_; }

  // ---- Batches (superstep_batch.cuh): the trades of supersteps after a stop are undone ----
  void batch_started() {
    swaps_ = 0;
    replaying_ = false;
  }
  void step_ended(std::uint32_t k) { swaps_by_step_[k] = swaps_; }
  void replayed() {  // (a replay's trades are its recording's; the host counted none of them)
    swaps_ = swaps_by_step_.back();
    replaying_ = true;
  }
  // Superstep k of the batch stopped the run: the later ones' gathers did nothing, so their trades
  // are undone and not counted, and nothing is known of the spare buffer.
  void stopped_at(std::uint32_t k, DeviceBuffer<Msg>& current) {
    const std::uint32_t after = swaps_ - swaps_by_step_[k];
    if ((after & 1u) != 0) std::swap(current, next_);
    if (!replaying_) hits_ -= after;
    invalidate();
  }

  // Supersteps whose pass the host skipped, since the last call.
  std::uint32_t take_hits() { return std::exchange(hits_, 0); }

 private:
  static constexpr std::size_t kMaxWorkBytes = 256;
  bool wanted(std::uint64_t vertices, std::uint64_t edges) const {
    return mode_ == Toggle::On || (mode_ == Toggle::Auto && edges <= kMaxAverageDegree * vertices);
  }
  template <class Work>
  static const void* tag() {
    static const char unique = 0;
    return &unique;
  }
  template <class Work>
  bool same_bytes(const Work& work) const {
    if constexpr (std::is_empty_v<Work>) return size_ == sizeof(Work);  // (its byte is indeterminate)
    else return size_ == sizeof(Work) && std::memcmp(bytes_.data(), static_cast<const void*>(&work), sizeof(Work)) == 0;
  }
  bool ensure_spare(std::uint64_t vertices) {
    if (next_.size() >= vertices) return true;
    std::size_t free = 0, total = 0;
    if (mode_ == Toggle::Off || cudaMemGetInfo(&free, &total) != cudaSuccess ||
        free < vertices * sizeof(Msg) + kFreeMargin) {
      cudaGetLastError();
      mode_ = Toggle::Off;
      return false;
    }
    next_.allocate(vertices);
    return true;
  }

  Toggle mode_;
  bool planned_ = false, valid_ = false, replaying_ = false;
  std::uint64_t launches_ = 0;
  std::any work_;  // the planned Work
  const void* tag_ = nullptr;
  std::size_t size_ = 0;
  std::array<unsigned char, kMaxWorkBytes> bytes_{};
  std::uint32_t wasted_ = 0, hits_ = 0;
  std::uint32_t swaps_ = 0;
  std::array<std::uint32_t, BatchPolicy::kLength> swaps_by_step_{};
  DeviceBuffer<Msg> next_;
};

}  // namespace medusa::gpu
