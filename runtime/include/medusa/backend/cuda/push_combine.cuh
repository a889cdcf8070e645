// A frontier under min, max or bitwise or / and, pushed straight into the combined values
// (common::may_push_combine): run by the queue expansion (queue_expand.cuh) as an edge-parallel
// element, one atomic fold per frontier edge into its head's value, which starts at the fill value.
#pragma once

#include <medusa/backend/common/combiner_ops.h>
#include <medusa/backend/common/pull_fusion.h>
#include <medusa/backend/cuda/kernels.cuh>
#include <medusa/device_api.h>
#include <medusa/types.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace medusa::gpu {

// The integer type CUDA's atomicMin / atomicMax take for an integer message (void: none).
template <class Msg>
using native_min_max_word = std::conditional_t<
    !std::is_integral_v<Msg> || (sizeof(Msg) != 4 && sizeof(Msg) != 8), void,
    std::conditional_t<sizeof(Msg) == 4, std::conditional_t<std::is_signed_v<Msg>, int, unsigned int>,
                       std::conditional_t<std::is_signed_v<Msg>, long long, unsigned long long>>>;

// *addr, read in L2 rather than through this SM's L1. A pushed frontier folds into a hub's
// combined value from thousands of edges on every SM: an L1 line that still holds the fill value
// long after other SMs lowered it makes every one of them an atomic on the same word, and those
// serialize in L2 (docs/tuning.md, "Measurements behind the defaults").
template <class T>
__device__ __forceinline__ T load_in_l2(const T* addr) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 4 || sizeof(T) == 8, "load_in_l2: 1-, 4- or 8-byte values");
  using Word = std::conditional_t<sizeof(T) == 1, unsigned char,
                                  std::conditional_t<sizeof(T) == 4, unsigned int, unsigned long long>>;
  const Word w = __ldcg(reinterpret_cast<const Word*>(addr));
  T value;
  std::memcpy(&value, &w, sizeof(T));
  return value;
}

// *addr = op(*addr, x), atomically, for a 4- or 8-byte message and a min / max / bitwise or / and
// operator (or / and: one atomicOr / atomicAnd on the message's bits, for any integer). Values
// only move one way under those, so a stale first read can only make the loop try once more, and
// op(current, x) == current (most edges, once a head has its value) costs no atomic at all. An
// integer message that would change takes one atomicMin / atomicMax whose result nobody waits for
// (a reduction), instead of a compare-and-swap round trip: a road network's level is a chain of
// such dependent steps.
// `in_l2`: read *addr with load_in_l2 (a frontier push); a pass over every edge reads it through
// L1, whose hits it needs more (SSSP on Kronecker scale 22 took twice as long with L2 reads).
template <class Msg, class Op>
__device__ __forceinline__ void atomic_fold(Msg* addr, const Msg& x, const Op& op, bool in_l2) {
  static_assert(sizeof(Msg) == 4 || sizeof(Msg) == 8, "atomic_fold: 4- or 8-byte messages");
  using Word = std::conditional_t<sizeof(Msg) == 4, unsigned int, unsigned long long>;
  using Native = native_min_max_word<Msg>;
  constexpr bool is_min = std::is_same_v<Op, common::MinOp<Msg>>, is_max = std::is_same_v<Op, common::MaxOp<Msg>>;
  constexpr bool is_or = std::is_same_v<Op, common::BitOrOp<Msg>>, is_and = std::is_same_v<Op, common::BitAndOp<Msg>>;
  if constexpr (is_or || is_and) {  // (integers only; bits move one way as values do under min / max)
    const Msg current = in_l2 ? load_in_l2(addr) : *addr;
    if (op(current, x) == current) return;
    Word* word = reinterpret_cast<Word*>(addr);
    Word bits;
    std::memcpy(&bits, &x, sizeof(Msg));
    if constexpr (is_or) atomicOr(word, bits);
    else atomicAnd(word, bits);
    return;
  }
  if constexpr (!std::is_void_v<Native> && (is_min || is_max)) {
    const Msg current = in_l2 ? load_in_l2(addr) : *addr;
    if (op(current, x) == current) return;
    Native* native = reinterpret_cast<Native*>(addr);
    if constexpr (is_min) atomicMin(native, static_cast<Native>(x));
    else atomicMax(native, static_cast<Native>(x));
    return;
  }
  Word* word = reinterpret_cast<Word*>(addr);
  Word old = in_l2 ? load_in_l2(word) : *word;
  for (;;) {
    Msg current;
    std::memcpy(&current, &old, sizeof(Msg));
    const Msg next = op(current, x);
    Word desired;
    std::memcpy(&desired, &next, sizeof(Msg));
    if (desired == old) return;
    const Word seen = atomicCAS(word, old, desired);
    if (seen == old) return;
    old = seen;
  }
}

// Vertices a push reached, each once (a batched push: superstep_batch.cuh). The receiver flags
// decide who appends: the flag's word, padded to whole words, is set atomically.
struct ReceiverQueue {
  VertexId* ids = nullptr;  // null: no queue kept
  unsigned long long* count = nullptr;
  // `seen`: received[w] as read before the fold (a set flag stays set).
  __device__ __forceinline__ void mark(std::uint8_t* received, VertexId w, bool seen) const {
    if (!seen && medusa::detail::claim_flag(received, w)) ids[atomicAdd(count, 1ull)] = w;
  }
};

