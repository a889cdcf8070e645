// A sparse frontier of uniform sends under min or max, pushed straight into the combined values
// (common::may_push_combine): run by the queue expansion (queue_expand.cuh) as an edge-parallel
// element, one atomic fold per frontier edge into its head's value, which starts at the fill value.
#pragma once

#include <medusa/device_api.h>
#include <medusa/types.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace medusa::gpu {

// *addr = op(*addr, x), atomically, for a 4- or 8-byte message and a min / max operator. Values
// only move one way under those, so a stale first read can only make the loop try once more, and
// op(current, x) == current (most edges, once a head has its value) costs no atomic at all.
template <class Msg, class Op>
__device__ __forceinline__ void atomic_fold(Msg* addr, const Msg& x, const Op& op) {
  static_assert(sizeof(Msg) == 4 || sizeof(Msg) == 8, "atomic_fold: 4- or 8-byte messages");
  using Word = std::conditional_t<sizeof(Msg) == 4, unsigned int, unsigned long long>;
  Word* word = reinterpret_cast<Word*>(addr);
  Word old = *word;
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

// Out-edge i of frontier vertex u: folds u's message into the head's combined value and marks
// the head as a receiver.
template <class Msg, class Op>
struct PushCombineElement {
  const Msg* sources;  // one message per source vertex
  Msg* combined;
  std::uint8_t* received;  // or null
  Op op;
  template <class VA, class EA>
  __device__ __forceinline__ void operator()(const KernelCtx<Msg>& c, const VA&, const EA&, VertexId u,
                                             std::uint32_t i) const {
    const VertexId w = c.out_dst[c.out_offsets[u] + i];
    atomic_fold(combined + w, sources[u], op);
    if (received != nullptr) received[w] = 1;
  }
};

}  // namespace medusa::gpu
