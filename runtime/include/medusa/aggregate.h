// Global aggregates (Pregel's aggregators): a namespace-scope value that every functor may add to
// and read, folded once per superstep.
//
//   medusa::Aggregate<int, MEDUSA_SUM> removed;              // sum, min, max, bitwise or / and
//   medusa::CustomAggregate<float, AbsMax> widest{0.0f};     // a user's associative operator
//
//   removed.add(1);          // in any functor: contributes to this superstep's fold
//   removed.value();         // in functors, the iteration function and main: the fold of the last
//                            // superstep that ended (the start value before a Run's first one)
//
// medusa-cc binds `removed` inside each functor to an AggregateRef (a slot index), so device code
// never touches the host object. The session resets the slots before each superstep and folds them
// (over every partition) after it; docs/programming-guide.md, "Global aggregates".
#pragma once

#include <medusa/config.h>
#include <medusa/types.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

namespace medusa {

namespace detail {

struct AggregateRegistration;

// How many aggregates one program may declare (medusa-cc reports more).
inline constexpr int kMaxAggregates = 16;

// Sub-slots per aggregate that a GPU's compare-and-swap folds spread over (by block), so that
// blocks that end together do not retry on one word; the download folds them into acc.
inline constexpr int kAggregateSpread = 32;

// Every aggregate as raw bits, 8 bytes a slot (4-byte types use the first 4): what functors add to
// (acc, and on a GPU `spread` for operators without a hardware atomic), what they read
// (published), and each operator's identity (what a GPU block's partial fold starts from). Host
// memory on the host backend; a __device__ copy per GPU.
struct AggregateCells {
  std::uint64_t acc[kMaxAggregates];
  std::uint64_t published[kMaxAggregates];
  std::uint64_t identity[kMaxAggregates];
  std::uint64_t spread[kMaxAggregates][kAggregateSpread];
};

// Sets every sub-slot of `cells` to its aggregate's acc (the identity before a superstep).
inline void reset_spread(AggregateCells& cells) {
  for (int i = 0; i < kMaxAggregates; ++i)
    for (std::uint64_t& sub : cells.spread[i]) sub = cells.acc[i];
}

template <class T>
MEDUSA_HD inline std::uint64_t to_bits(const T& value) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "aggregates hold 4- or 8-byte arithmetic values");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  return bits;
}
template <class T>
MEDUSA_HD inline T from_bits(std::uint64_t bits) {
  T value;
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}

// The built-in operators and their identities (what a superstep with no add() folds to).
template <class T, CombinerOp Op>
struct AggregateOp {
  static_assert(std::is_arithmetic_v<T>, "Aggregate<T, op>: T must be an arithmetic type");
  static_assert(Op == MEDUSA_SUM || Op == MEDUSA_MIN || Op == MEDUSA_MAX || Op == MEDUSA_BIT_OR ||
                    Op == MEDUSA_BIT_AND,
                "Aggregate<T, op>: op is one of MEDUSA_SUM, MEDUSA_MIN, MEDUSA_MAX, MEDUSA_BIT_OR, MEDUSA_BIT_AND");
  static_assert(std::is_integral_v<T> || (Op != MEDUSA_BIT_OR && Op != MEDUSA_BIT_AND),
                "Aggregate<T, MEDUSA_BIT_OR / MEDUSA_BIT_AND>: T must be an integer type");
  MEDUSA_HD T operator()(const T& a, const T& b) const {
    if constexpr (Op == MEDUSA_SUM) return static_cast<T>(a + b);
    else if constexpr (Op == MEDUSA_MIN) return b < a ? b : a;
    else if constexpr (Op == MEDUSA_MAX) return a < b ? b : a;
    else if constexpr (Op == MEDUSA_BIT_OR) { if constexpr (std::is_integral_v<T>) return static_cast<T>(a | b); else return a; }
    else { if constexpr (std::is_integral_v<T>) return static_cast<T>(a & b); else return a; }
  }
  static T identity() {
    using L = std::numeric_limits<T>;
    if constexpr (Op == MEDUSA_MIN) return L::has_infinity ? L::infinity() : L::max();
    else if constexpr (Op == MEDUSA_MAX) return L::has_infinity ? -L::infinity() : L::lowest();
    else if constexpr (Op == MEDUSA_BIT_AND) return static_cast<T>(~T(0));
    else return T(0);
  }
};

