// Per-vertex folds over message slots, balanced by degree: the Combiner's segmented reduction and
// the pull-fused pass (common/pull_fusion.h) both fold each vertex's slots
// [offsets[v]*m, offsets[v+1]*m) and differ only in where a slot's value comes from (the Source).
//
// Vertices are binned once per partition by their slot count, so that a vertex with 100,000 slots
// does not serialize one warp while the rest of the GPU idles:
//   small  (<= 16 slots):    4 lanes per vertex, a scan over all vertices that skips the others
//   medium (<= 2048 slots):  one warp per vertex, from a list
//   heavy  (> 2048 slots):   cut into chunks of 4096 slots, one thread block per chunk; a second
//                            kernel folds each vertex's chunk results (a hub of 300,000 in-edges
//                            is 74 blocks, not one block that outlasts the rest of the pass)
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

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

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
  VertexStep<Msg, VA, EA, Element> step;
  Work work;
  Msg* next_sources;
  __device__ __forceinline__ void operator()(VertexId v) const {
    step(v);
    if (has_out_edges(step.c, v)) next_sources[v] = work.medusa_source_message(step.c, step.va, step.ea, v);
  }
};

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
  // vertices: their passes are short next to four launches in a chain (ego-twitter, 81K vertices:
  // 38 µs a PageRank superstep against 13 µs for the hand-written pull's one kernel).
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

template <class Msg, class Op>
__device__ __forceinline__ void fold_into(Msg& acc, bool& have, const Msg& x, const Op& op) {
  acc = have ? op(acc, x) : x;
  have = true;
}

// Folds src's slots first, first + stride, ... below end into acc, in that order. With Ahead = 4
// a lane reads four slots before folding them, four loads in flight instead of one: a warp over a
// 2,000-slot vertex is otherwise a chain of 64 dependent round trips, which bounds a pass whose
// few warps cannot hide it (ego-twitter). Where warps are plenty the extra registers cost more
// than they hide (Kronecker scale 22), so DegreeBins picks.
template <int Ahead, class Msg, class Op, class Source>
__device__ __forceinline__ void fold_strided(Msg& acc, bool& have, bool& sent, const Source& src, EdgeIndex first,
                                             EdgeIndex end, EdgeIndex stride, const Op& op) {
  EdgeIndex i = first;
  if constexpr (Ahead == 4) {
    for (; i + 3 * stride < end; i += 4 * stride) {
      const Msg x0 = src(i, sent), x1 = src(i + stride, sent), x2 = src(i + 2 * stride, sent),
                x3 = src(i + 3 * stride, sent);
      fold_into(acc, have, x0, op);
      fold_into(acc, have, x1, op);
      fold_into(acc, have, x2, op);
      fold_into(acc, have, x3, op);
    }
  } else {
    static_assert(Ahead == 1, "Ahead: 1 or 4 loads in flight per lane");
  }
  for (; i < end; i += stride) fold_into(acc, have, src(i, sent), op);
}

// G lanes per vertex. Vertices come from `list` (n of them) or are 0 .. n-1; with no list, those
// with more than max_slots slots are left to the other bins. `block` of `blocks` runs this (its
// kernel's blocks, or a share of gather_bins_kernel's).
template <int G, int Ahead, class Msg, class Op, class Source, class Then>
__device__ __forceinline__ void group_folds(const Source& src, const GatherOut<Msg>& o, const VertexId* list,
                                            std::uint64_t n, EdgeIndex max_slots, const Op& op, const Then& then,
                                            unsigned block, unsigned blocks) {
  static_assert(G >= 1 && G <= 32 && (G & (G - 1)) == 0, "G: a power of two up to 32");
  const unsigned sub = threadIdx.x & (G - 1);
  const std::uint64_t group = (static_cast<std::uint64_t>(block) * blockDim.x + threadIdx.x) / G;
  const std::uint64_t groups = static_cast<std::uint64_t>(blocks) * blockDim.x / G;
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
    if constexpr (stops_at_first_sent<Source>::value) {
      // Rounds of G slots, the same count for the whole group, so that it can vote after each.
      const unsigned group_mask = G == 32 ? 0xffffffffu : ((1u << G) - 1u) << ((threadIdx.x & 31u) & ~(G - 1u));
      for (EdgeIndex base = begin; base < end; base += G) {
        if (base + sub < end) fold_into(acc, have, src(base + sub, sent), op);
        if (__any_sync(group_mask, sent)) break;
      }
    } else {
      fold_strided<Ahead>(acc, have, sent, src, begin + sub, end, G, op);
    }
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
      then(v);
    }
  }
}

