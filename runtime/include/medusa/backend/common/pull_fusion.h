// Pull fusion (docs/design/pull-fusion.md): InitMessageBuffer(x); EMV<ELIST>::Run(f) over all
// vertices (or over a dense frontier) with an edge-parallel element; Combiner(); becomes one pass
// in which each vertex runs the work of its in-edges (from active sources) and folds their
// messages itself. (EDGE functors are not fused: their
// elements load the edge's endpoints by CSR position, which the in-edge order scatters; on
// Kronecker scale 22 a fused BFS-N took 3.2x the time of the push launches.) The session defers the launch until it sees what follows it:
// a built-in Combiner() fuses; anything else replays the fill and the launch as issued.
//
// The fused pass leaves the message buffer exactly as the unfused launch would (the message, or
// the fill value for an edge that sent nothing), so later readers (MLIST, MESSAGE, a second
// Combiner) see no difference: it writes every slot, or, for uniform sends, leaves them pending
// as one message per source vertex (the fill value for an inactive one), written on demand.
#pragma once

#include <medusa/backend/common/combiner_ops.h>
#include <medusa/config.h>
#include <medusa/device_api.h>
#include <medusa/program.h>
#include <medusa/types.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

namespace medusa::common {

inline constexpr std::uint64_t kFrontierPullFraction = 8;

// Whether a program's launches may be fused with its Combiner: one message slot per edge, a
// built-in (arithmetic) combiner, no edge-side functor reading combined_msg(), which the fused
// pass is rewriting, and one hop of replicas when partitioned (a partition then holds every
// in-edge of the vertices it folds, and its replicas only send). Sends by vertex id are folded by
// the plain Combiner only (by_id.h).
template <class Program>
bool pull_fusion_enabled(const Config& conf) {
  return conf.pullFusion && !Program::uses.sends_by_id && (conf.gpuCount == 1 || conf.replicationHops == 1) && conf.messagesPerEdge == 1 &&
         Program::uses.messages && !Program::uses.edge_reads_combined &&
         std::is_arithmetic_v<typename Program::Message>;
}

// Whether an edge-parallel ELIST over the frontier (Domain::Active) should run as a pull pass:
// every in-edge of every vertex, running the work only where the source is active. The pass reads
// all E in-edges but writes its slots in order, and it replaces the fill and the Combiner, while a
// push scatters one slot write per frontier edge; so a frontier of at least E/8 out-edges is
// pulled (Beamer's direction optimization, with the Combiner's semantics kept: every slot is still
// written). Tuning::frontierPull (MEDUSA_FRONTIER_PULL) forces one or the other.
inline bool prefer_frontier_pull(FrontierPull mode, std::uint64_t frontier_edges, std::uint64_t edges) {
  if (mode != FrontierPull::Auto) return mode == FrontierPull::Always;
  return frontier_edges * kFrontierPullFraction >= edges && frontier_edges != 0;
}

// Whether an edge-parallel element sends the same message along every out-edge of its vertex
// (medusa-cc emits medusa_source_message for a loop body `el[i].sendMsg(E)`, E free of the edge):
// the fused pass then computes one message per source vertex and gathers it per in-edge, as a
// hand-written pull does, instead of re-running the prologue for every in-edge.
template <class Work, class = void>
struct has_source_message : std::false_type {};
template <class Work>
struct has_source_message<Work, std::void_t<decltype(&Work::medusa_source_message)>> : std::true_type {};

// medusa-cc proved that a source message reads only its vertex, the degrees and the functor's
// members: no Superstep(), no vote, no SetActive(), no combined value (`static constexpr bool
// medusa_source_message_steady` in the element). Computed right after a vertex's VERTEX step, it
// is then the message the next superstep's pass would compute, until something else runs.
template <class Work, class = void>
struct is_steady_source_message : std::false_type {};
template <class Work>
struct is_steady_source_message<Work, std::void_t<decltype(Work::medusa_source_message_steady)>>
    : std::bool_constant<has_source_message<Work>::value && Work::medusa_source_message_steady> {};

// A pulled frontier whose active sources all send the same message (BFS: the next level) folds,
// under an idempotent operator, each vertex to op(fill, message) at its first in-edge from an
// active source: the pass may stop there (Beamer's bottom-up early exit, derived from the
// Combiner's semantics rather than asked of the user). The engines check "the same message" at
// run time, bit for bit, on the messages the frontier's vertices computed.
template <class Work, class Op, class Msg>
inline constexpr bool may_stop_at_first_message = has_source_message<Work>::value &&
                                                  is_idempotent_op<Op> &&
                                                  sizeof(Msg) <= sizeof(std::uint64_t);

// A sparse frontier under min or max is pushed straight into the combined values: each frontier
// edge folds its message into its head's value (an atomic min / max on the GPU), which starts at
// the fill value. That is the Combiner's fold, because min and max ignore repeats and order and
// the unsent slots hold the fill value. It replaces the fill of all E slots and the fold over all
// of them by work on the frontier's edges. Uniform sends (has_source_message) leave the slots
// pending as for a pull; sends that depend on the edge run the edge's work per frontier edge and
// write the frontier's slots, and the CUDA engine leaves the others pending as the fill value.
// A dense frontier of edge-dependent sends is pushed too when the push need not write the slots
// (ProgramUses::combiner_consumes_slots), else pulled: pushes that write the slots cost more than
// the pulls (docs/tuning.md, "Measurements behind the defaults").
template <class Msg>
inline constexpr bool is_atomically_foldable = sizeof(Msg) == 4 || sizeof(Msg) == 8;
// Bitwise or / and fold the same way (atomicOr / atomicAnd). Xor may not: the Combiner folds
// every unsent slot's fill value too, and f ^ f cancels where f | f does not, so a push's
// op(fill, sent messages) differs from it unless the fill value is 0.
template <class Op, class Msg>
inline constexpr bool may_push_combine =
    (is_min_max_op<Op>::value || is_bit_or_and_op<Op>::value) && is_atomically_foldable<Msg>;
// The same, before the session has chosen the operator's functor.
template <class Msg>
bool may_push_combine_with(CombinerOp op) {
  const bool bitwise = (op == MEDUSA_BIT_OR || op == MEDUSA_BIT_AND) && std::is_integral_v<Msg>;
  return (op == MEDUSA_MIN || op == MEDUSA_MAX || bitwise) && is_atomically_foldable<Msg>;
}

// How a superstep's frontier passes ran, for the per-superstep line of Config::verbose: bits, as
// partitions may choose differently. Each engine records the pass it ran, not the session's
// can_defer() preference: the engines decide the direction with more than it (an operator that
// cannot push pulls; CUDA's push-fold and batches), so only they know which way a pass went.
enum FrontierPass : std::uint8_t { kFrontierPushed = 1, kFrontierPulled = 2 };
inline std::string frontier_pass_text(std::uint8_t passes) {
  if (passes == (kFrontierPushed | kFrontierPulled)) return "frontier pushed and pulled (partitions differ), ";
  if (passes == kFrontierPushed) return "frontier pushed, ";
  if (passes == kFrontierPulled) return "frontier pulled, ";
  return "";
}

// One line for the sessions' reports (Config::verbose).
inline std::string fusion_summary() {
  return "pull-fused with edge-parallel ELIST launches that follow InitMessageBuffer, over all "
         "vertices or over a frontier of E/" + std::to_string(kFrontierPullFraction) +
         "+ out-edges; a sparser frontier under min / max / bitwise or / and is pushed into the "
         "combined values; a VERTEX launch over all vertices after a pass of one message per source runs in its gather";
}

// A message's bytes as an integer, for comparing messages bit for bit (Msg: 8 bytes at most).
template <class Msg>
MEDUSA_HD inline std::uint64_t message_bits(const Msg& x) {
  static_assert(sizeof(Msg) <= sizeof(std::uint64_t), "message_bits: 8 bytes at most");
  std::uint64_t b = 0;
  std::memcpy(&b, &x, sizeof(Msg));
  return b;
}

// Runs run(local), `local` a copy of c whose sendMsg writes a fold slot; returns the slot's value
// (the fill value when nothing was sent) and ORs `sent`.
template <class Msg, class Run>
MEDUSA_HD inline Msg fold_sends(const KernelCtx<Msg>& c, const Msg& fill, bool& sent, const Run& run) {
  FoldSlot<Msg> slot{fill, false};
  KernelCtx<Msg> local = c;  // (registers once inlined: only the fields the work reads survive)
  local.fold_slot = &slot;
  local.received = nullptr;  // the pass sets the receiver's flag itself
  run(static_cast<const KernelCtx<Msg>&>(local));
  sent = sent || slot.sent;
  return slot.value;
}

// Runs one in-edge's work with sendMsg redirected into a slot (fold_sends). `work` is an
// edge-parallel ELIST element: work(c, va, ea, u, i) runs the functor's prologue and loop
// iteration i for source u.
template <class Msg, class VA, class EA, class Work>
MEDUSA_HD inline Msg run_in_edge(const KernelCtx<Msg>& c, const VA& va, const EA& ea,
                                 const Work& work, VertexId u, std::uint32_t i, const Msg& fill,
                                 bool& sent) {
  return fold_sends(c, fill, sent, [&](const KernelCtx<Msg>& local) { work(local, va, ea, u, i); });
}

}  // namespace medusa::common
