// Edge-balanced expansion of a vertex queue for edge-parallel ELIST launches over Domain::Active.
//
// The lane-group kernel (kernels::elist_queue_edges_kernel) gives each queued vertex 1..32 lanes,
// so one vertex of degree 300,000 keeps a warp busy long after the rest of the GPU is idle: on
// Kronecker graphs that one warp set the length of the whole launch. Here the frontier's edges
// are numbered 0 .. T-1 (an inclusive scan of the queued vertices' degrees) and cut into tiles of
// kTileEdges; a block takes a tile, finds the queued vertices it covers by a search in the scan,
// and gives each thread consecutive edges, so every tile costs the same whatever the degrees.
// Small frontiers keep the lane-group kernel: the scan costs two launches.
#pragma once

#include <medusa/tuning.h>
#include <medusa/backend/cuda/buffer.h>
#include <medusa/backend/cuda/check.h>
#include <medusa/backend/cuda/kernels.cuh>
#include <medusa/device_api.h>
#include <medusa/types.h>

#include <cub/device/device_scan.cuh>

#include <cstddef>
#include <cstdint>

namespace medusa::gpu {

namespace kernels {

inline constexpr int kExpandItems = 4;                        // edges per thread per tile
inline constexpr int kTileEdges = kBlock * kExpandItems;      // edges per tile
inline constexpr int kTileVertices = kTileEdges;              // scan entries a tile keeps in shared memory

// ends[q] = out-degree of queue[q] (scanned in place afterwards).
template <class Offset>
__global__ void __launch_bounds__(kBlock)
    queue_degrees_kernel(const VertexId* __restrict__ queue, std::uint64_t n,
                         const Offset* __restrict__ out_offsets, unsigned long long* __restrict__ ends) {
  await_previous_kernel();
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t q = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; q < n;
       q += stride) {
    const VertexId v = queue[q];
    ends[q] = out_offsets[v + 1] - out_offsets[v];
  }
}

// First q in [lo, hi) with ends[q] > k (hi if none).
template <class Ends>
__device__ __forceinline__ std::uint64_t first_end_above(const Ends& ends, std::uint64_t lo,
                                                         std::uint64_t hi, std::uint64_t k) {
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    if (ends[mid] > k) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

// f(c, va, ea, queue[q], i) for every out-edge i of every queued vertex q, `total` edges in all,
// ends[] the inclusive scan of the queued degrees. Queued vertices outside [lo, hi) are skipped.
template <class Msg, class VA, class EA, class Element>
__global__ void __launch_bounds__(kBlock)
    elist_queue_balanced_kernel(const __grid_constant__ KernelCtx<Msg> c, const __grid_constant__ VA va,
                                const __grid_constant__ EA ea, const __grid_constant__ Element f,
                                const VertexId* __restrict__ queue,
                                const unsigned long long* __restrict__ ends, std::uint64_t n,
                                std::uint64_t total, VertexId lo, VertexId hi) {
  await_previous_kernel();
  medusa::detail::bind_step_state(c.step_state);  // (Continue(), Halt(), Superstep())
  // s_start[t] = first edge of queued vertex first+t, for the vertices of this tile (+1 entry).
  __shared__ unsigned long long s_start[kTileVertices + 1];
  __shared__ std::uint64_t s_first, s_last;
  open_block_aggregates<Element>();
  for (std::uint64_t tile = blockIdx.x; tile * kTileEdges < total; tile += gridDim.x) {
    const std::uint64_t begin = tile * kTileEdges;
    const std::uint64_t end = begin + kTileEdges < total ? begin + kTileEdges : total;
    if (threadIdx.x == 0) s_first = first_end_above(ends, 0, n, begin);
    if (threadIdx.x == 1) s_last = first_end_above(ends, 0, n, end - 1);
    __syncthreads();
    const std::uint64_t first = s_first, count = s_last - s_first + 1;
    const bool in_shared = count <= kTileVertices;
    if (in_shared) {
      for (std::uint64_t t = threadIdx.x; t <= count; t += blockDim.x)
        s_start[t] = first + t == 0 ? 0ull : ends[first + t - 1];
    }
    __syncthreads();
    for (int r = 0; r < kExpandItems; ++r) {
      const std::uint64_t k = begin + static_cast<std::uint64_t>(r) * blockDim.x + threadIdx.x;
      if (k >= end) break;
      std::uint64_t q, start;
      if (in_shared) {  // last t with s_start[t] <= k, among the tile's vertices
        const std::uint64_t t = first_end_above(s_start + 1, 0, count, k);
        q = first + t;
        start = s_start[t];
      } else {          // many empty vertices in the tile: search the scan itself
        q = first_end_above(ends, first, s_last + 1, k);
        start = q == 0 ? 0ull : ends[q - 1];
      }
      const VertexId v = queue[q];
      if (v >= lo && v < hi) f(c, va, ea, v, static_cast<std::uint32_t>(k - start));
    }
    __syncthreads();  // s_start, s_first and s_last are rewritten by the next tile
  }
  close_block_aggregates<Element>();
}

}  // namespace kernels

// The queue's degree scan and its CUB storage, sized once for the largest queue (every vertex).
class QueueExpansion {
 public:
  explicit QueueExpansion(QueueExpand mode) : mode_(mode) {}
  // Frontiers with fewer edges keep the lane-group kernel (the scan's launches cost more than
  // the imbalance they remove). Tuning::queueExpand (MEDUSA_QUEUE_EXPAND) forces one for every size.
  static constexpr std::uint64_t kMinBalancedEdges = 1u << 15;

