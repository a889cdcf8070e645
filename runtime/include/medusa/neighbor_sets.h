// Neighbour sets: an ELIST functor reads the out-neighbours of its vertex (v.neighbors()) and of an
// edge's endpoints (el[i].tail_neighbors(), el[i].head_neighbors()) and intersects them
// (intersect_count, for_each_common), e.g. to count triangles.
//
// A program that calls any of them is marked kUsesNeighborSets by medusa-cc; the runtime then keeps
// every CSR row sorted by the IDs it numbers vertices with on the device (vertex_order.h), so two
// rows intersect without sorting. operator[] hands out the user's vertex IDs; their order is the
// device's, which is the user's order only in input vertex order. On k partitions (and MPI ranks)
// a partition's edges hold part of each row, so each partition keeps every local vertex's whole row
// besides, sorted by the user's IDs (partition/plan.h NeighborRows).
//
// Plain C++ and MEDUSA_HD: the same code runs on both backends and compiles for the user's IDE.
#pragma once

#include <medusa/types.h>

#include <cstdint>

namespace medusa {

// A read-only view of one vertex's sorted out-neighbour row.
class NeighborSet {
 public:
  MEDUSA_HD NeighborSet() = default;
  // `ids`: the row (device IDs, ascending); `global_id`: device ID -> user ID, or null if equal.
  MEDUSA_HD NeighborSet(const VertexId* ids, std::uint32_t size, const VertexId* global_id)
      : ids_(ids), size_(size), global_id_(global_id) {}

  MEDUSA_HD std::uint32_t size() const { return size_; }
  MEDUSA_HD bool empty() const { return size_ == 0; }
  // The i-th neighbour's vertex ID (as v.id() would give it).
  MEDUSA_HD VertexId operator[](std::uint32_t i) const { return user_id(ids_[i]); }

  // (for intersect_count / for_each_common)
  MEDUSA_HD const VertexId* device_ids() const { return ids_; }
  MEDUSA_HD VertexId user_id(VertexId device_id) const {
    return global_id_ != nullptr ? global_id_[device_id] : device_id;
  }

 private:
  const VertexId* ids_ = nullptr;
  std::uint32_t size_ = 0;
  const VertexId* global_id_ = nullptr;
};

namespace detail {

// A merge walks both rows (min + max steps); binary searches from the shorter row into the longer
// take min * log2(max). Searching pays once the longer row is this many times the shorter: a hub
// then costs its small neighbours' degree, not its own, and no thread walks a whole hub row.
inline constexpr std::uint32_t kSearchRatio = 16;

// First position in [lo, n) of `row` whose ID is >= x (row ascending).
MEDUSA_HD inline std::uint32_t lower_bound(const VertexId* row, std::uint32_t lo, std::uint32_t n, VertexId x) {
  std::uint32_t count = n - lo;
  while (count > 0) {
    const std::uint32_t half = count / 2;
    if (row[lo + half] < x) {
      lo += half + 1;
      count -= half + 1;
    } else {
      count = half;
    }
  }
  return lo;
}

// Calls found(device ID) for each ID of the shorter row that the longer row holds, ascending.
template <class Found>
MEDUSA_HD inline void visit_common(const NeighborSet& a, const NeighborSet& b, Found&& found) {
  const bool a_shorter = a.size() <= b.size();
  const VertexId* small = a_shorter ? a.device_ids() : b.device_ids();
  const VertexId* large = a_shorter ? b.device_ids() : a.device_ids();
  const std::uint32_t ns = a_shorter ? a.size() : b.size();
  const std::uint32_t nl = a_shorter ? b.size() : a.size();
  if (ns == 0) return;
  if (nl / kSearchRatio >= ns) {
    std::uint32_t lo = 0;
    for (std::uint32_t i = 0; i < ns && lo < nl; ++i) {
      lo = lower_bound(large, lo, nl, small[i]);
      if (lo < nl && large[lo] == small[i]) found(small[i]);
    }
    return;
  }
  std::uint32_t i = 0, j = 0;
  while (i < ns && j < nl) {
    if (small[i] < large[j]) {
      ++i;
    } else if (large[j] < small[i]) {
      ++j;
    } else {
      found(small[i]);
      ++i;
      ++j;
    }
  }
}

}  // namespace detail

// How many vertices both sets hold.
MEDUSA_HD inline std::uint32_t intersect_count(const NeighborSet& a, const NeighborSet& b) {
  std::uint32_t n = 0;
  detail::visit_common(a, b, [&n](VertexId) { ++n; });
  return n;
}

// Calls f(id) for each vertex ID both sets hold (in the device's order; see the file comment).
template <class F>
MEDUSA_HD inline void for_each_common(const NeighborSet& a, const NeighborSet& b, F&& f) {
  detail::visit_common(a, b, [&](VertexId device_id) { f(a.user_id(device_id)); });
}

}  // namespace medusa
