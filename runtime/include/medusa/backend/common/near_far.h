// Priority buckets as a near queue and a far pile (docs/design/priority-buckets.md): the per-vertex
// steps and the decisions of the CUDA engine's bucket step (cuda/engine/priority_frontier.cuh),
// written once for the kernels, which run them in parallel, and for a host test, which runs them in
// order against the host engine's buckets (host/priority_buckets.h, the reference).
//
// At a superstep's end, the vertices activated in it (A) fold their new priorities into `waiting`.
// Every other waiting vertex is on the far pile, whose vertices all lie in buckets >= far_floor.
// - Near: the lowest bucket among A's vertices is below far_floor (or nothing else waits). It is the
//   lowest of all, and A's vertices in it are the next frontier. The rest of A joins the pile.
//   Cost: O(|A|).
// - Far: otherwise, A joins the pile, and the pile is split once: its lowest bucket becomes the
//   next frontier, stale entries (vertices taken since) are dropped, and the rest moves to the
//   other pile. Cost: O(pile), once per bucket rather than per superstep.
// A vertex is on the pile at most once (`in_pile`), so a pile needs V entries at most. Either way
// the next frontier holds all of the lowest bucket's waiting vertices, as on the host, so both
// engines run the same supersteps.
#pragma once

#include <medusa/types.h>

#include <cstdint>

namespace medusa::common {

inline constexpr std::uint64_t kNoPriority = ~std::uint64_t{0};  // a free slot; not waiting; no bucket

// One partition's bucket step, on the device. Zero but for the two minima (kNoPriority) at start.
struct NearFarState {
  unsigned long long waiting;        // waiting vertices, this superstep's newly joined ones aside
  unsigned long long far_floor;      // the pile's waiting vertices are in this bucket or above
  unsigned long long activated;      // this superstep's activated vertices, A (the compaction's count)
  unsigned long long joined;         // those of A that were not waiting before
  unsigned long long activated_min;  // the lowest bucket in A (kNoPriority: A is empty)
  unsigned long long pile_min;       // the lowest bucket on the pile (found by a far step only)
  unsigned long long taken;          // vertices of the next frontier
  unsigned long long pile_count[2];
  unsigned pile_side;    // the pile in use; a far step moves the rest to the other
  unsigned blocks_done;  // (the split kernel's last block ends the step)
};

inline NearFarState initial_near_far_state() {
  NearFarState s{};
  s.activated_min = s.pile_min = kNoPriority;
  return s;
}

// `width`: delta, or kNoPriority while the auto delta is undecided (every priority is bucket 0).
MEDUSA_HD inline std::uint64_t bucket_of(std::uint64_t priority, std::uint64_t width) {
  return priority == kNoPriority ? kNoPriority : priority / width;
}

// Whether the next frontier comes from A alone (near) rather than from a split of the pile (far).
MEDUSA_HD inline bool takes_near(const NearFarState& s) { return s.waiting == 0 || s.activated_min < s.far_floor; }

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

// A vertex of A after the fold: with `near`, taken into the next frontier when it is in `bucket`
// (it stops waiting; an entry it has on the pile goes stale). Otherwise it must be on the pile:
// returns `piled` when the caller appends it.
struct NearStep {
  bool taken, piled;
};
MEDUSA_HD inline NearStep near_step(std::uint64_t* waiting, std::uint8_t* in_pile, VertexId v, bool near,
                                    std::uint64_t bucket, std::uint64_t width) {
  if (near && bucket_of(waiting[v], width) == bucket) {
    waiting[v] = kNoPriority;
    return {true, false};
  }
  if (in_pile[v] != 0) return {false, false};
  in_pile[v] = 1;
  return {false, true};
}

// A pile entry in a far step that takes `bucket`: dropped when stale, taken when in the bucket, else
// kept for the other pile.
enum class SplitStep { Dropped, Taken, Kept };
MEDUSA_HD inline SplitStep split_step(std::uint64_t* waiting, std::uint8_t* in_pile, VertexId v,
                                      std::uint64_t bucket, std::uint64_t width) {
  const std::uint64_t w = waiting[v];
  if (w == kNoPriority) {
    in_pile[v] = 0;
    return SplitStep::Dropped;
  }
  if (bucket_of(w, width) != bucket) return SplitStep::Kept;
  waiting[v] = kNoPriority;
  in_pile[v] = 0;
  return SplitStep::Taken;
}

// After the take: the step's outcome for the step counters, and the state made ready for the next
// superstep (the pile that was split emptied and the other made current).
struct NearFarOutcome {
  std::uint64_t bucket;             // of the next frontier (kNoPriority: none)
  std::uint64_t bucketed_vertices;  // the next frontier and every vertex still waiting
};
MEDUSA_HD inline NearFarOutcome finish_near_far_step(NearFarState& s) {
  const bool near = takes_near(s);
  const NearFarOutcome out{s.taken == 0 ? kNoPriority : near ? s.activated_min : s.pile_min, s.waiting + s.joined};
  s.waiting = s.waiting + s.joined - s.taken;
  if (out.bucket != kNoPriority) s.far_floor = out.bucket + 1;
  if (!near) {
    s.pile_count[s.pile_side] = 0;
    s.pile_side ^= 1u;
  }
  s.activated = s.joined = s.taken = 0;
  s.activated_min = s.pile_min = kNoPriority;
  return out;
}

}  // namespace medusa::common
