// The vertices of one partition binned by their slot count for the per-vertex folds (gather.cuh):
// small ones share a warp, medium ones get a warp each, heavy ones are cut into block-sized chunks.
#pragma once

#include <medusa/backend/cuda/buffer.h>
#include <medusa/backend/cuda/check.h>
#include <medusa/config.h>
#include <medusa/types.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace medusa::gpu {

// The heavy bin on the device (DegreeBins).
template <class Msg>
struct HeavyChunks {
  const VertexId* heavy;
  const std::uint32_t* owner;        // chunk -> index into heavy
  const EdgeIndex* chunk_begin;
  std::uint64_t chunks;
  const std::uint32_t* first_chunk;  // heavy vertex -> its first chunk (heavy count + 1)
  Msg* partials;
  std::uint8_t* partial_flags;       // per chunk: has a value, sent
  std::uint32_t* chunks_done;        // per heavy vertex, 0 between launches (gather_bins_kernel)
};

// The vertices of one partition binned by slot count (lists on the device), with the heavy
// vertices' chunks and room for one partial fold per chunk.
class DegreeBins {
 public:
  static constexpr EdgeIndex kSmallSlots = 16;
  static constexpr EdgeIndex kMediumSlots = 2048;
  static constexpr EdgeIndex kChunkSlots = 4096;
  // The small bin gets a thread per vertex when its vertices average at most this many slots
  // (a road network's 2-3), four lanes otherwise: four lanes for two slots leave most idle.
  static constexpr EdgeIndex kThreadAverageSlots = 4;
  // Graphs of at most this many vertices fold every bin in one launch when more than one bin has
  // vertices: their passes are short next to four launches in a chain (docs/tuning.md,
  // "Measurements behind the defaults").
  // Tuning::gatherOneLaunch (MEDUSA_GATHER_LAUNCHES=one|bins) overrides.
  static constexpr std::uint64_t kOneLaunchMaxVertices = std::uint64_t{1} << 18;

  // Device bytes build() allocates for vertices [0, n) with slots (offsets[v+1]-offsets[v])*m
  // (for the memory plan; nothing is allocated).
  static std::uint64_t device_bytes(const std::vector<EdgeIndex>& offsets, std::uint64_t n,
                                    std::uint32_t m, std::size_t message_bytes) {
    std::uint64_t listed = 0, heavy = 0, chunks = 0;
    for (std::uint64_t v = 0; v < n; ++v) {
      const EdgeIndex slots = (offsets[v + 1] - offsets[v]) * m;
      listed += slots > kSmallSlots;
      heavy += slots > kMediumSlots;
      if (slots > kMediumSlots) chunks += (slots + kChunkSlots - 1) / kChunkSlots;
    }
    return listed * sizeof(VertexId) + (2 * heavy + 1) * sizeof(std::uint32_t) +
           chunks * (sizeof(std::uint32_t) + sizeof(EdgeIndex) + message_bytes + 2);
  }

  void build(const std::vector<EdgeIndex>& offsets, std::uint64_t n, std::uint32_t m,
             std::size_t message_bytes, int sm_count, const Tuning& tuning, cudaStream_t s) {
    std::vector<VertexId> medium, heavy;
    std::vector<std::uint32_t> first_chunk{0}, chunk_owner;
    std::vector<EdgeIndex> chunk_begin;
    std::uint64_t small = 0, small_slots = 0;
    for (std::uint64_t v = 0; v < n; ++v) {
      const EdgeIndex begin = offsets[v] * m, end = offsets[v + 1] * m;
      if (end - begin <= kSmallSlots) ++small, small_slots += end - begin;
      if (end - begin > kMediumSlots) {
        for (EdgeIndex c = begin; c < end; c += kChunkSlots) {
          chunk_owner.push_back(static_cast<std::uint32_t>(heavy.size()));
          chunk_begin.push_back(c);
        }
        heavy.push_back(static_cast<VertexId>(v));
        first_chunk.push_back(static_cast<std::uint32_t>(chunk_begin.size()));
      } else if (end - begin > kSmallSlots) {
        medium.push_back(static_cast<VertexId>(v));
      }
    }
    vertices_ = n;
    small_lanes_ = small_slots <= small * kThreadAverageSlots ? 1 : 4;
    loads_ahead_ = choose_loads_ahead(medium.size(), sm_count, tuning.gatherLoadsAhead);
    d_medium_.allocate(medium.size());
    d_medium_.upload(medium.data(), medium.size(), s);
    d_heavy_.allocate(heavy.size());
    d_heavy_.upload(heavy.data(), heavy.size(), s);
    d_first_chunk_.allocate(first_chunk.size());
    d_first_chunk_.upload(first_chunk.data(), first_chunk.size(), s);
    d_chunk_owner_.allocate(chunk_owner.size());
    d_chunk_owner_.upload(chunk_owner.data(), chunk_owner.size(), s);
    d_chunk_begin_.allocate(chunk_begin.size());
    d_chunk_begin_.upload(chunk_begin.data(), chunk_begin.size(), s);
    d_partials_.allocate(chunk_begin.size() * message_bytes);
    d_partial_flags_.allocate(chunk_begin.size() * 2);
    d_chunks_done_.allocate(heavy.size());
    d_chunks_done_.zero(s);
    const int bins = (small != 0) + !medium.empty() + !heavy.empty();
    one_launch_ = tuning.gatherOneLaunch == Toggle::Auto ? bins > 1 && n <= kOneLaunchMaxVertices
                                                         : tuning.gatherOneLaunch == Toggle::On;
    if (one_launch_) loads_ahead_ = true;  // (gather_bins_kernel's one instantiation: few warps)
    MEDUSA_CUDA_CHECK(cudaStreamSynchronize(s));  // the host vectors go away
  }

