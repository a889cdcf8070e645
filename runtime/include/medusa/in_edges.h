// Messages against an edge's direction: an ELIST functor that takes InEdgeList<Edge> runs over its
// vertex's in-edges, and el[i].sendMsg(x) sends x to in-edge i's head (its source).
//
// medusa-cc accepts such a functor only with an edge loop whose iterations are independent (each
// el[i] used only for its own i) and only between InitMessageBuffer and the built-in Combiner().
// The runtime then runs it pulled: each receiving vertex u walks its out-edges u -> w and runs w's
// loop iteration for that edge, folding what it sends in u's out-edge order (in_edge_pull.h). No
// message slot is written and no reverse index is needed beyond the forward CSR. On several
// partitions each owns its vertices' whole out-rows (PartitionLayout::owned_row_offsets), their
// targets refreshed as replicas, so u folds the same values in the same order as on one.
#pragma once

#include <medusa/device_api.h>
#include <medusa/types.h>

#include <cstdint>

namespace medusa {

// The in-edges of one vertex as a pulled pass hands them to the functor: the one this work item
// runs (CSR position `eid`, from `head`), whatever index the loop gives it (medusa-cc proved that
// the loop reads el only at its own index).
template <class P>
class InEdgeList {
 public:
  using Ctx = KernelCtx<typename P::message_type>;
  using Arrays = typename P::arrays_type;

  MEDUSA_HD InEdgeList(const Ctx* ctx, const Arrays* arrays, VertexId tail, EdgeIndex eid, VertexId head)
      : ctx_(ctx), arrays_(arrays), tail_(tail), eid_(eid), head_(head) {}

  // In-degree in the whole graph (a partitioned run pulls every in-edge, across partitions).
  MEDUSA_HD std::uint32_t size() const {
    if (ctx_->in_degree != nullptr) return ctx_->in_degree[tail_];
    return static_cast<std::uint32_t>(ctx_->in_offsets[tail_ + 1] - ctx_->in_offsets[tail_]);
  }
  MEDUSA_HD P operator[](std::uint32_t) const { return P::make(*ctx_, *arrays_, eid_, head_, tail_); }

 private:
  const Ctx* ctx_;
  const Arrays* arrays_;
  VertexId tail_;
  EdgeIndex eid_;
  VertexId head_;
};

}  // namespace medusa
