// Where a per-vertex fold (gather.cuh) reads its slots' values from (the Source: the message buffer,
// a fused pass's work, one message per source vertex), what runs after a vertex's fold, and where it writes.
#pragma once

#include <medusa/backend/common/pull_fusion.h>
#include <medusa/backend/cuda/kernels.cuh>
#include <medusa/device_api.h>
#include <medusa/types.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace medusa::gpu {

// Slot values read from the message buffer (the plain Combiner).
template <class Msg>
struct BufferSource {
  const Msg* slots;
  __device__ __forceinline__ Msg operator()(EdgeIndex slot, bool& /*sent*/) const { return slots[slot]; }
};

// Slot values computed by running the in-edge's work (the pull-fused pass); written back to the
// buffer so that it ends as the unfused launch would leave it. With `active`, only in-edges of
// active sources run (a pulled frontier); the others hold the fill value, as unpushed slots do.
template <class Msg, class VA, class EA, class Work>
struct FusedSource {
  using medusa_aggregates_added = medusa::detail::aggregates_added_by<Work>;  // (block_aggregates.cuh)
  KernelCtx<Msg> ctx;
  VA va;
  EA ea;
  Work work;
  const VertexId* in_src;       // source of the in-edge at each slot
  const std::uint32_t* in_pos;  // its position among the source's out-edges
  const std::uint8_t* active;   // frontier flags, or null: every source
  Msg* slots;
  Msg fill;
  __device__ __forceinline__ Msg operator()(EdgeIndex slot, bool& sent) const {
    const VertexId u = in_src[slot];
    const Msg x = active == nullptr || active[u] != 0
                      ? common::run_in_edge(ctx, va, ea, work, u, in_pos[slot], fill, sent)
                      : fill;
    slots[slot] = x;
    return x;
  }
};

// Slot values gathered from one message per source vertex (an element with
// medusa_source_message, pull_fusion.h): `sources[u]` for an in-edge from source u, which sent it
// if u is active (or there are no flags); an inactive source's entry holds the fill value
// (source_message_kernel). The slots are not written: the engine knows them to be
// sources[in_src] and writes them on demand.
// Whether u sent is read from its flag only when an active source's message equals the fill value
// (*sent_fill, set by source_message_kernel): otherwise a message other than the fill value is
// exactly a sent one. One random read per in-edge instead of two: on kron-22 (H100) the flags'
// reads doubled the pull passes of connected components.
template <class Msg>
struct SourceMessageSource {
  const VertexId* in_src;
  const std::uint8_t* active;  // frontier flags, or null: every source
  const Msg* sources;          // the message of each source vertex (the fill value if inactive)
  Msg fill;
  const int* sent_fill = nullptr;  // null: always read the flags
  __device__ __forceinline__ Msg operator()(EdgeIndex slot, bool& sent) const {
    const VertexId u = in_src[slot];
    const Msg x = sources[u];
    if (sent_by(u, x)) sent = true;
    return x;
  }
  __device__ __forceinline__ bool sent_by(VertexId u, const Msg& x) const {
    if (active == nullptr) return true;
    if constexpr (sizeof(Msg) <= sizeof(std::uint64_t))
      if (sent_fill != nullptr && *sent_fill == 0) return common::message_bits(x) != common::message_bits(fill);
    return active[u] != 0;
  }
};

// A pulled frontier whose sources all send one message under an idempotent operator
// (common::may_stop_at_first_message): a slot's value is `sources[u]` for an active source u, the
// fill value otherwise, and the folds stop at a vertex's first active source (the rest would fold
// to the same value). The slots stay pending: `sources` holds the fill value for inactive sources.
template <class Msg>
struct FirstActiveSource {
  static constexpr bool kStopsAtFirstSent = true;
  const VertexId* in_src;
  const std::uint8_t* active;
  const Msg* sources;
  Msg fill;
  __device__ __forceinline__ Msg operator()(EdgeIndex slot, bool& sent) const {
    const VertexId u = in_src[slot];
    if (active[u] == 0) return fill;  // (most sources are inactive: the flags stay in L2)
    sent = true;
    return sources[u];
  }
};

// Whether a Source lets a vertex's fold stop at its first sent slot.
template <class Source, class = void>
struct stops_at_first_sent : std::false_type {};
template <class Source>
struct stops_at_first_sent<Source, std::void_t<decltype(Source::kStopsAtFirstSent)>>
    : std::bool_constant<Source::kStopsAtFirstSent> {};

// What runs after a vertex's fold, on the thread that wrote its combined value: nothing (the
// Combiner), or the VERTEX launch that follows a fused pass over every vertex (VertexStep): one
// pass instead of two, as a hand-written PageRank updates a rank where it sums the in-edges.
struct NoVertexStep {
  __device__ __forceinline__ void operator()(VertexId) const {}
};
template <class Msg>
__device__ __forceinline__ bool has_out_edges(const KernelCtx<Msg>& c, std::uint64_t v) {
  // (4-byte degrees where the pass has them: edge_count() reads them too)
  return c.out_degree != nullptr ? c.out_degree[v] != 0 : c.out_offsets[v + 1] != c.out_offsets[v];
}

