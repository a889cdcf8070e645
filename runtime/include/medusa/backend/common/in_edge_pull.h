// The pulled pass of an in-edge ELIST functor (medusa/in_edges.h) followed by Combiner(op), for one
// receiving vertex u: fill, then op with what each out-edge u -> w's work sent back to u (the fill
// value when it sent nothing), in u's out-edge order, as Combiner() folds a vertex's slots.
// `work(c, va, ea, w, eid, u)` runs w's prologue and the loop iteration of in-edge eid.
#pragma once

#include <medusa/backend/common/pull_fusion.h>
#include <medusa/device_api.h>
#include <medusa/error.h>
#include <medusa/types.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>

namespace medusa::common {

template <class Msg, class VA, class EA, class Work, class Op>
MEDUSA_HD inline Msg pull_in_edges_of(const KernelCtx<Msg>& c, const VA& va, const EA& ea, const Work& work,
                                      const Op& op, const Msg& fill, VertexId u, bool& sent) {
  Msg acc = fill;
  for (EdgeIndex e = c.out_offsets[u]; e < c.out_offsets[u + 1]; ++e) {
    const VertexId w = c.out_dst[e];
    const Msg x = fold_sends(c, fill, sent, [&](const KernelCtx<Msg>& local) { work(local, va, ea, w, e, u); });
    acc = op(acc, x);
  }
  return acc;
}

// The context a pulled pass walks: on several partitions, each owned vertex's whole out-row
// (PartitionView::owned_row_offsets; `row_offsets` null: one partition, the topology's rows).
template <class Msg>
MEDUSA_HD inline KernelCtx<Msg> owned_rows_ctx(const KernelCtx<Msg>& c, VertexId owned,
                                              const EdgeIndex* row_offsets, const VertexId* row_dst) {
  KernelCtx<Msg> rows = c;
  if (row_offsets == nullptr) return rows;
  rows.vertex_count = owned;
  rows.out_offsets = row_offsets;
  rows.out_dst = row_dst;
  return rows;
}

// The host backend's pass: one task per receiving vertex.
template <class Msg, class VA, class EA, class Work, class Op>
void pull_in_edges_host(const KernelCtx<Msg>& c, const VA& va, const EA& ea, const Work& work, const Op& op,
                        const Msg& fill, Msg* combined, std::uint8_t* received) {
  const auto V = static_cast<std::int64_t>(c.vertex_count);
  const medusa::detail::StepState* const step = medusa::detail::host_step_state;  // (for the OpenMP workers)
#pragma omp parallel for schedule(dynamic, 1024) if (V > 4096)
  for (std::int64_t u = 0; u < V; ++u) {
    medusa::detail::bind_host_step_state(step);  // (Continue(), Halt(), Superstep())
    bool sent = false;
    combined[u] = pull_in_edges_of(c, va, ea, work, op, fill, static_cast<VertexId>(u), sent);
    if (received != nullptr) received[u] = sent ? 1 : 0;
  }
}

// The session's in-edge launch, held until the built-in Combiner() that must follow it: its
// messages exist only as that fold.
class PendingInEdges {
 public:
  // `rows_laid_out`: one partition, or partitions laid out with each owned vertex's whole out-row
  // (ProgramUses::in_edges, which medusa-cc sets for such programs).
  static void check_launch(Domain domain, bool rows_laid_out) {
    MEDUSA_REQUIRE(domain == Domain::All,
                   "EMV<ELIST>::Run over in-edges (InEdgeList): runs over every vertex (Domain::All) only");
    MEDUSA_REQUIRE(rows_laid_out, "EMV<ELIST>::Run over in-edges (InEdgeList) on several partitions: the program "
                                  "was translated without ProgramUses::in_edges, so its partitions hold no "
                                  "whole out-rows; translate it again with this Medusa's medusa-cc");
  }
  void hold(std::function<void()> pull) { pull_ = std::move(pull); }
  bool held() const { return static_cast<bool>(pull_); }
  void run() {
    const auto pull = std::move(pull_);
    pull_ = nullptr;
    pull();
  }
  void clear() { pull_ = nullptr; }
  void require_none() const {
    MEDUSA_REQUIRE(!pull_, "EMV<ELIST>::Run over in-edges (InEdgeList) must be followed by Combiner() "
                           "(the built-in one): its messages exist only as the Combiner's fold");
  }

 private:
  std::function<void()> pull_;
};

}  // namespace medusa::common

namespace medusa {
template <class Program>
class Session;
namespace exec {
// Runs an in-edge ELIST element (generated: <F>_in_edge_element) for every in-edge of every vertex,
// folded by the Combiner() that follows (the session holds it until then).
template <class Program, class Element>
void run_elist_in_edges(Session<Program>& session, Domain domain, const Element& element) {
  session.launch_elist_in_edges(domain, element);
}
}  // namespace exec
}  // namespace medusa
