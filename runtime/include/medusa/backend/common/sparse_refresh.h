// The sparse replica refresh (docs/multi-gpu.md, "Sparse refresh"): per route, the owner keeps a
// shadow of the values it sent last time; a refresh compares each routed vertex's field with it,
// updates the shadow and lists the replicas that changed. The copy then moves either the whole
// shadow (dense, as before) or only the listed replicas (sparse). Either way the target's replica
// range equals the shadow afterwards, so the results do not depend on the choice.
//
// That holds while nothing but the refresh writes a replica range: with one hop of replicas
// (vertex-side launches run on owned vertices only). With more hops a partition computes on its
// outer replicas, so every route stays dense. The SetActive flags stay dense too: the target
// clears its flags each superstep, so they never equal what the owner sent.
//
// This file holds the choice and a host model of the diff; the CUDA kernels are in
// backend/cuda/sparse_refresh.cuh.
#pragma once

#include <medusa/tuning.h>
#include <medusa/types.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace medusa::common {

enum class RefreshCopy { Dense, Sparse };

// Why no route of a run may go sparse, or empty when routes may. `hops`: replication hops.
inline std::string sparse_refresh_refusal(std::uint32_t hops, Toggle setting) {
  if (setting == Toggle::Off) return "dense: switched off (tuning.sparseRefresh, MEDUSA_SPARSE_REFRESH)";
  if (hops > 1) return "dense: " + std::to_string(hops) + "-hop replicas are written by their partition";
  return {};
}

// Auto goes sparse while the last refresh changed at most this share of a route: below it, the
// scattered writes of the changed replicas cost less than one bulk copy of the route.
inline constexpr double kSparseRefreshShare = 0.25;

// The copy a route's field takes in this refresh.
//   allowed:       no refusal for the run, and the route's two ends can write to each other
//                  (one GPU, or peer access: the target's replicas are written by a kernel)
//   shadow_current: a dense refresh was issued since the shadow was last made stale (a Run's
//                  start): only then does the target hold what the shadow holds
//   last_changed:  replicas the last diff of this route's field listed (route_length when unknown)
inline RefreshCopy choose_refresh_copy(Toggle setting, bool allowed, bool shadow_current,
                                       std::uint64_t last_changed, std::uint64_t route_length) {
  if (!allowed || !shadow_current || setting == Toggle::Off) return RefreshCopy::Dense;
  if (setting == Toggle::On) return RefreshCopy::Sparse;
  return static_cast<double>(last_changed) <= kSparseRefreshShare * static_cast<double>(route_length)
             ? RefreshCopy::Sparse
             : RefreshCopy::Dense;
}

// The diff the CUDA kernel makes, on the host (a model for the tests): for each routed vertex i,
// `size` bytes of field value src[index[i]] against shadow[i]; a value that differs is written to
// the shadow and i appended to `changed` (the kernel appends in any order). Returns how many.
inline std::size_t diff_into_shadow(std::byte* shadow, const std::byte* src, const VertexId* index,
                                    std::size_t n, std::size_t size, std::vector<VertexId>& changed) {
  changed.clear();
  for (std::size_t i = 0; i < n; ++i) {
    const std::byte* value = src + static_cast<std::size_t>(index[i]) * size;
    if (std::memcmp(shadow + i * size, value, size) == 0) continue;
    std::memcpy(shadow + i * size, value, size);
    changed.push_back(static_cast<VertexId>(i));
  }
  return changed.size();
}

// The sparse copy: the listed replicas of the range `replicas` take their shadow values.
inline void scatter_changed(std::byte* replicas, const std::byte* shadow, const std::vector<VertexId>& changed,
                            std::size_t size) {
  for (VertexId i : changed) std::memcpy(replicas + static_cast<std::size_t>(i) * size, shadow + i * size, size);
}

}  // namespace medusa::common
