// The built-in combiner operators (Config::combinerOpType) as functors on the message type, usable
// on the host and in CUDA kernels / CUB, and the dispatch from the runtime enum to a functor.
#pragma once

#include <medusa/config.h>
#include <medusa/error.h>
#include <medusa/types.h>

#include <string>
#include <type_traits>
#include <typeinfo>

namespace medusa::common {

template <class T>
struct SumOp {
  MEDUSA_HD T operator()(const T& a, const T& b) const { return static_cast<T>(a + b); }
};
template <class T>
struct MinOp {
  MEDUSA_HD T operator()(const T& a, const T& b) const { return b < a ? b : a; }
};
template <class T>
struct MaxOp {
  MEDUSA_HD T operator()(const T& a, const T& b) const { return a < b ? b : a; }
};
template <class T>
struct ProductOp {
  MEDUSA_HD T operator()(const T& a, const T& b) const { return static_cast<T>(a * b); }
};
// Logical (MEDUSA_LOGICAL_AND / _OR): the result is 0 or 1 in the message type, never a bitmask.
template <class T>
struct LogicalAndOp {
  MEDUSA_HD T operator()(const T& a, const T& b) const {
    return static_cast<T>(a != T(0) && b != T(0));
  }
};
template <class T>
struct LogicalOrOp {
  MEDUSA_HD T operator()(const T& a, const T& b) const {
    return static_cast<T>(a != T(0) || b != T(0));
  }
};
// Bitwise, on integer messages only (visit_builtin_combiner).
template <class T>
struct BitOrOp {
  MEDUSA_HD T operator()(const T& a, const T& b) const { return static_cast<T>(a | b); }
};
template <class T>
struct BitAndOp {
  MEDUSA_HD T operator()(const T& a, const T& b) const { return static_cast<T>(a & b); }
};
template <class T>
struct BitXorOp {
  MEDUSA_HD T operator()(const T& a, const T& b) const { return static_cast<T>(a ^ b); }
};

// The operators of Config::combinerOpType (a user's Combiner(op) is none of them).
template <class Op>
struct is_builtin_combiner_op : std::false_type {};
template <template <class> class Op, class T>
struct is_builtin_combiner_op<Op<T>>
    : std::bool_constant<std::is_same_v<Op<T>, SumOp<T>> || std::is_same_v<Op<T>, MinOp<T>> ||
                         std::is_same_v<Op<T>, MaxOp<T>> || std::is_same_v<Op<T>, ProductOp<T>> ||
                         std::is_same_v<Op<T>, LogicalAndOp<T>> || std::is_same_v<Op<T>, LogicalOrOp<T>> ||
                         std::is_same_v<Op<T>, BitOrOp<T>> || std::is_same_v<Op<T>, BitAndOp<T>> ||
                         std::is_same_v<Op<T>, BitXorOp<T>>> {};

// Min and max ignore both repeats and order (pull_fusion.h pushes frontiers into the combined
// values with them); with the logical ones and bitwise or / and they make the idempotent
// operators, whose fold of copies of one message x and of the fill value f is op(f, x) however
// many of each it folds: such a fold is decided by the first message it meets.
template <class Op>
struct is_min_max_op : std::false_type {};
template <class T>
struct is_min_max_op<MinOp<T>> : std::true_type {};
template <class T>
struct is_min_max_op<MaxOp<T>> : std::true_type {};
template <class Op>
struct is_logical_op : std::false_type {};
template <class T>
struct is_logical_op<LogicalAndOp<T>> : std::true_type {};
template <class T>
struct is_logical_op<LogicalOrOp<T>> : std::true_type {};
// Bitwise or / and ignore repeats and order as min / max do (xor does not: x ^ x == 0).
template <class Op>
struct is_bit_or_and_op : std::false_type {};
template <class T>
struct is_bit_or_and_op<BitOrOp<T>> : std::true_type {};
template <class T>
struct is_bit_or_and_op<BitAndOp<T>> : std::true_type {};

// A program that sends only by id (medusa/by_id.h, no sendMsg): no ELIST or EDGE launch writes a
// slot, so InitMessageBuffer leaves the E*m slots to be filled when an MLIST or MESSAGE launch or
// a Combiner that folds slots reads them (Afforest-style cc would fill 134M slots a superstep
// on Kronecker scale 22 to read none).
template <class Program>
inline constexpr bool defers_slot_fill = Program::uses.sends_by_id && !Program::uses.messages;
// Such a program's slots hold the fill value, which min, max and bitwise or / and fold away (the
// per-vertex value started at the fill): its Combiner is then the sends by id alone.
template <class Program, class Op>
inline constexpr bool combines_only_sends_by_id =
    defers_slot_fill<Program> && (is_min_max_op<Op>::value || is_bit_or_and_op<Op>::value);
template <class Op>
inline constexpr bool is_idempotent_op =
    is_min_max_op<Op>::value || is_logical_op<Op>::value || is_bit_or_and_op<Op>::value;

inline const char* combiner_op_name(CombinerOp op) {
  switch (op) {
    case MEDUSA_SUM: return "MEDUSA_SUM";
    case MEDUSA_MIN: return "MEDUSA_MIN";
    case MEDUSA_MAX: return "MEDUSA_MAX";
    case MEDUSA_PRODUCT: return "MEDUSA_PRODUCT";
    case MEDUSA_LOGICAL_AND: return "MEDUSA_LOGICAL_AND";
    case MEDUSA_LOGICAL_OR: return "MEDUSA_LOGICAL_OR";
    case MEDUSA_BIT_OR: return "MEDUSA_BIT_OR";
    case MEDUSA_BIT_AND: return "MEDUSA_BIT_AND";
    case MEDUSA_BIT_XOR: return "MEDUSA_BIT_XOR";
  }
  return "unknown";
}

// Calls visit(Op<Msg>{}) for a bitwise operator; a floating-point message has no bits to combine.
template <template <class> class Op, class Msg, class Visitor>
void visit_bitwise_combiner(CombinerOp op, Visitor& visit) {
  if constexpr (std::is_integral_v<Msg>) {
    visit(Op<Msg>{});
  } else {
    (void)visit;
    MEDUSA_THROW(std::string("Combiner(): the built-in operator ") + combiner_op_name(op) +
                 " is bitwise and needs an integer message type, but the message type is "
                 "floating-point; use MEDUSA_LOGICAL_OR / MEDUSA_LOGICAL_AND for 0/1 results, "
                 "an integer message type, or Combiner(op) with your own operator");
  }
}

// Calls visit(OpFunctor<Msg>{}) for the built-in operator `op`. Built-in operators need an
// arithmetic message type (the bitwise ones an integer type); for others this throws an Error.
template <class Msg, class Visitor>
void visit_builtin_combiner(CombinerOp op, Visitor&& visit) {
  if constexpr (std::is_arithmetic_v<Msg>) {
    switch (op) {
      case MEDUSA_SUM: visit(SumOp<Msg>{}); return;
      case MEDUSA_MIN: visit(MinOp<Msg>{}); return;
      case MEDUSA_MAX: visit(MaxOp<Msg>{}); return;
      case MEDUSA_PRODUCT: visit(ProductOp<Msg>{}); return;
      case MEDUSA_LOGICAL_AND: visit(LogicalAndOp<Msg>{}); return;
      case MEDUSA_LOGICAL_OR: visit(LogicalOrOp<Msg>{}); return;
      case MEDUSA_BIT_OR: return visit_bitwise_combiner<BitOrOp, Msg>(op, visit);
      case MEDUSA_BIT_AND: return visit_bitwise_combiner<BitAndOp, Msg>(op, visit);
      case MEDUSA_BIT_XOR: return visit_bitwise_combiner<BitXorOp, Msg>(op, visit);
    }
    MEDUSA_THROW("Combiner(): Config::combinerOpType holds an unknown operator (" +
                 std::to_string(static_cast<int>(op)) + ")");
  } else {
    (void)visit;
    MEDUSA_THROW(std::string("Combiner(): the built-in operator ") + combiner_op_name(op) +
                 " needs an arithmetic message type, but the message type is " +
                 typeid(Msg).name() +
                 "; pass an associative operator instead: Combiner(op) with a struct whose "
                 "`Message operator()(const Message&, const Message&) const` combines two messages");
  }
}

}  // namespace medusa::common
