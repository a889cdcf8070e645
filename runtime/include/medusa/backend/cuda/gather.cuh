// Per-vertex folds over message slots, balanced by degree: the Combiner's segmented reduction and
// the pull-fused pass (common/pull_fusion.h) both fold each vertex's slots
// [offsets[v]*m, offsets[v+1]*m) and differ only in where a slot's value comes from (the Source).
//
// Vertices are binned once per partition by their slot count, so that a vertex with 100,000 slots
// does not serialize one warp while the rest of the GPU idles:
//   small  (<= 16 slots):    4 lanes per vertex, a scan over all vertices that skips the others
//   medium (<= 2048 slots):  one warp per vertex, from a list
//   heavy  (> 2048 slots):   one thread block per vertex, from a list
// Operators need only be associative and commutative: folds carry a "has a value" flag instead of
// an identity element, and the InitMessageBuffer value is folded in last (out = op(init, acc)).
#pragma once

#include <medusa/backend/common/pull_fusion.h>
#include <medusa/backend/cuda/buffer.h>
#include <medusa/backend/cuda/check.h>
#include <medusa/backend/cuda/combine.cuh>
#include <medusa/backend/cuda/kernels.cuh>
#include <medusa/device_api.h>
#include <medusa/types.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace medusa::gpu {

// Slot values read from the message buffer (the plain Combiner).
template <class Msg>
struct BufferSource {
  const Msg* slots;
  __device__ __forceinline__ Msg operator()(EdgeIndex slot, bool& /*sent*/) const { return slots[slot]; }
};

// Slot values computed by running the in-edge's work (the pull-fused pass); written back to the
// buffer so that it ends as the unfused launch would leave it.
template <class Msg, class VA, class EA, class Work>
struct FusedSource {
  KernelCtx<Msg> ctx;
  VA va;
  EA ea;
  Work work;
  const VertexId* in_src;      // source of the in-edge at each slot
  const std::uint32_t* in_pos; // its position among the source's out-edges
  Msg* slots;
  Msg fill;
  __device__ __forceinline__ Msg operator()(EdgeIndex slot, bool& sent) const {
    const Msg x = common::run_in_edge(ctx, va, ea, work, in_src[slot], in_pos[slot], fill, sent);
    slots[slot] = x;
    return x;
  }
};

// The vertices of one partition binned by slot count (lists on the device).
class DegreeBins {
 public:
  static constexpr EdgeIndex kSmallSlots = 16;
  static constexpr EdgeIndex kMediumSlots = 2048;

  // Counts only (for the memory plan): vertices [0, n) with slots (offsets[v+1]-offsets[v])*m.
  static std::uint64_t listed_vertices(const std::vector<EdgeIndex>& offsets, std::uint64_t n,
                                       std::uint32_t m) {
    std::uint64_t listed = 0;
    for (std::uint64_t v = 0; v < n; ++v) listed += (offsets[v + 1] - offsets[v]) * m > kSmallSlots;
    return listed;
  }

  void build(const std::vector<EdgeIndex>& offsets, std::uint64_t n, std::uint32_t m,
             cudaStream_t s) {
    std::vector<VertexId> medium, heavy;
    for (std::uint64_t v = 0; v < n; ++v) {
      const EdgeIndex slots = (offsets[v + 1] - offsets[v]) * m;
      if (slots > kMediumSlots) heavy.push_back(static_cast<VertexId>(v));
      else if (slots > kSmallSlots) medium.push_back(static_cast<VertexId>(v));
    }
    vertices_ = n;
    d_medium_.allocate(medium.size());
    d_medium_.upload(medium.data(), medium.size(), s);
    d_heavy_.allocate(heavy.size());
    d_heavy_.upload(heavy.data(), heavy.size(), s);
    MEDUSA_CUDA_CHECK(cudaStreamSynchronize(s));  // the host vectors go away
  }

  std::uint64_t vertices() const { return vertices_; }
  const VertexId* medium() const { return d_medium_.data(); }
  std::uint64_t medium_count() const { return d_medium_.size(); }
  const VertexId* heavy() const { return d_heavy_.data(); }
  std::uint64_t heavy_count() const { return d_heavy_.size(); }

