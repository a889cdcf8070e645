// The pulled pass of an in-edge ELIST functor (medusa/in_edges.h) followed by Combiner(op), for one
// receiving vertex u: fill, then op with what each out-edge u -> w's work sent back to u (the fill
// value when it sent nothing), in u's out-edge order, as Combiner() folds a vertex's slots.
// `work(c, va, ea, w, eid, u)` runs w's prologue and the loop iteration of in-edge eid.
#pragma once

#include <medusa/backend/common/pull_fusion.h>
#include <medusa/device_api.h>
#include <medusa/types.h>

#include <cstdint>

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

// The host backend's pass: one task per receiving vertex.
template <class Msg, class VA, class EA, class Work, class Op>
void pull_in_edges_host(const KernelCtx<Msg>& c, const VA& va, const EA& ea, const Work& work, const Op& op,
                        const Msg& fill, Msg* combined, std::uint8_t* received) {
  const auto V = static_cast<std::int64_t>(c.vertex_count);
#pragma omp parallel for schedule(dynamic, 1024) if (V > 4096)
  for (std::int64_t u = 0; u < V; ++u) {
    bool sent = false;
    combined[u] = pull_in_edges_of(c, va, ea, work, op, fill, static_cast<VertexId>(u), sent);
    if (received != nullptr) received[u] = sent ? 1 : 0;
  }
}

}  // namespace medusa::common