// The type-erased face of one aggregate object, for the session.
struct AggregateEntry {
  void* object = nullptr;
  std::uint64_t (*identity)(const void* object) = nullptr;
  std::uint64_t (*value)(const void* object) = nullptr;
  void (*restart)(void* object) = nullptr;  // value() = the start value, as a Run begins
  void (*publish)(void* object, std::uint64_t bits) = nullptr;
  std::uint64_t (*fold)(std::uint64_t a, std::uint64_t b) = nullptr;
};

// The aggregates of one program (its ProgramTraits): slot i holds the one medusa-cc numbered i.
// Generated code registers each once; a program without aggregates has none.
template <class Program>
std::vector<AggregateEntry>& aggregate_registry() {
  static std::vector<AggregateEntry> entries;
  return entries;
}
template <class Program>
std::size_t aggregate_count() { return aggregate_registry<Program>().size(); }

// The host's slots: those of the partition whose functors run (each host engine holds its own, so
// partials fold in partition order as over MPI ranks and GPUs), else these.
inline AggregateCells host_aggregate_cells{};
inline AggregateCells* host_aggregate_target = &host_aggregate_cells;

// While it lives, host functors add to and read `cells` (set before an OpenMP region, so its
// workers see it too).
class HostAggregateTarget {
 public:
  explicit HostAggregateTarget(AggregateCells& cells) : previous_(host_aggregate_target) { host_aggregate_target = &cells; }
  ~HostAggregateTarget() { host_aggregate_target = previous_; }
  HostAggregateTarget(const HostAggregateTarget&) = delete;
  HostAggregateTarget& operator=(const HostAggregateTarget&) = delete;

 private:
  AggregateCells* previous_;
};
#if defined(__CUDACC__)
static __device__ AggregateCells d_aggregate_cells;
// A block's partial folds, one slot per aggregate: add() folds a warp's total here, and the kernel
// that runs the functors gives the slots their identities first and folds them into
// d_aggregate_cells at its end, converged (backend/cuda/block_aggregates.cuh). add() sits in
// divergent code, where no block-wide barrier may be.
static __shared__ std::uint64_t s_block_aggregates[kMaxAggregates];
#endif

MEDUSA_HD inline AggregateCells& aggregate_cells() {
#if defined(__CUDA_ARCH__)
  return d_aggregate_cells;
#else
  return *host_aggregate_target;
#endif
}

template <class T, class Op, CombinerOp Builtin>
inline constexpr bool is_builtin_op = std::is_same_v<Op, AggregateOp<T, Builtin>>;
template <class T>
inline constexpr bool is_int32 = std::is_same_v<T, int> || std::is_same_v<T, unsigned int>;
template <class T>
inline constexpr bool is_int64 = std::is_same_v<T, long long> || std::is_same_v<T, unsigned long long>;