 private:
  std::uint64_t vertices_ = 0;
  DeviceBuffer<VertexId> d_medium_, d_heavy_;
};

// Where one fold pass writes: combined values, and (fused pass) the receivers' flags.
template <class Msg>
struct GatherOut {
  Msg* combined;
  std::uint8_t* received;  // null: leave the flags alone
  const EdgeIndex* offsets;
  std::uint32_t m;
  Msg init;
};

namespace kernels {

template <class Msg, class Op>
__device__ __forceinline__ void fold_into(Msg& acc, bool& have, const Msg& x, const Op& op) {
  acc = have ? op(acc, x) : x;
  have = true;
}

// G lanes per vertex. Vertices come from `list` (n of them) or are 0 .. n-1; with no list, those
// with more than max_slots slots are left to the other bins.
template <int G, class Msg, class Op, class Source>
__global__ void __launch_bounds__(kBlock)
    gather_group_kernel(const __grid_constant__ Source src, const __grid_constant__ GatherOut<Msg> o,
                        const VertexId* __restrict__ list, std::uint64_t n, EdgeIndex max_slots, Op op) {
  static_assert(G >= 1 && G <= 32 && (G & (G - 1)) == 0, "G: a power of two up to 32");
  const unsigned sub = threadIdx.x & (G - 1);
  const std::uint64_t group = (static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x) / G;
  const std::uint64_t groups = static_cast<std::uint64_t>(gridDim.x) * blockDim.x / G;
  // Loop bound per warp (groups never straddle warps), so every shuffle has its whole warp.
  const std::uint64_t warp_first = group - (threadIdx.x & 31u) / G;
  for (std::uint64_t base = warp_first; base < n; base += groups) {
    const std::uint64_t q = base + (threadIdx.x & 31u) / G;
    bool valid = q < n;
    VertexId v = 0;
    EdgeIndex begin = 0, end = 0;
    if (valid) {
      v = list != nullptr ? list[q] : static_cast<VertexId>(q);
      begin = o.offsets[v] * o.m;
      end = o.offsets[v + 1] * o.m;
      if (list == nullptr && end - begin > max_slots) valid = false, end = begin;
    }
    Msg acc = o.init;
    bool have = false, sent = false;
    for (EdgeIndex i = begin + sub; i < end; i += G) fold_into(acc, have, src(i, sent), op);
#pragma unroll
    for (int d = G / 2; d > 0; d >>= 1) {
      const Msg other = shfl_down_any(acc, static_cast<unsigned>(d), G);
      const bool other_has = __shfl_down_sync(0xffffffffu, have ? 1 : 0, d, G) != 0;
      sent = (__shfl_down_sync(0xffffffffu, sent ? 1 : 0, d, G) != 0) || sent;
      if (sub + d < static_cast<unsigned>(G) && other_has) fold_into(acc, have, other, op);
    }
    if (valid && sub == 0) {
      o.combined[v] = have ? op(o.init, acc) : o.init;
      if (o.received != nullptr) o.received[v] = sent ? 1 : 0;
    }
  }
}

// One block of kBlock threads per listed vertex.
template <class Msg, class Op, class Source>
__global__ void __launch_bounds__(kBlock)
    gather_block_kernel(const __grid_constant__ Source src, const __grid_constant__ GatherOut<Msg> o,
                        const VertexId* __restrict__ list, std::uint64_t n, Op op) {
  constexpr int kWarps = kBlock / 32;
  __shared__ alignas(Msg) unsigned char warp_acc[kWarps * sizeof(Msg)];
  __shared__ int warp_have[kWarps], warp_sent[kWarps];
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x / 32u;
  for (std::uint64_t q = blockIdx.x; q < n; q += gridDim.x) {
    const VertexId v = list[q];
    const EdgeIndex begin = o.offsets[v] * o.m, end = o.offsets[v + 1] * o.m;
    Msg acc = o.init;
    bool have = false, sent = false;
    for (EdgeIndex i = begin + threadIdx.x; i < end; i += blockDim.x) fold_into(acc, have, src(i, sent), op);
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) {
      const Msg other = shfl_down_any(acc, static_cast<unsigned>(d), 32);
      const bool other_has = __shfl_down_sync(0xffffffffu, have ? 1 : 0, d) != 0;
      sent = (__shfl_down_sync(0xffffffffu, sent ? 1 : 0, d) != 0) || sent;
      if (lane + d < 32u && other_has) fold_into(acc, have, other, op);
    }
    if (lane == 0) {
      std::memcpy(warp_acc + warp * sizeof(Msg), &acc, sizeof(Msg));
      warp_have[warp] = have;
      warp_sent[warp] = sent;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      Msg total = o.init;
      bool any = false, any_sent = false;
      for (int w = 0; w < kWarps; ++w) {
        any_sent = any_sent || warp_sent[w] != 0;
        if (!warp_have[w]) continue;
        Msg x;
        std::memcpy(&x, warp_acc + w * sizeof(Msg), sizeof(Msg));
        fold_into(total, any, x, op);
      }
      o.combined[v] = any ? op(o.init, total) : o.init;
      if (o.received != nullptr) o.received[v] = any_sent ? 1 : 0;
    }
    __syncthreads();  // the shared slots are reused by the next vertex
  }
}

}  // namespace kernels