  static std::size_t scan_temp_bytes(std::uint64_t max_queue) {
    std::size_t bytes = 0;
    if (max_queue == 0) return 0;
    MEDUSA_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes,
                                                    static_cast<unsigned long long*>(nullptr),
                                                    static_cast<unsigned long long*>(nullptr),
                                                    static_cast<std::int64_t>(max_queue)));
    return bytes;
  }
  // Device bytes allocate() takes, for the memory plan.
  static std::uint64_t device_bytes(std::uint64_t max_queue) {
    return max_queue * sizeof(unsigned long long) + scan_temp_bytes(max_queue);
  }

  void allocate(std::uint64_t max_queue) {
    d_ends_.allocate(max_queue);
    d_temp_.allocate(scan_temp_bytes(max_queue));
  }

  // Whether a frontier of `edges` out-edges takes the balanced kernel.
  bool wanted(std::uint64_t edges) const {
    return mode_ == QueueExpand::Auto ? edges >= kMinBalancedEdges : mode_ == QueueExpand::Balanced;
  }

  // ends[q] for the n queued vertices, on `stream`.
  const unsigned long long* scan(const VertexId* d_queue, std::uint64_t n,
                                 const EdgeIndex* d_out_offsets, unsigned max_blocks,
                                 cudaStream_t stream) {
    const std::uint64_t blocks = (n + kernels::kBlock - 1) / kernels::kBlock;
    launch_kernel<kernels::queue_degrees_kernel<EdgeIndex>>(
        static_cast<unsigned>(blocks < max_blocks ? blocks : max_blocks), kernels::kBlock, stream, d_queue, n,
        d_out_offsets, d_ends_.data());
    MEDUSA_CUDA_CHECK_LAUNCH("queue_degrees_kernel");
    std::size_t bytes = d_temp_.size();
    MEDUSA_CUDA_CHECK(cub::DeviceScan::InclusiveSum(d_temp_.data(), bytes, d_ends_.data(),
                                                    d_ends_.data(), static_cast<std::int64_t>(n),
                                                    stream));
    return d_ends_.data();
  }
  const unsigned long long* ends() const { return d_ends_.data(); }

 private:
  QueueExpand mode_;
  DeviceBuffer<unsigned long long> d_ends_;
  DeviceBuffer<std::byte> d_temp_;
};

}  // namespace medusa::gpu