// One compare-and-swap of a 4- or 8-byte word; on failure `expected` becomes what the word holds.
template <class Word>
MEDUSA_HD inline bool compare_exchange(Word* word, Word& expected, Word desired) {
#if defined(__CUDA_ARCH__)
  const Word seen = atomicCAS(word, expected, desired);
  if (seen == expected) return true;
  expected = seen;
  return false;
#else
  return __atomic_compare_exchange_n(word, &expected, desired, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
#endif
}

// Whether atomic_fold has a hardware atomic for T under Op on a GPU (else a compare-and-swap loop).
template <class T, class Op>
inline constexpr bool has_hardware_atomic =
    (is_builtin_op<T, Op, MEDUSA_SUM> &&
     (is_int32<T> || is_int64<T> || std::is_same_v<T, float> || std::is_same_v<T, double>)) ||
    ((is_int32<T> || is_int64<T>) && (is_builtin_op<T, Op, MEDUSA_MIN> || is_builtin_op<T, Op, MEDUSA_MAX> ||
                                      is_builtin_op<T, Op, MEDUSA_BIT_OR> || is_builtin_op<T, Op, MEDUSA_BIT_AND>));

// *slot = op(*slot, x), atomically.
template <class T, class Op>
MEDUSA_HD inline void atomic_fold(std::uint64_t* slot, const T& x, const Op& op) {
  using Word = std::conditional_t<sizeof(T) == 4, unsigned int, unsigned long long>;
  auto* word = reinterpret_cast<Word*>(slot);
#if defined(__CUDA_ARCH__)
  // The hardware's own atomics where there is one; min, max, or and and first read the slot and
  // skip the atomic when it would change nothing (most warps, once the fold has settled).
  if constexpr (is_builtin_op<T, Op, MEDUSA_SUM> &&
                (is_int32<T> || std::is_same_v<T, float> || std::is_same_v<T, double> ||
                 std::is_same_v<T, unsigned long long>)) {
    if (x != T(0)) atomicAdd(reinterpret_cast<T*>(slot), x);
    return;
  }
  if constexpr (is_builtin_op<T, Op, MEDUSA_SUM> && std::is_same_v<T, long long>) {
    if (x != 0) atomicAdd(reinterpret_cast<unsigned long long*>(slot), static_cast<unsigned long long>(x));
    return;  // (two's complement: the same bits as a signed add)
  }
  if constexpr (is_builtin_op<T, Op, MEDUSA_MIN> || is_builtin_op<T, Op, MEDUSA_MAX> ||
                is_builtin_op<T, Op, MEDUSA_BIT_OR> || is_builtin_op<T, Op, MEDUSA_BIT_AND>) {
    const T seen = from_bits<T>(*reinterpret_cast<volatile std::uint64_t*>(slot));
    if (op(seen, x) == seen) return;  // (a stale read only costs the atomic below)
    if constexpr (is_int32<T> || is_int64<T>) {
      T* p = reinterpret_cast<T*>(slot);
      if constexpr (is_builtin_op<T, Op, MEDUSA_MIN>) return (void)atomicMin(p, x);
      else if constexpr (is_builtin_op<T, Op, MEDUSA_MAX>) return (void)atomicMax(p, x);
      else if constexpr (is_builtin_op<T, Op, MEDUSA_BIT_OR>) return (void)atomicOr(p, x);
      else return (void)atomicAnd(p, x);
    }
  }
  Word assumed = *reinterpret_cast<volatile Word*>(word);
#else
  Word assumed = __atomic_load_n(word, __ATOMIC_RELAXED);
#endif
  // Everything else (floating-point min and max, 64-bit sums of other types, user operators).
  for (;;) {
    const T next = op(from_bits<T>(assumed), x);
    Word next_bits;
    std::memcpy(&next_bits, &next, sizeof(T));
    if (next_bits == assumed || compare_exchange(word, assumed, next_bits)) return;
  }
}

#if defined(__CUDACC__)
// Lane `from`'s x (shuffle_xor: lane ^ mask's), over `lanes`.
template <class T>
__device__ inline T shuffle(unsigned int lanes, const T& x, int from, bool xor_lane = false) {
  using Word = std::conditional_t<sizeof(T) == 4, unsigned int, unsigned long long>;
  Word bits;
  std::memcpy(&bits, &x, sizeof(T));
  bits = xor_lane ? __shfl_xor_sync(lanes, bits, from) : __shfl_sync(lanes, bits, from);
  T out;
  std::memcpy(&out, &bits, sizeof(T));
  return out;
}

// The fold of the x of every lane in `peers` (lanes of one warp at the same add), in each of them:
// the warp-reduce instructions for 32-bit integers (sm_80 on), five shuffles for a whole warp,
// else one shuffle per lane, in lane order. (A user's operator commutes: any order folds the same.)
template <class T, class Op>
__device__ inline T warp_fold(unsigned int peers, const T& x, const Op& op) {
#if __CUDA_ARCH__ >= 800
  if constexpr (is_int32<T> && is_builtin_op<T, Op, MEDUSA_SUM>) return __reduce_add_sync(peers, x);
  if constexpr (is_int32<T> && is_builtin_op<T, Op, MEDUSA_MIN>) return __reduce_min_sync(peers, x);
  if constexpr (is_int32<T> && is_builtin_op<T, Op, MEDUSA_MAX>) return __reduce_max_sync(peers, x);
  if constexpr (is_int32<T> && is_builtin_op<T, Op, MEDUSA_BIT_OR>)
    return static_cast<T>(__reduce_or_sync(peers, static_cast<unsigned int>(x)));
  if constexpr (is_int32<T> && is_builtin_op<T, Op, MEDUSA_BIT_AND>)
    return static_cast<T>(__reduce_and_sync(peers, static_cast<unsigned int>(x)));
#endif
  T total = x;
  if (peers == 0xffffffffu) {
    for (int distance = 16; distance >= 1; distance /= 2) total = op(total, shuffle(peers, total, distance, true));
    return total;
  }
  bool first = true;
  for (unsigned int m = peers; m != 0; m &= m - 1) {
    const T y = shuffle(peers, x, __ffs(m) - 1);
    total = first ? y : op(total, y);
    first = false;
  }
  return total;
}
#endif

// add(x) on the device folds the values of the lanes of a warp that add to the same slot at once
// (warp_fold) and lets the lowest of them fold the total into the block's slot in shared memory:
// one shared-memory atomic (or compare-and-swap loop) per warp. The kernel's end folds each block's
// slot into the GPU's: one global atomic per block (block_aggregates.cuh).
template <class T, class Op>
MEDUSA_HD inline void aggregate_add(int index, const T& x) {
  const Op op{};
#if defined(__CUDA_ARCH__)
  const unsigned int peers = __match_any_sync(__activemask(), index);
  const T total = warp_fold(peers, x, op);
  unsigned int lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  if (static_cast<int>(lane) == __ffs(peers) - 1) atomic_fold(&s_block_aggregates[index], total, op);
#else
  atomic_fold(&aggregate_cells().acc[index], x, op);
#endif
}

}  // namespace detail