// out[v] for every vertex of `bins`: three launches on `stream`, one per bin.
template <class Msg, class Op, class Source>
void gather_binned(const Source& src, const GatherOut<Msg>& out, const DegreeBins& bins,
                   const Op& op, unsigned max_blocks, cudaStream_t stream) {
  const auto grid = [&](std::uint64_t threads) {
    const std::uint64_t blocks = (threads + kernels::kBlock - 1) / kernels::kBlock;
    return static_cast<unsigned>(blocks < max_blocks ? (blocks == 0 ? 1 : blocks) : max_blocks);
  };
  if (bins.vertices() != 0) {
    kernels::gather_group_kernel<4, Msg, Op, Source><<<grid(bins.vertices() * 4), kernels::kBlock, 0, stream>>>(
        src, out, nullptr, bins.vertices(), DegreeBins::kSmallSlots, op);
    MEDUSA_CUDA_CHECK_LAUNCH("gather_group_kernel<4> (small-degree bin)");
  }
  if (bins.medium_count() != 0) {
    kernels::gather_group_kernel<32, Msg, Op, Source><<<grid(bins.medium_count() * 32), kernels::kBlock, 0, stream>>>(
        src, out, bins.medium(), bins.medium_count(), 0, op);
    MEDUSA_CUDA_CHECK_LAUNCH("gather_group_kernel<32> (medium-degree bin)");
  }
  if (bins.heavy_count() != 0) {
    const unsigned blocks = static_cast<unsigned>(bins.heavy_count() < max_blocks ? bins.heavy_count() : max_blocks);
    kernels::gather_block_kernel<Msg, Op, Source><<<blocks, kernels::kBlock, 0, stream>>>(
        src, out, bins.heavy(), bins.heavy_count(), op);
    MEDUSA_CUDA_CHECK_LAUNCH("gather_block_kernel (high-degree bin)");
  }
}

// The same with G lanes for every vertex (MEDUSA_COMBINER=group4|warp: one strategy for all).
template <int G, class Msg, class Op, class Source>
void gather_uniform(const Source& src, const GatherOut<Msg>& out, std::uint64_t vertices,
                    const Op& op, unsigned max_blocks, cudaStream_t stream) {
  if (vertices == 0) return;
  const std::uint64_t blocks = (vertices * G + kernels::kBlock - 1) / kernels::kBlock;
  const unsigned grid = static_cast<unsigned>(blocks < max_blocks ? blocks : max_blocks);
  kernels::gather_group_kernel<G, Msg, Op, Source><<<grid, kernels::kBlock, 0, stream>>>(
      src, out, nullptr, vertices, ~EdgeIndex{0}, op);
  MEDUSA_CUDA_CHECK_LAUNCH("gather_group_kernel");
}

}  // namespace medusa::gpu
