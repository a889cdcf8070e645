// The kernels of the CUDA backend. Layering as in CUB: exec.cuh / session.cuh (public API) ->
// dependent_launch.cuh (launches) -> these kernels. Every kernel is a grid-stride loop, so
// one launch configuration covers any element count.
#pragma once

#include <medusa/backend/cuda/block_aggregates.cuh>
#include <medusa/backend/cuda/dependent_launch.cuh>
#include <medusa/device_api.h>
#include <medusa/types.h>

#include <cstddef>
#include <cstdint>

namespace medusa::gpu::kernels {

inline constexpr int kBlock = 256;

// Where the element ids of one EMV launch come from.
//   All:     0 .. n-1
//   Queue:   queue[0 .. n-1] (a compacted frontier)
//   Flagged: the i in 0 .. n-1 with flags[i] != 0 (a flag scan, no compaction pass)
enum class Source { All, Queue, Flagged };

// In a batch of supersteps, a superstep after the one that stopped the run (superstep_batch.cuh):
// its launches do nothing. `halted` is null outside batches.
__device__ __forceinline__ bool batch_halted(const int* halted) { return halted != nullptr && *halted != 0; }
template <class Msg>
__device__ __forceinline__ bool stopped_batch(const KernelCtx<Msg>& c) {
  return batch_halted(c.halted);
}

// Runs the generated element functor f(c, va, ea, id) for every id of the source. The context,
// the SoA pointer structs and the functor are __grid_constant__: the proxies the functor builds
// keep their addresses (VertexHandle::medusa_ctx_), so no per-thread copies are made. Ids come
// from first .. first+n-1 (All, Flagged) or the queue; queued ids outside [lo, hi) are skipped
// (a partition's launch may cover only part of its local vertices). In a batch, a queue's length
// is *device_n (n only sized the grid).
template <Source S, class Index, class Msg, class VA, class EA, class Element>
__global__ void __launch_bounds__(kBlock)
    apply_kernel(const __grid_constant__ KernelCtx<Msg> c, const __grid_constant__ VA va,
                 const __grid_constant__ EA ea, const __grid_constant__ Element f,
                 const Index* __restrict__ ids, const std::uint8_t* __restrict__ flags,
                 std::uint64_t n, const unsigned long long* __restrict__ device_n, Index first, Index lo, Index hi) {
  await_previous_kernel();
  medusa::detail::bind_step_state(c.step_state);  // (Continue(), Halt(), Superstep())
  if (stopped_batch(c)) return;
  open_block_aggregates<Element>();
  if (device_n != nullptr) n = *device_n;
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    if constexpr (S == Source::All) {
      f(c, va, ea, static_cast<Index>(first + i));
    } else if constexpr (S == Source::Queue) {
      const Index id = ids[i];
      if (id >= lo && id < hi) f(c, va, ea, id);
    } else {
      const Index id = static_cast<Index>(first + i);
      if (flags[id] != 0) f(c, va, ea, id);
    }
  }
  close_block_aggregates<Element>();
}

// Edge-parallel ELIST over every edge (exec::run_elist_edges, Domain::All): one thread per edge
// in CSR order, so a high-degree vertex spreads over many threads. f(c, va, ea, vertex, i) runs
// the functor's prologue and loop iteration i for the vertex's i-th out-edge.
template <class Msg, class VA, class EA, class Element>
__global__ void __launch_bounds__(kBlock)
    elist_all_edges_kernel(const __grid_constant__ KernelCtx<Msg> c, const __grid_constant__ VA va,
                           const __grid_constant__ EA ea, const __grid_constant__ Element f,
                           std::uint64_t first_edge, std::uint64_t end_edge) {
  await_previous_kernel();
  medusa::detail::bind_step_state(c.step_state);  // (Continue(), Halt(), Superstep())
  open_block_aggregates<Element>();
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t e = first_edge + static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
       e < end_edge; e += stride) {
    const VertexId v = c.edge_src[e];
    f(c, va, ea, v, static_cast<std::uint32_t>(e - c.out_offsets[v]));
  }
  close_block_aggregates<Element>();
}

