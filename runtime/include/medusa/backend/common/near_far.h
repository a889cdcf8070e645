// Priority buckets as a near queue and a far pile (docs/design/priority-buckets.md): the per-vertex
// steps and the decisions of the CUDA engine's bucket step (cuda/engine/priority_frontier.cuh),
// written once for the kernels, which run them in parallel, and for a host test, which runs them in
// order against the host engine's buckets (host/priority_buckets.h, the reference).
//
// At a superstep's end, each vertex activated in it (A) folds its new priority into `waiting`, as
// the activated flags are compacted. Every waiting vertex outside A is on the far pile, in a bucket
// >= far_floor. So a vertex of A below far_floor is a near candidate (every vertex of A is, while
// nothing else waits); any other joins the pile then (unless it is there already). Then one pass
// takes the lowest bucket:
// - Near: some candidate exists, or nothing else waits. The candidates' lowest bucket is the lowest of all, and its
//   candidates are the next frontier; the other candidates join the pile. Cost: O(candidates).
// - Far: none. The pile is split once: its lowest bucket becomes the next frontier, stale entries
//   (vertices taken since) are dropped, the rest moves to the other pile. The bucket split is a
//   lower bound kept as vertices join (`pile_low`) rather than a pass of its own; it is exact
//   unless every vertex that set it was taken by a near step since. Then the split takes nothing,
//   finds the exact minimum of the rest, and a second split takes it (`retry`). Cost: O(pile), once
//   per bucket rather than per superstep.
// A vertex is on the pile at most once (`in_pile`), so a pile needs V entries at most. Either way
// the next frontier holds all of the lowest bucket's waiting vertices, as on the host, so both
// engines run the same supersteps.
#pragma once

#include <medusa/types.h>

#include <cstdint>