  std::uint64_t vertices() const { return vertices_; }
  // Whether gather_binned folds every bin in one launch (gather_bins_kernel).
  bool one_launch() const { return one_launch_; }
  template <class Msg>
  HeavyChunks<Msg> heavy_chunks() const {
    return {heavy(), chunk_owner(), chunk_begin(), chunk_count(), first_chunk(),
            reinterpret_cast<Msg*>(partials()), partial_flags(), d_chunks_done_.data()};
  }
  // Whether the medium and heavy bins' lanes keep four loads in flight (fold_strided).
  bool loads_ahead() const { return loads_ahead_; }
  std::string describe() const {
    return std::string(one_launch_ ? "one launch: " : "") +
           std::to_string(vertices_ - medium_count() - heavy_count()) + " small (" +
           std::to_string(small_lanes_) + " lane(s) each), " + std::to_string(medium_count()) + " medium, " +
           std::to_string(heavy_count()) + " heavy in " + std::to_string(chunk_count()) + " chunks; " +
           (loads_ahead_ ? "four loads in flight per lane" : "one load in flight per lane") +
           " in the medium and heavy bins";
  }
  int small_lanes() const { return small_lanes_; }  // per vertex of the small bin: 1 or 4
  const VertexId* medium() const { return d_medium_.data(); }
  std::uint64_t medium_count() const { return d_medium_.size(); }
  const VertexId* heavy() const { return d_heavy_.data(); }
  std::uint64_t heavy_count() const { return d_heavy_.size(); }
  std::uint64_t chunk_count() const { return d_chunk_begin_.size(); }
  const std::uint32_t* first_chunk() const { return d_first_chunk_.data(); }  // heavy_count() + 1
  const std::uint32_t* chunk_owner() const { return d_chunk_owner_.data(); }  // index into heavy()
  const EdgeIndex* chunk_begin() const { return d_chunk_begin_.data(); }      // first slot
  std::byte* partials() const { return d_partials_.data(); }  // chunk_count() messages
  std::uint8_t* partial_flags() const { return d_partial_flags_.data(); }  // has a value, sent

 private:
  // Four loads in flight when the medium bin's warps are too few to hide a load's latency: at most
  // kAheadWarpsPerSm warps per SM. H100: ego-twitter (37,763, 286 per SM) gains 18% on PageRank;
  // Kronecker scale 22 (604,279, 4,578 per SM) loses 5%. Tuning::gatherLoadsAhead overrides.
  static constexpr std::uint64_t kAheadWarpsPerSm = 1024;
  static bool choose_loads_ahead(std::uint64_t medium_warps, int sm_count, Toggle forced) {
    if (forced != Toggle::Auto) return forced == Toggle::On;
    return medium_warps <= kAheadWarpsPerSm * static_cast<std::uint64_t>(std::max(1, sm_count));
  }

  std::uint64_t vertices_ = 0;
  int small_lanes_ = 4;
  bool loads_ahead_ = false, one_launch_ = false;
  DeviceBuffer<VertexId> d_medium_, d_heavy_;
  DeviceBuffer<std::uint32_t> d_first_chunk_, d_chunk_owner_;
  DeviceBuffer<EdgeIndex> d_chunk_begin_;
  DeviceBuffer<std::byte> d_partials_;
  DeviceBuffer<std::uint8_t> d_partial_flags_;
  DeviceBuffer<std::uint32_t> d_chunks_done_;
};

}  // namespace medusa::gpu