template <int G, int Ahead, class Msg, class Op, class Source, class Then>
__global__ void __launch_bounds__(kBlock)
    gather_group_kernel(const __grid_constant__ Source src, const __grid_constant__ GatherOut<Msg> o,
                        const VertexId* __restrict__ list, std::uint64_t n, EdgeIndex max_slots, Op op,
                        const __grid_constant__ Then then) {
  await_previous_kernel();
  medusa::detail::bind_step_state(o.step_state);  // (Continue(), Halt(), Superstep())
  if (o.stopped_batch()) return;
  group_folds<G, Ahead>(src, o, list, n, max_slots, op, then, blockIdx.x, gridDim.x);
}

// Heavy vertex h's total from its chunks' partial results, in chunk order, into o; then then(v).
// `Fresh`: read what other blocks of this launch wrote (past this SM's L1).
template <bool Fresh, class Msg, class Op, class Then>
__device__ __forceinline__ void finish_heavy(const GatherOut<Msg>& o, const HeavyChunks<Msg>& b, std::uint64_t h,
                                             const Op& op, const Then& then) {
  Msg total = o.init;
  bool any = false, any_sent = false;
  for (std::uint32_t q = b.first_chunk[h]; q < b.first_chunk[h + 1]; ++q) {
    const std::uint8_t has = Fresh ? __ldcg(&b.partial_flags[2 * q]) : b.partial_flags[2 * q];
    const std::uint8_t sent = Fresh ? __ldcg(&b.partial_flags[2 * q + 1]) : b.partial_flags[2 * q + 1];
    any_sent = any_sent || sent != 0;
    if (has == 0) continue;
    Msg x;
    if constexpr (Fresh) {
      const volatile unsigned char* from = reinterpret_cast<const volatile unsigned char*>(b.partials + q);
      unsigned char bytes[sizeof(Msg)];
      for (std::size_t k = 0; k < sizeof(Msg); ++k) bytes[k] = from[k];
      std::memcpy(&x, bytes, sizeof(Msg));
    } else {
      x = b.partials[q];
    }
    fold_into(total, any, x, op);
  }
  const VertexId v = b.heavy[h];
  o.combined[v] = any ? op(o.init, total) : o.init;
  if (o.received != nullptr) o.received[v] = any_sent ? 1 : 0;
  then(v);
}

// Heavy vertices, first pass: one block of kBlock threads per chunk of kChunkSlots slots; the
// chunk's fold goes to partials[chunk] with its "has a value" and "sent" flags. With `Finish`, the
// block that completes a vertex's last chunk also folds its total (finish_heavy) and runs then(v):
// no second launch.
template <bool Finish, int Ahead, class Msg, class Op, class Source, class Then>
__device__ __forceinline__ void chunk_folds(const Source& src, const GatherOut<Msg>& o, const HeavyChunks<Msg>& b,
                                            const Op& op, const Then& then, unsigned block, unsigned blocks) {
  constexpr int kWarps = kBlock / 32;
  __shared__ alignas(Msg) unsigned char warp_acc[kWarps * sizeof(Msg)];
  __shared__ int warp_have[kWarps], warp_sent[kWarps];
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x / 32u;
  const VertexId* heavy = b.heavy;
  const std::uint32_t* owner = b.owner;
  const EdgeIndex* chunk_begin = b.chunk_begin;
  Msg* partials = b.partials;
  std::uint8_t* partial_flags = b.partial_flags;
  for (std::uint64_t q = block; q < b.chunks; q += blocks) {
    const VertexId v = heavy[owner[q]];
    const EdgeIndex begin = chunk_begin[q], vertex_end = o.offsets[v + 1] * o.m;
    const EdgeIndex end = begin + DegreeBins::kChunkSlots < vertex_end ? begin + DegreeBins::kChunkSlots : vertex_end;
    Msg acc = o.init;
    bool have = false, sent = false;
    if constexpr (stops_at_first_sent<Source>::value) {
      for (EdgeIndex base = begin; base < end; base += blockDim.x) {  // block-wide rounds and votes
        if (base + threadIdx.x < end) fold_into(acc, have, src(base + threadIdx.x, sent), op);
        if (__syncthreads_or(sent ? 1 : 0)) break;
      }
    } else {
      fold_strided<Ahead>(acc, have, sent, src, begin + threadIdx.x, end, blockDim.x, op);
    }
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
      partials[q] = total;
      partial_flags[2 * q] = any ? 1 : 0;
      partial_flags[2 * q + 1] = any_sent ? 1 : 0;
      if constexpr (Finish) {  // (the last of a vertex's chunks to get here finishes it)
        const std::uint32_t h = owner[q];
        __threadfence();
        if (atomicAdd(&b.chunks_done[h], 1u) == b.first_chunk[h + 1] - b.first_chunk[h] - 1) {
          b.chunks_done[h] = 0;  // (for the next launch)
          __threadfence();
          finish_heavy<true>(o, b, h, op, then);
        }
      }
    }
    __syncthreads();  // the shared slots are reused by the next chunk
  }
}