// Edge-parallel ELIST over a compacted vertex queue (Domain::Active): `group` consecutive lanes
// (a power of two up to a warp, chosen from the average degree) share one queued vertex and
// stride over its out-edges. Queued vertices outside [lo, hi) are skipped. In a batch, the queue's
// length is *device_n.
template <class Msg, class VA, class EA, class Element>
__global__ void __launch_bounds__(kBlock)
    elist_queue_edges_kernel(const __grid_constant__ KernelCtx<Msg> c, const __grid_constant__ VA va,
                             const __grid_constant__ EA ea, const __grid_constant__ Element f,
                             const VertexId* __restrict__ queue, std::uint64_t n,
                             const unsigned long long* __restrict__ device_n, unsigned group, VertexId lo,
                             VertexId hi) {
  await_previous_kernel();
  medusa::detail::bind_step_state(c.step_state);  // (Continue(), Halt(), Superstep())
  if (stopped_batch(c)) return;
  open_block_aggregates<Element>();
  if (device_n != nullptr) n = *device_n;
  const std::uint64_t thread = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint64_t groups = static_cast<std::uint64_t>(gridDim.x) * blockDim.x / group;
  const unsigned lane = static_cast<unsigned>(thread % group);
  for (std::uint64_t q = thread / group; q < n; q += groups) {
    const VertexId v = queue[q];
    if (v < lo || v >= hi) continue;
    const auto degree = static_cast<std::uint32_t>(c.out_offsets[v + 1] - c.out_offsets[v]);
    for (std::uint32_t i = lane; i < degree; i += group) f(c, va, ea, v, i);
  }
  close_block_aggregates<Element>();
}

// flags[queue[q]] = 1 for q < n (the seeds of a frontier kept as flags too).
template <class Index>
__global__ void __launch_bounds__(kBlock)
    mark_queued_kernel(const Index* __restrict__ queue, std::uint64_t n, std::uint8_t* __restrict__ flags) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t q = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; q < n;
       q += stride)
    flags[queue[q]] = 1;
}

// The start of a superstep: the counters cleared and the functors' StepState (votes, superstep) set
// in the session's counters->step_state (KernelCtx::step_state). One block.
template <class Counters>
__global__ void begin_superstep_kernel(Counters* __restrict__ counters, medusa::detail::StepState state) {
  await_previous_kernel();
  constexpr std::size_t kCleared = offsetof(Counters, step_state);  // (the last member)
  static_assert(kCleared % sizeof(unsigned) == 0, "begin_superstep_kernel: whole words");
  auto* words = reinterpret_cast<unsigned*>(counters);
  for (unsigned i = threadIdx.x; i < kCleared / sizeof(unsigned); i += blockDim.x) words[i] = 0;
  if (threadIdx.x == 0) counters->step_state = state;
}

// dst[0 .. n-1] = value (InitMessageBuffer).
template <class T>
__global__ void __launch_bounds__(kBlock) fill_kernel(T* __restrict__ dst, std::uint64_t n, T value) {
  await_previous_kernel();
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    dst[i] = value;
}

// dst[i] = src[index[i]]: packs the owner's values of one replica route (the replica exchange).
template <std::size_t N>
struct Bytes {
  unsigned char b[N];
};
template <class T>
__global__ void __launch_bounds__(kBlock)
    gather_kernel(T* __restrict__ dst, const T* __restrict__ src, const VertexId* __restrict__ index,
                  std::uint64_t n) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    dst[i] = src[index[i]];
}

// dst[i] = src[i] * m (the message segment offsets for m > 1).
template <class Offset>
__global__ void __launch_bounds__(kBlock)
    scale_offsets_kernel(Offset* __restrict__ dst, const Offset* __restrict__ src,
                         std::uint64_t n, std::uint32_t m) {
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride)
    dst[i] = src[i] * m;
}

// Frontier promotion in one pass: appends every i with flags[i] != 0 to queue, clears the flag
// (copying it to current[i] when `current` is not null: the frontier as flags, for a pull pass;
// or zeroing current[i]),
// and counts the selected elements (and, for vertices, the sum of their out-degrees, so RunStats
// knows the edges an ELIST launch over the frontier visits). Each thread reads 16 flags in one
// load, and a block takes one atomic per tile of kCompactTile flags: with one atomic per 256 flags
// the blocks of a scan over millions of vertices still queued on the one counter, serializing the pass.
// The queue is ascending within each tile, not globally sorted; the paper's queue has no order.
inline constexpr std::uint64_t kCompactPerThread = 16;
// What the compaction writes to `current`: the flags it clears, or zeros (a priority bucket step
// sets the next frontier's own: engine/priority_frontier.cuh).
enum class CurrentFlags : unsigned char { Copied, Zeroed };
inline constexpr std::uint64_t kCompactTile = kBlock * kCompactPerThread;