// What a functor's `name` refers to after medusa-cc: aggregate slot `Index` folded with `Op`.
// (Static members: device code calls them through a host constexpr object without its address.)
template <class T, class Op, int Index>
struct AggregateRef {
  using value_type = T;
  using op_type = Op;
  static constexpr int index = Index;
  MEDUSA_HD static void add(const T& x) { detail::aggregate_add<T, Op>(Index, x); }
  MEDUSA_HD static T value() { return detail::from_bits<T>(detail::aggregate_cells().published[Index]); }
};

// The aggregates an element functor adds to (decltypes of its AggregateRefs), as medusa-cc emits
// them in the element: `using medusa_aggregates_added = medusa::AddedAggregates<...>;`. A CUDA
// kernel that runs the element reduces these per block (backend/cuda/block_aggregates.cuh).
template <class... Refs>
struct AddedAggregates {};

// The host object behind both aggregate spellings.
template <class T, class Op>
class AggregateBase {
  static_assert(std::is_arithmetic_v<T> && (sizeof(T) == 4 || sizeof(T) == 8),
                "an aggregate holds a 4- or 8-byte arithmetic type (int, unsigned, long long, float, double, ...)");

 public:
  using value_type = T;
  using op_type = Op;
  AggregateBase(const AggregateBase&) = delete;
  AggregateBase& operator=(const AggregateBase&) = delete;

  // The fold of the last superstep that ended, or the start value before the first superstep of a Run.
  T value() const { return value_; }
  // In functors only (medusa-cc binds the name there); see the programming guide.
  void add(const T& x) const;

 protected:
  AggregateBase(const T& identity, const T& initial) : identity_(identity), initial_(initial), value_(initial) {}

 private:
  friend struct detail::AggregateRegistration;
  T identity_;
  T initial_;
  T value_;
};

template <class T, CombinerOp Op>
class Aggregate : public AggregateBase<T, detail::AggregateOp<T, Op>> {
 public:
  // value() is the operator's identity (0, +inf, ...) until a superstep ends, or `initial`.
  Aggregate() : AggregateBase<T, detail::AggregateOp<T, Op>>(identity(), identity()) {}
  explicit Aggregate(const T& initial) : AggregateBase<T, detail::AggregateOp<T, Op>>(identity(), initial) {}