template <class Msg, class VA, class EA, class Element>
struct VertexStep {
  using medusa_aggregates_added = medusa::detail::aggregates_added_by<Element>;  // (block_aggregates.cuh)
  KernelCtx<Msg> c;
  VA va;
  EA ea;
  Element f;
  __device__ __forceinline__ void operator()(VertexId v) const { f(c, va, ea, v); }
};
// The same, then the next superstep's message of v, from the vertex the step left final
// (source_prefetch.cuh): the pass that would compute it reads every vertex again.
template <class Msg, class VA, class EA, class Element, class Work>
struct VertexStepThenMessage {
  using medusa_aggregates_added = medusa::detail::aggregates_added_by<Element, Work>;
  VertexStep<Msg, VA, EA, Element> step;
  Work work;
  Msg* next_sources;
  __device__ __forceinline__ void operator()(VertexId v) const {
    step(v);
    if (has_out_edges(step.c, v)) next_sources[v] = work.medusa_source_message(step.c, step.va, step.ea, v);
  }
};
// Where one fold pass writes: combined values, and (fused pass) the receivers' flags.
template <class Msg>
struct GatherOut {
  Msg* combined;
  std::uint8_t* received;  // null: leave the flags alone
  const EdgeIndex* offsets;
  std::uint32_t m;
  Msg init;
  const int* halted = nullptr;  // in a batch of supersteps (superstep_batch.cuh); null outside
  const medusa::detail::StepState* step_state = nullptr;  // for the functors a pass runs
  __device__ bool stopped_batch() const { return kernels::batch_halted(halted); }
};
namespace kernels {

// out[v] = work.medusa_source_message(c, va, ea, v) for every vertex v < n with out-edges (the
// elements only ever ran for a vertex's edges). With frontier flags `active`, only for active v;
// out[v] = the fill value for inactive v (what its slots hold, so that the slots can stay pending).
// Unless null, bit_range[0] / [1] take the least / greatest bits of the active messages (preset to
// ~0 / 0): equal when every active source sends the same message. A pushed frontier
// (push_combine.cuh) also has combined[v] reset to the fill value and received[v] to 0 here, unless
// those are null: one pass over the vertices instead of three. Unless null, *sent_fill is set when
// an active message equals the fill value, bit for bit (SourceMessageSource then reads the flags).
template <class Msg, class VA, class EA, class Work>
__global__ void __launch_bounds__(kBlock)
    source_message_kernel(const __grid_constant__ KernelCtx<Msg> c, const __grid_constant__ VA va,
                          const __grid_constant__ EA ea, const __grid_constant__ Work work,
                          const std::uint8_t* __restrict__ active, std::uint64_t n, Msg fill,
                          Msg* __restrict__ out, unsigned long long* __restrict__ bit_range,
                          Msg* __restrict__ combined, std::uint8_t* __restrict__ received,
                          int* __restrict__ sent_fill) {
  await_previous_kernel();
  medusa::detail::bind_step_state(c.step_state);  // (Continue(), Halt(), Superstep())
  if (stopped_batch(c)) return;
  open_block_aggregates<Work>();
  unsigned long long lo = ~0ull, hi = 0;
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t v = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < n;
       v += stride) {
    if (combined != nullptr) combined[v] = fill;
    if (received != nullptr) received[v] = 0;
    if (active != nullptr && active[v] == 0) {
      out[v] = fill;
    } else if (has_out_edges(c, v)) {  // (PageRank's pass over V reads 12 bytes a vertex, not 20)
      const Msg x = work.medusa_source_message(c, va, ea, static_cast<VertexId>(v));
      out[v] = x;
      if constexpr (sizeof(Msg) <= sizeof(unsigned long long)) {
        const unsigned long long bits = common::message_bits(x);
        lo = bits < lo ? bits : lo;
        hi = bits > hi ? bits : hi;
        if (sent_fill != nullptr && bits == common::message_bits(fill)) medusa::detail::vote_store(sent_fill);
      }
    }
  }
  close_block_aggregates<Work>();
  if (bit_range == nullptr) return;  // (the same for the whole grid)
  for (int d = 16; d > 0; d >>= 1) {
    const unsigned long long other_lo = __shfl_down_sync(0xffffffffu, lo, d);
    const unsigned long long other_hi = __shfl_down_sync(0xffffffffu, hi, d);
    lo = other_lo < lo ? other_lo : lo;
    hi = other_hi > hi ? other_hi : hi;
  }
  __shared__ unsigned long long block_lo, block_hi;
  if (threadIdx.x == 0) block_lo = ~0ull, block_hi = 0;
  __syncthreads();
  if ((threadIdx.x & 31u) == 0) {
    atomicMin(&block_lo, lo);
    atomicMax(&block_hi, hi);
  }
  __syncthreads();
  // Most blocks agree (BFS: every message is level + 1), so read first. A stale read (L1) is never
  // below the minimum (above the maximum) so far: it can only cost an atomic that changes nothing.
  if (threadIdx.x == 0) {
    if (block_lo < bit_range[0]) atomicMin(&bit_range[0], block_lo);
    if (block_hi > bit_range[1]) atomicMax(&bit_range[1], block_hi);
  }
}
}  // namespace kernels

}  // namespace medusa::gpu