template <int Ahead, class Msg, class Op, class Source>
__global__ void __launch_bounds__(kBlock)
    gather_chunk_kernel(const __grid_constant__ Source src, const __grid_constant__ GatherOut<Msg> o,
                        const __grid_constant__ HeavyChunks<Msg> b, Op op) {
  await_previous_kernel();
  medusa::detail::bind_step_state(o.step_state);  // (Continue(), Halt(), Superstep())
  if (o.stopped_batch()) return;
  chunk_folds<false, Ahead>(src, o, b, op, NoVertexStep{}, blockIdx.x, gridDim.x);
}

// Heavy vertices, second pass: a thread per vertex folds its chunks' partial results.
template <class Msg, class Op, class Then>
__global__ void __launch_bounds__(kBlock)
    gather_chunks_finish_kernel(const __grid_constant__ GatherOut<Msg> o, const __grid_constant__ HeavyChunks<Msg> b,
                                std::uint64_t n, Op op, const __grid_constant__ Then then) {
  await_previous_kernel();
  medusa::detail::bind_step_state(o.step_state);  // (Continue(), Halt(), Superstep())
  if (o.stopped_batch()) return;
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t h = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; h < n;
       h += stride)
    finish_heavy<false>(o, b, h, op, then);
}

// gather_bins_kernel's blocks per SM: a whole SM's threads (2,048 on sm_80 and sm_90). The VERTEX
// step that also computes the next message took 40 registers without the bound (6 blocks per SM)
// and 30 with it, without spills. PageRank on ego-twitter with the prefetch forced on, 300
// iterations: 6.69-7.01 ms against 6.88-7.42 off; without the bound the prefetch lost (H100).
inline constexpr int kBinsBlocksPerSm = 2048 / kBlock;

// Every bin in one launch, for graphs whose passes are too short to pay four launches in a chain
// (DegreeBins::one_launch): blocks [0, chunk_blocks) fold the heavy chunks, each vertex finished by
// the block of its last chunk; the next `medium_blocks` the medium bin with a warp each; the rest
// the small bin with Gs lanes a vertex. The longest blocks go first, as blocks start in order:
// last, ego-twitter's heavy chunks (16 slots a thread) ran after every other block had started, and
// PageRank took 8.1-8.6 ms for 300 iterations against 6.9-7.7 with them first (H100, 2026-11-23).
template <int Gs, int Ahead, class Msg, class Op, class Source, class Then>
__global__ void __launch_bounds__(kBlock, kBinsBlocksPerSm)
    gather_bins_kernel(const __grid_constant__ Source src, const __grid_constant__ GatherOut<Msg> o,
                       std::uint64_t vertices, const VertexId* __restrict__ medium, std::uint64_t medium_count,
                       const __grid_constant__ HeavyChunks<Msg> b, unsigned chunk_blocks, unsigned medium_blocks,
                       Op op, const __grid_constant__ Then then) {
  await_previous_kernel();
  medusa::detail::bind_step_state(o.step_state);  // (Continue(), Halt(), Superstep())
  if (o.stopped_batch()) return;
  const unsigned block = blockIdx.x;
  if (block < chunk_blocks) {
    chunk_folds<true, Ahead>(src, o, b, op, then, block, chunk_blocks);
  } else if (block < chunk_blocks + medium_blocks) {
    group_folds<32, Ahead>(src, o, medium, medium_count, 0, op, then, block - chunk_blocks, medium_blocks);
  } else {
    group_folds<Gs, 1>(src, o, nullptr, vertices, DegreeBins::kSmallSlots, op, then,
                       block - chunk_blocks - medium_blocks, gridDim.x - chunk_blocks - medium_blocks);
  }
}

}  // namespace kernels