 private:
  static T identity() { return detail::AggregateOp<T, Op>::identity(); }
};

// Op: a struct with `T operator()(const T&, const T&) const`, associative and commutative (the
// order of the adds is unspecified); `identity` is what a superstep with no add() folds to.
template <class T, class Op>
class CustomAggregate : public AggregateBase<T, Op> {
 public:
  explicit CustomAggregate(const T& identity) : AggregateBase<T, Op>(identity, identity) {}
  CustomAggregate(const T& identity, const T& initial) : AggregateBase<T, Op>(identity, initial) {}
};

// The AggregateRef of aggregate object type A (Aggregate<...> or CustomAggregate<...>).
template <class A, int Index>
using AggregateRefOf = AggregateRef<typename A::value_type, typename A::op_type, Index>;

namespace detail {

struct AggregateRegistration {
  template <class T, class Op>
  static AggregateEntry entry(AggregateBase<T, Op>& a) {
    AggregateEntry e;
    e.object = &a;
    e.identity = [](const void* o) { return to_bits(static_cast<const AggregateBase<T, Op>*>(o)->identity_); };
    e.value = [](const void* o) { return to_bits(static_cast<const AggregateBase<T, Op>*>(o)->value_); };
    e.restart = [](void* o) { auto* a = static_cast<AggregateBase<T, Op>*>(o); a->value_ = a->initial_; };
    e.publish = [](void* o, std::uint64_t bits) { static_cast<AggregateBase<T, Op>*>(o)->value_ = from_bits<T>(bits); };
    e.fold = [](std::uint64_t a, std::uint64_t b) { return to_bits(Op{}(from_bits<T>(a), from_bits<T>(b))); };
    return e;
  }
};

// Generated code, once per aggregate, after its definition: the slot medusa-cc numbered it.
template <class Program, class T, class Op>
inline bool register_aggregate(AggregateBase<T, Op>& aggregate, int index) {
  auto& entries = aggregate_registry<Program>();
  if (static_cast<int>(entries.size()) <= index) entries.resize(static_cast<std::size_t>(index) + 1);
  entries[static_cast<std::size_t>(index)] = AggregateRegistration::entry(aggregate);
  return true;
}

// The aggregates that element functors add to (their medusa_aggregates_added), each once: what
// a kernel running them reduces per block.
template <class List, class Ref>
struct with_aggregate;
template <class... Refs, class Ref>
struct with_aggregate<AddedAggregates<Refs...>, Ref> {
  using type = std::conditional_t<(std::is_same_v<Refs, Ref> || ...), AddedAggregates<Refs...>,
                                  AddedAggregates<Refs..., Ref>>;
};
template <class List, class... Lists>
struct aggregate_union {
  using type = List;
};
template <class List, class Ref, class... Rest, class... Lists>
struct aggregate_union<List, AddedAggregates<Ref, Rest...>, Lists...>
    : aggregate_union<typename with_aggregate<List, std::remove_cv_t<Ref>>::type, AddedAggregates<Rest...>, Lists...> {};
template <class List, class... Lists>
struct aggregate_union<List, AddedAggregates<>, Lists...> : aggregate_union<List, Lists...> {};

template <class Element, class = void>
struct aggregates_of {
  using type = AddedAggregates<>;
};
template <class Element>
struct aggregates_of<Element, std::void_t<typename Element::medusa_aggregates_added>> {
  using type = typename Element::medusa_aggregates_added;
};
template <class... Elements>
using aggregates_added_by =
    typename aggregate_union<AddedAggregates<>, typename aggregates_of<Elements>::type...>::type;
template <class... Elements>
inline constexpr bool adds_aggregates = !std::is_same_v<aggregates_added_by<Elements...>, AddedAggregates<>>;

// The cells a superstep starts from: every published value, every accumulator at its identity.
template <class Program>
AggregateCells starting_cells() {
  AggregateCells cells{};
  const auto& entries = aggregate_registry<Program>();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].object == nullptr) continue;
    cells.acc[i] = cells.identity[i] = entries[i].identity(entries[i].object);
    cells.published[i] = entries[i].value(entries[i].object);
  }
  return cells;
}

}  // namespace detail
}  // namespace medusa