// Bit k set for each nonzero byte k of the 16 flags at p (fewer at the end of the array).
__device__ __forceinline__ unsigned nonzero_flag_bits(const std::uint8_t* p, std::uint64_t valid) {
  unsigned bits = 0;
  if (valid >= kCompactPerThread) {
    const uint4 w = *reinterpret_cast<const uint4*>(p);  // (the flag arrays are cudaMalloc'ed: aligned)
    const unsigned words[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
    for (int k = 0; k < 16; ++k) bits |= ((words[k / 4] >> (8 * (k % 4))) & 0xffu) != 0 ? 1u << k : 0u;
  } else {
    for (std::uint64_t k = 0; k < valid; ++k) bits |= p[k] != 0 ? 1u << k : 0u;
  }
  return bits;
}

// Writes 16 flags at p: byte k = (bits >> k) & 1 (fewer at the end of the array).
__device__ __forceinline__ void store_flag_bits(std::uint8_t* p, std::uint64_t valid, unsigned bits) {
  if (valid >= kCompactPerThread) {
    unsigned words[4] = {0, 0, 0, 0};
#pragma unroll
    for (int k = 0; k < 16; ++k) words[k / 4] |= ((bits >> k) & 1u) << (8 * (k % 4));
    *reinterpret_cast<uint4*>(p) = make_uint4(words[0], words[1], words[2], words[3]);
  } else {
    for (std::uint64_t k = 0; k < valid; ++k) p[k] = static_cast<std::uint8_t>((bits >> k) & 1u);
  }
}

template <class Index>
__global__ void __launch_bounds__(kBlock)
    compact_flags_kernel(std::uint8_t* __restrict__ flags, std::uint64_t n, Index* __restrict__ queue,
                         unsigned long long* __restrict__ count,
                         const EdgeIndex* __restrict__ out_offsets,
                         unsigned long long* __restrict__ degree_sum, std::uint8_t* __restrict__ current,
                         CurrentFlags current_flags, const int* __restrict__ halted) {
  await_previous_kernel();
  if (batch_halted(halted)) return;
  constexpr int kWarps = kBlock / 32;
  __shared__ unsigned warp_count[kWarps], warp_offset[kWarps];
  __shared__ unsigned long long warp_degree[kWarps], block_first;
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * kCompactTile;
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x / 32u;
  // Every thread of a block runs the same number of passes (the bound is on the block's base),
  // so the barriers and shuffles below always have the whole block.
  for (std::uint64_t base = static_cast<std::uint64_t>(blockIdx.x) * kCompactTile; base < n; base += stride) {
    const std::uint64_t first = base + threadIdx.x * kCompactPerThread;
    const std::uint64_t valid = first < n ? (n - first < kCompactPerThread ? n - first : kCompactPerThread) : 0;
    const unsigned bits = valid != 0 ? nonzero_flag_bits(flags + first, valid) : 0u;
    if (current != nullptr && valid != 0)
      store_flag_bits(current + first, valid, current_flags == CurrentFlags::Copied ? bits : 0u);
    // A sparse frontier (a road graph's few hundred vertices) leaves almost every tile empty: skip
    // the counting and the atomics there (the whole block agrees, so the barriers stay whole).
    if (__syncthreads_or(bits != 0 ? 1 : 0) == 0) continue;
    const unsigned mine = static_cast<unsigned>(__popc(bits));
    unsigned long long deg = 0;
    if (out_offsets != nullptr)
      for (unsigned m = bits; m != 0; m &= m - 1) {
        const std::uint64_t i = first + static_cast<unsigned>(__ffs(m) - 1);
        deg += out_offsets[i + 1] - out_offsets[i];
      }
    unsigned before = mine;  // inclusive scan over the warp's lanes
    for (int o = 1; o < 32; o <<= 1) {
      const unsigned other = __shfl_up_sync(0xffffffffu, before, o);
      if (lane >= static_cast<unsigned>(o)) before += other;
    }
    for (int o = 16; o > 0; o >>= 1) deg += __shfl_down_sync(0xffffffffu, deg, o);
    if (lane == 31) warp_count[warp] = before;
    if (lane == 0) warp_degree[warp] = deg;
    before -= mine;
    __syncthreads();
    if (threadIdx.x == 0) {
      unsigned total = 0;
      unsigned long long degrees = 0;
      for (int w = 0; w < kWarps; ++w) {
        warp_offset[w] = total;
        total += warp_count[w];
        degrees += warp_degree[w];
      }
      block_first = total != 0 ? atomicAdd(count, static_cast<unsigned long long>(total)) : 0ull;
      if (out_offsets != nullptr && degrees != 0) atomicAdd(degree_sum, degrees);
    }
    __syncthreads();
    if (bits != 0) {
      unsigned long long at = block_first + warp_offset[warp] + before;
      for (unsigned m = bits; m != 0; m &= m - 1)
        queue[at++] = static_cast<Index>(first + static_cast<unsigned>(__ffs(m) - 1));
      store_flag_bits(flags + first, valid, 0u);
    }
  }
}

}  // namespace medusa::gpu::kernels