// Where the pushes fold: vertex w's combined value, and its receiver flag.
template <class Msg, class Op>
struct PushTarget {
  Msg* combined;
  std::uint8_t* received;  // or null
  Op op;
  ReceiverQueue receivers;  // (with received only)
  bool frontier = false;     // a push of the frontier's edges; the EDGE form's pass over every edge leaves it
  __device__ __forceinline__ void fold(VertexId w, const Msg& x) const {
    // In a frontier push, read in L2, and a set flag is not stored again: a hub's flag would take a
    // store from every edge into it. (The flag is read beside the fold's read.)
    const bool seen = frontier && received != nullptr && load_in_l2(received + w) != 0;
    atomic_fold(combined + w, x, op, frontier);
    if (receivers.ids != nullptr) receivers.mark(received, w, seen);
    else if (received != nullptr && !seen) received[w] = 1;
  }
};

// Out-edge i of frontier vertex u: folds u's message into the head's combined value and marks
// the head as a receiver.
template <class Msg, class Op>
struct PushCombineElement {
  const Msg* sources;  // one message per source vertex
  PushTarget<Msg, Op> into;
  template <class VA, class EA>
  __device__ __forceinline__ void operator()(const KernelCtx<Msg>& c, const VA&, const EA&, VertexId u,
                                             std::uint32_t i) const {
    into.fold(c.out_dst[c.out_offsets[u] + i], sources[u]);
  }
};

// The same with u's message computed here, per edge, instead of for every vertex beforehand: a
// batched push of a sparse frontier whose slots nothing reads (the per-vertex pass costs more than
// the push there).
template <class Msg, class Op, class Work>
struct PushSourceElement {
  using medusa_aggregates_added = medusa::detail::aggregates_added_by<Work>;  // (block_aggregates.cuh)
  Work work;
  PushTarget<Msg, Op> into;
  template <class VA, class EA>
  __device__ __forceinline__ void operator()(const KernelCtx<Msg>& c, const VA& va, const EA& ea, VertexId u,
                                             std::uint32_t i) const {
    into.fold(c.out_dst[c.out_offsets[u] + i], work.medusa_source_message(c, va, ea, u));
  }
};

// Out-edge i of frontier vertex u, for sends that depend on the edge: runs the edge's work, writes
// its slot (the message, or the fill value if it sent none) unless nothing will read it
// (ProgramUses::combiner_consumes_slots), and folds a sent message into the head's combined value.
// Slots of inactive sources are left for fill_unsent_slots_kernel.
template <class Msg, class Op, class Work>
struct PushFoldElement {
  using medusa_aggregates_added = medusa::detail::aggregates_added_by<Work>;  // (block_aggregates.cuh)
  Work work;
  PushTarget<Msg, Op> into;
  Msg fill;
  bool write_slots;
  template <class VA, class EA>
  __device__ __forceinline__ void operator()(const KernelCtx<Msg>& c, const VA& va, const EA& ea, VertexId u,
                                             std::uint32_t i) const {
    bool sent = false;
    const Msg x = common::run_in_edge(c, va, ea, work, u, i, fill, sent);
    const EdgeIndex e = c.out_offsets[u] + i;
    if (write_slots) c.messages[c.rid[e]] = x;
    if (sent) into.fold(c.out_dst[e], x);
  }
};

// Edge e of an EDGE launch over all edges, in a program whose Combiner consumes its slots: runs
// the functor's element with sendMsg redirected into a fold slot and folds a sent message into
// the tail's combined value.
template <class Msg, class Op, class Element>
struct PushFoldEdgeElement {
  using medusa_aggregates_added = medusa::detail::aggregates_added_by<Element>;  // (block_aggregates.cuh)
  Element element;
  PushTarget<Msg, Op> into;
  Msg fill;
  template <class VA, class EA>
  __device__ __forceinline__ void operator()(const KernelCtx<Msg>& c, const VA& va, const EA& ea,
                                             EdgeIndex e) const {
    bool sent = false;
    const Msg x = common::fold_sends(c, fill, sent, [&](const KernelCtx<Msg>& local) { element(local, va, ea, e); });
    if (sent) into.fold(c.out_dst[e], x);
  }
};

namespace kernels {

// combined[v] = fill and received[v] = 0 (when not null): the start of an edge-dependent push.
// Nothing after a stopped superstep of a batch (`halted`).
template <class Msg>
__global__ void __launch_bounds__(kBlock)
    reset_combined_kernel(Msg* __restrict__ combined, std::uint8_t* __restrict__ received, std::uint64_t n,
                          Msg fill, const int* __restrict__ halted) {
  await_previous_kernel();
  if (batch_halted(halted)) return;
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t v = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < n; v += stride) {
    combined[v] = fill;
    if (received != nullptr) received[v] = 0;
  }
}

// combined[v] = fill and received[v] = 0 for the *count vertices of `reached` (the receivers of an
// earlier batched push, in the buffers the next push folds into): the start of that push, in place of
// a pass over every vertex.
template <class Msg>
__global__ void __launch_bounds__(kBlock)
    reset_receivers_kernel(Msg* __restrict__ combined, std::uint8_t* __restrict__ received,
                           const VertexId* __restrict__ reached, const unsigned long long* __restrict__ count,
                           Msg fill, const int* __restrict__ halted) {
  await_previous_kernel();
  if (batch_halted(halted)) return;
  const std::uint64_t n = *count, stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const VertexId v = reached[i];
    combined[v] = fill;
    received[v] = 0;
  }
}

// Slot j (in-edge order) = fill where its source was not in the pushed frontier (`pushed` flags):
// completes the slots an edge-dependent push left pending, when something reads them.
template <class Msg>
__global__ void __launch_bounds__(kBlock)
    fill_unsent_slots_kernel(Msg* __restrict__ slots, const VertexId* __restrict__ in_src,
                             const std::uint8_t* __restrict__ pushed, std::uint64_t n, Msg fill) {
  await_previous_kernel();
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t j = static_cast<std::uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; j < n; j += stride)
    if (pushed[in_src[j]] == 0) slots[j] = fill;
}

}  // namespace kernels
}  // namespace medusa::gpu