// out[v] for every vertex of `bins`, then then(v): four launches on `stream` (small, medium,
// heavy chunks, heavy totals), or one (DegreeBins::one_launch).
template <class Msg, class Op, class Source, class Then = NoVertexStep>
void gather_binned(const Source& src, const GatherOut<Msg>& out, const DegreeBins& bins,
                   const Op& op, unsigned max_blocks, cudaStream_t stream, const Then& then = {}) {
  const auto grid = [&](std::uint64_t threads) {
    const std::uint64_t blocks = (threads + kernels::kBlock - 1) / kernels::kBlock;
    return static_cast<unsigned>(blocks < max_blocks ? (blocks == 0 ? 1 : blocks) : max_blocks);
  };
  if (bins.one_launch()) {  // (a small graph: few medium warps, so four loads in flight)
    const auto one = [&](auto lanes) {
      constexpr int G = decltype(lanes)::value;
      const unsigned small = bins.vertices() != 0 ? grid(bins.vertices() * G) : 0;
      const unsigned medium = bins.medium_count() != 0 ? grid(bins.medium_count() * 32) : 0;
      const unsigned chunks =
          static_cast<unsigned>(bins.chunk_count() < max_blocks ? bins.chunk_count() : max_blocks);
      if (small + medium + chunks == 0) return;  // (no vertices)
      launch_kernel<kernels::gather_bins_kernel<G, 4, Msg, Op, Source, Then>>(
          small + medium + chunks, kernels::kBlock, stream, src, out, bins.vertices(), bins.medium(),
          bins.medium_count(), bins.heavy_chunks<Msg>(), chunks, medium, op, then);
      MEDUSA_CUDA_CHECK_LAUNCH("gather_bins_kernel");
    };
    if (bins.small_lanes() == 1) one(std::integral_constant<int, 1>{});
    else one(std::integral_constant<int, 4>{});
    return;
  }
  const auto small_bin = [&](auto lanes) {
    constexpr int G = decltype(lanes)::value;
    launch_kernel<kernels::gather_group_kernel<G, 1, Msg, Op, Source, Then>>(
        grid(bins.vertices() * G), kernels::kBlock, stream, src, out, nullptr, bins.vertices(),
        DegreeBins::kSmallSlots, op, then);
    MEDUSA_CUDA_CHECK_LAUNCH("gather_group_kernel (small-degree bin)");
  };
  if (bins.vertices() != 0 && bins.small_lanes() == 1) small_bin(std::integral_constant<int, 1>{});
  else if (bins.vertices() != 0) small_bin(std::integral_constant<int, 4>{});
  const auto long_bins = [&](auto ahead) {
    constexpr int A = decltype(ahead)::value;
    if (bins.medium_count() != 0) {
      launch_kernel<kernels::gather_group_kernel<32, A, Msg, Op, Source, Then>>(
          grid(bins.medium_count() * 32), kernels::kBlock, stream, src, out, bins.medium(), bins.medium_count(), 0,
          op, then);
      MEDUSA_CUDA_CHECK_LAUNCH("gather_group_kernel<32> (medium-degree bin)");
    }
    if (bins.heavy_count() != 0) {
      const unsigned blocks = static_cast<unsigned>(bins.chunk_count() < max_blocks ? bins.chunk_count() : max_blocks);
      const HeavyChunks<Msg> heavy = bins.heavy_chunks<Msg>();
      launch_kernel<kernels::gather_chunk_kernel<A, Msg, Op, Source>>(blocks, kernels::kBlock, stream, src, out,
                                                                      heavy, op);
      MEDUSA_CUDA_CHECK_LAUNCH("gather_chunk_kernel (high-degree bin)");
      launch_kernel<kernels::gather_chunks_finish_kernel<Msg, Op, Then>>(
          grid(bins.heavy_count()), kernels::kBlock, stream, out, heavy, bins.heavy_count(), op, then);
      MEDUSA_CUDA_CHECK_LAUNCH("gather_chunks_finish_kernel (high-degree bin)");
    }
  };
  if (bins.loads_ahead()) long_bins(std::integral_constant<int, 4>{});
  else long_bins(std::integral_constant<int, 1>{});
}

// The same with G lanes for every vertex (MEDUSA_COMBINER=group4|warp: one strategy for all).
template <int G, class Msg, class Op, class Source, class Then = NoVertexStep>
void gather_uniform(const Source& src, const GatherOut<Msg>& out, std::uint64_t vertices,
                    const Op& op, unsigned max_blocks, cudaStream_t stream, const Then& then = {}) {
  if (vertices == 0) return;
  const std::uint64_t blocks = (vertices * G + kernels::kBlock - 1) / kernels::kBlock;
  const unsigned grid = static_cast<unsigned>(blocks < max_blocks ? blocks : max_blocks);
  launch_kernel<kernels::gather_group_kernel<G, 1, Msg, Op, Source, Then>>(grid, kernels::kBlock, stream, src, out,
                                                                            nullptr, vertices, ~EdgeIndex{0}, op, then);
  MEDUSA_CUDA_CHECK_LAUNCH("gather_group_kernel");
}

}  // namespace medusa::gpu