namespace medusa::common {

inline constexpr std::uint64_t kNoPriority = ~std::uint64_t{0};  // a free slot; not waiting; no bucket

// One partition's bucket step, on the device. Zero but for the minima (kNoPriority) at start.
struct NearFarState {
  unsigned long long waiting;     // waiting vertices, this superstep's newly joined ones aside
  unsigned long long far_floor;   // the pile's waiting vertices are in this bucket or above
  unsigned long long activated;   // this superstep's activated vertices, A (the compaction's count)
  unsigned long long joined;      // those of A that were not waiting before
  unsigned long long candidates;  // those of A below far_floor (the near queue's length)
  unsigned long long near_min;    // the candidates' lowest bucket
  unsigned long long pile_low;    // no waiting vertex on the pile is in a lower bucket
  unsigned long long kept_min;    // the lowest bucket a split kept (exact: the next pile_low)
  unsigned long long taken;       // vertices of the next frontier
  unsigned long long pile_count[2];
  unsigned pile_side;    // the pile in use; a split moves the rest to the other
  unsigned blocks_done;  // (the last block of a kernel ends its part of the step)
  unsigned retry;        // the far split took nothing: the second split takes kept_min's bucket
  unsigned unused;
};

inline NearFarState initial_near_far_state() {
  NearFarState s{};
  s.near_min = s.pile_low = s.kept_min = kNoPriority;
  return s;
}

// `width`: delta, or kNoPriority while the auto delta is undecided (every priority is bucket 0).
MEDUSA_HD inline std::uint64_t bucket_of(std::uint64_t priority, std::uint64_t width) {
  return priority == kNoPriority ? kNoPriority : priority / width;
}
MEDUSA_HD inline std::uint64_t lower(std::uint64_t a, std::uint64_t b) { return a < b ? a : b; }

// Vertices of A below this bucket are near candidates: far_floor, or every vertex of A while
// nothing else waits.
MEDUSA_HD inline std::uint64_t near_floor(const NearFarState& s) { return s.waiting == 0 ? kNoPriority : s.far_floor; }
// Whether the next frontier comes from the near candidates (near) rather than a split of the pile.
MEDUSA_HD inline bool takes_near(const NearFarState& s) { return s.waiting == 0 || s.candidates != 0; }
// The bucket a far step's split takes: a lower bound of the pile's waiting vertices (kNoPriority:
// none waits).
MEDUSA_HD inline std::uint64_t far_bucket(const NearFarState& s) {
  return s.pile_low == kNoPriority || s.pile_low >= s.far_floor ? s.pile_low : s.far_floor;
}

// A vertex of A: the lowest priority it was given (its slot reset) joins its waiting one, the lower
// kept; SetActive() without a priority slot is the last bucket, as on the host.
struct Folded {
  std::uint64_t given;  // the slot's priority (kNoPriority: none)
  bool joined;          // it was not waiting before
};
MEDUSA_HD inline Folded fold_activated(std::uint64_t* next_priority, std::uint64_t* waiting, VertexId v) {
  const std::uint64_t given = next_priority[v];
  next_priority[v] = kNoPriority;
  const std::uint64_t p = given == kNoPriority ? kNoPriority - 1 : given;
  const std::uint64_t old = waiting[v];
  if (p < old) waiting[v] = p;
  return {given, old == kNoPriority};
}

// A vertex of A after the fold: a near candidate (below `floor`, near_floor()), or on the pile (`piled`: the
// caller appends it; `bucket` goes into pile_low).
struct Classified {
  bool candidate, piled;
  std::uint64_t bucket;
};
MEDUSA_HD inline Classified classify_activated(const std::uint64_t* waiting, std::uint8_t* in_pile, VertexId v,
                                               std::uint64_t floor, std::uint64_t width) {
  const std::uint64_t bucket = bucket_of(waiting[v], width);
  if (bucket < floor) return {true, false, bucket};
  if (in_pile[v] != 0) return {false, false, bucket};
  in_pile[v] = 1;
  return {false, true, bucket};
}

// A near candidate in a near step that takes `bucket` (the candidates' lowest): taken into the next
// frontier (it stops waiting; an entry it has on the pile goes stale), or else on the pile as above.
struct NearStep {
  bool taken, piled;
  std::uint64_t bucket;
};
MEDUSA_HD inline NearStep near_step(std::uint64_t* waiting, std::uint8_t* in_pile, VertexId v, std::uint64_t bucket,
                                    std::uint64_t width) {
  const std::uint64_t mine = bucket_of(waiting[v], width);
  if (mine == bucket) {
    waiting[v] = kNoPriority;
    return {true, false, mine};
  }
  if (in_pile[v] != 0) return {false, false, mine};
  in_pile[v] = 1;
  return {false, true, mine};
}

// A pile entry in a split that takes `bucket`: dropped when stale, taken when in the bucket, else
// kept for the other pile (`bucket` of a kept one: its own, for kept_min).
enum class SplitStep { Dropped, Taken, Kept };
struct Split {
  SplitStep step;
  std::uint64_t bucket;
};
MEDUSA_HD inline Split split_step(std::uint64_t* waiting, std::uint8_t* in_pile, VertexId v, std::uint64_t bucket,
                                  std::uint64_t width) {
  const std::uint64_t w = waiting[v];
  if (w == kNoPriority) {
    in_pile[v] = 0;
    return {SplitStep::Dropped, kNoPriority};
  }
  const std::uint64_t mine = bucket_of(w, width);
  if (mine != bucket) return {SplitStep::Kept, mine};
  waiting[v] = kNoPriority;
  in_pile[v] = 0;
  return {SplitStep::Taken, mine};
}

// After a split (its last block): the rest is the pile, and kept_min its exact lowest bucket.
MEDUSA_HD inline void end_split(NearFarState& s) {
  s.pile_count[s.pile_side] = 0;
  s.pile_side ^= 1u;
  s.pile_low = s.kept_min;
  s.kept_min = kNoPriority;
}
// After a far step's split: whether it took nothing while vertices wait (its bucket was below them
// all), so that a second split must take the lowest bucket, now pile_low.
MEDUSA_HD inline bool split_again(const NearFarState& s) { return s.taken == 0 && s.waiting + s.joined != 0; }

// The step's outcome for the step counters, once its next frontier (`bucket`) is taken; the state
// is made ready for the next superstep.
struct NearFarOutcome {
  std::uint64_t bucket;             // of the next frontier (kNoPriority: none)
  std::uint64_t bucketed_vertices;  // the next frontier and every vertex still waiting
};
MEDUSA_HD inline NearFarOutcome finish_near_far_step(NearFarState& s, std::uint64_t bucket) {
  const NearFarOutcome out{s.taken == 0 ? kNoPriority : bucket, s.waiting + s.joined};
  s.waiting = s.waiting + s.joined - s.taken;
  if (out.bucket != kNoPriority) s.far_floor = out.bucket + 1;
  if (s.waiting == 0) s.pile_low = kNoPriority;  // (what the pile holds is stale)
  s.activated = s.joined = s.candidates = s.taken = 0;
  s.near_min = kNoPriority;
  s.retry = 0;
  return out;
}

}  // namespace medusa::common
