// Reads and sends by vertex id (docs/programming-guide.md, "Reads and sends by vertex id").
//
//   const Vertex& u = vertex_at(v, id);  // read-only view of vertex `id` (v: the element at hand)
//   v.sendMsgTo(id, msg);                // a message to vertex `id`, folded by the Combiner
//
// A read by id sees the field as it was when the launch began: medusa-cc refuses a functor that
// reads a field by id and also writes it (the launch would race with itself), so no element of the
// launch changes what another reads. A send by id is folded atomically, with the built-in combiner
// of Config::combinerOpType, into one value per vertex that InitMessageBuffer fills and Combiner()
// folds into combined_msg() with the edge messages; the vertex then counts as received.
// On several partitions (and MPI ranks) functors see the same values: a read by id goes to a mirror
// of the fields read by id over the whole graph, refreshed from their owners before a launch that
// reads by id when a launch wrote one since; a send goes to an outbox by global id, delivered to the
// target's owner and folded into its slot before the Combiner (common/by_id_exchange.h).
#pragma once

#include <medusa/config.h>
#include <medusa/types.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace medusa {

#if defined(MEDUSA_GENERATED)
// The generated proxies provide medusa_vertex_at (a read-only proxy of vertex `id`).
template <class Element>
MEDUSA_HD auto vertex_at(const Element& element, VertexId id) {
  return element.medusa_vertex_at(id);
}
#endif

// The vertex arrays vertex_at reads vertex `id` from: the launch's own in one partition, the
// whole-graph mirror in a partitioned run (KernelCtx::by_id_arrays).
template <class Arrays, class Msg>
MEDUSA_HD const Arrays& by_id_arrays(const KernelCtx<Msg>& c, const Arrays* local) {
  return c.by_id_arrays != nullptr ? *static_cast<const Arrays*>(c.by_id_arrays) : *local;
}

namespace detail {

// The value x of the built-in combiner `op` leaves unchanged (op(a, x) == a): what a partition's
// outbox slot holds before the first send, so that folding every partition's slot at the owner
// counts each send once.
template <class Msg>
MEDUSA_HD inline Msg builtin_identity(int op) {
  switch (op) {
    case MEDUSA_MIN: return std::numeric_limits<Msg>::max();
    case MEDUSA_MAX: return std::numeric_limits<Msg>::lowest();
    case MEDUSA_PRODUCT:
    case MEDUSA_LOGICAL_AND: return Msg(1);
    default: break;
  }
  if constexpr (std::is_integral_v<Msg>)
    if (op == MEDUSA_BIT_AND) return static_cast<Msg>(~Msg(0));
  return Msg(0);  // sum, logical or, bitwise or and xor
}

// The built-in combiner `op` applied to two messages (an arithmetic type; bitwise ones on integers).
template <class Msg>
MEDUSA_HD inline Msg apply_builtin(int op, const Msg& a, const Msg& b) {
  switch (op) {
    case MEDUSA_SUM: return static_cast<Msg>(a + b);
    case MEDUSA_MIN: return b < a ? b : a;
    case MEDUSA_MAX: return a < b ? b : a;
    case MEDUSA_PRODUCT: return static_cast<Msg>(a * b);
    case MEDUSA_LOGICAL_AND: return static_cast<Msg>(a != Msg(0) && b != Msg(0));
    case MEDUSA_LOGICAL_OR: return static_cast<Msg>(a != Msg(0) || b != Msg(0));
    default: break;
  }
  if constexpr (std::is_integral_v<Msg>) {
    if (op == MEDUSA_BIT_OR) return static_cast<Msg>(a | b);
    if (op == MEDUSA_BIT_AND) return static_cast<Msg>(a & b);
    if (op == MEDUSA_BIT_XOR) return static_cast<Msg>(a ^ b);
  }
  return a;
}

// *slot = op(*slot, x), atomically (a compare-and-swap loop on the message's bits; a send that
// would change nothing, as most do once a min or max has settled, costs no atomic).
template <class Msg>
MEDUSA_HD inline void atomic_fold_builtin(Msg* slot, const Msg& x, int op) {
  static_assert(std::is_arithmetic_v<Msg> && (sizeof(Msg) == 4 || sizeof(Msg) == 8),
                "sendMsgTo: the program's message must be a 4- or 8-byte arithmetic type");
  using Word = std::conditional_t<sizeof(Msg) == 4, unsigned int, unsigned long long>;
  Word* word = reinterpret_cast<Word*>(slot);
#if defined(__CUDA_ARCH__)
  // The hardware's atomics where CUDA has one for the type: hooking in connected components sends
  // many values to one root, where a compare-and-swap loop would retry.
  constexpr bool native = std::is_same_v<Msg, int> || std::is_same_v<Msg, unsigned int> ||
                          std::is_same_v<Msg, unsigned long long> || std::is_same_v<Msg, long long>;
  if constexpr (native) {
    if (op == MEDUSA_MIN) return (void)(x < *slot ? atomicMin(slot, x) : x);
    if (op == MEDUSA_MAX) return (void)(*slot < x ? atomicMax(slot, x) : x);
    if (op == MEDUSA_SUM && !std::is_same_v<Msg, long long>) return (void)atomicAdd(slot, x);
  }
  Word seen = *reinterpret_cast<volatile Word*>(word);
#else
  Word seen = __atomic_load_n(word, __ATOMIC_RELAXED);
#endif
  while (true) {
    Msg current;
    std::memcpy(&current, &seen, sizeof(Msg));
    const Msg next = apply_builtin(op, current, x);
    Word next_bits;
    std::memcpy(&next_bits, &next, sizeof(Msg));
    if (next_bits == seen) return;
#if defined(__CUDA_ARCH__)
    const Word old = atomicCAS(word, seen, next_bits);
    if (old == seen) return;
    seen = old;
#else
    if (__atomic_compare_exchange_n(word, &seen, next_bits, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return;
#endif
  }
}

template <class Ctx, class Msg>
MEDUSA_HD inline void send_by_id(const Ctx& c, VertexId to, const Msg& msg) {
  atomic_fold_builtin(&c.sent_by_id[to], msg, c.sent_by_id_op);
  if (c.sent_by_id_flags != nullptr) flag_store(&c.sent_by_id_flags[to]);  // (partitioned: the owner sets received)
  else if (c.received != nullptr) flag_store(&c.received[to]);
}

}  // namespace detail
}  // namespace medusa
