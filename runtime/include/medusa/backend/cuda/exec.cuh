// The executors: one EMV<K>::Run on one partition engine launches one kernel. Generated code calls
// exec::run / exec::run_elist_edges (cuda/session.cuh), the session picks each partition's range
// and calls these; the element functor (emitted by medusa-cc) builds the proxies for one id and
// calls the user's functor.
//
//   kind            Domain::All              Domain::Active                 Domain::Received
//   VERTEX, MLIST   thread per vertex        thread per queued vertex       flag scan over V
//   ELIST           thread per vertex        thread per queued vertex       (not allowed)
//   EDGE            thread per edge          thread per queued edge         (not allowed)
//   MESSAGE         thread per slot (E*m)    (not allowed)                  (not allowed)
//
// ELIST runs the user's whole edge loop in one thread, so a high-degree vertex is one long thread;
// its edges come from the layout's column slots when there are any (vertex_loop_ctx()).
// When medusa-cc proves the loop's iterations independent it emits an edge-parallel element
// instead, run by launch_elist_edges:
//   ELIST (edges)   thread per edge          lanes (1..32) per queued vertex (not allowed)
//                                            or, for frontiers of 2^15+ edges, edge-balanced
//                                            tiles (queue_expand.cuh)
#pragma once

#include <medusa/backend/common/partition_view.h>
#include <medusa/backend/cuda/check.h>
#include <medusa/backend/cuda/kernels.cuh>
#include <medusa/backend/cuda/queue_expand.cuh>
#include <medusa/types.h>

#include <cstdint>

namespace medusa::gpu {

template <class Program>
class PartitionEngine;

namespace detail {

// `c` is s.ctx(), or s.vertex_loop_ctx() for thread-per-vertex ELIST loops (the layout's columns).
template <kernels::Source S, class Index, class Program, class Element>
void launch(PartitionEngine<Program>& s, const LaunchState& l,
            const KernelCtx<typename Program::Message>& c, const Element& f, const Index* ids,
            const std::uint8_t* flags, std::uint64_t n, Index first, Index lo, Index hi,
            const unsigned long long* device_n = nullptr) {
  if (n == 0) return;  // an empty frontier costs no launch
  using Msg = typename Program::Message;
  using VA = typename Program::VertexArrays;
  using EA = typename Program::EdgeArrays;
  launch_kernel<kernels::apply_kernel<S, Index, Msg, VA, EA, Element>>(
      grid_for(n, l.max_blocks), kernels::kBlock, l.stream, c, s.vertex_arrays(), s.edge_arrays(), f, ids, flags, n,
      device_n, first, lo, hi);
  MEDUSA_CUDA_CHECK_LAUNCH("an EMV functor kernel");
}

template <ApiKind K, class Program, class Element>
void run_vertices(PartitionEngine<Program>& s, Domain d, const Element& f, const common::LaunchRange& r) {
  const LaunchState l = s.launch_state();
  // Vertex-side kinds visit [0, vertex_end); ELIST visits heads [head_begin, head_end).
  const VertexId lo = K == ELIST ? r.head_begin : 0;
  const VertexId hi = K == ELIST ? r.head_end : r.vertex_end;
  const auto c = K == ELIST ? s.vertex_loop_ctx() : s.ctx();
  switch (d) {
    case Domain::All:
      if (K == ELIST) s.add_edges_visited(s.out_edge_range(lo, hi));
      launch<kernels::Source::All, VertexId>(s, l, c, f, static_cast<const VertexId*>(nullptr), nullptr,
                                             hi - lo, lo, lo, hi);
      return;
    case Domain::Active:
      if (K == ELIST && lo == 0) s.add_frontier_edges_visited();
      launch<kernels::Source::Queue, VertexId>(s, l, c, f, l.active_vertices, nullptr,
                                               l.active_vertex_count, VertexId{0}, lo, hi, l.device_vertex_count);
      return;
    case Domain::Received:  // (the session rejects it for ELIST; no kernel is instantiated)
      if constexpr (K != ELIST) {
        if (l.receiver_queue != nullptr)  // a batched push's receivers (at most its edges)
          return launch<kernels::Source::Queue, VertexId>(s, l, c, f, l.receiver_queue, nullptr, l.active_vertex_edges,
                                                          VertexId{0}, lo, hi, l.device_receiver_count);
        launch<kernels::Source::Flagged, VertexId>(s, l, c, f, static_cast<const VertexId*>(nullptr),
                                                   l.received, hi, VertexId{0}, lo, hi);
      }
      return;
  }
}

template <class Program, class Element>
void run_edges(PartitionEngine<Program>& s, Domain d, const Element& f, const common::LaunchRange& r) {
  const LaunchState l = s.launch_state();
  // Edges are in CSR order: the out-edges of heads [head_begin, head_end) are one range.
  const EdgeIndex lo = s.first_out_edge(r.head_begin), hi = s.first_out_edge(r.head_end);
  if (d == Domain::All) {
    s.add_edges_visited(hi - lo);
    launch<kernels::Source::All, EdgeIndex>(s, l, s.ctx(), f, static_cast<const EdgeIndex*>(nullptr), nullptr,
                                            hi - lo, lo, lo, hi);
  } else {
    if (lo == 0) s.add_edges_visited(l.active_edge_count);
    launch<kernels::Source::Queue, EdgeIndex>(s, l, s.ctx(), f, l.active_edges, nullptr, l.active_edge_count,
                                              EdgeIndex{0}, lo, hi);
  }
}

// Lanes per queued vertex for the edge-parallel queue kernel: the average degree rounded up to a
// power of two, at most a warp, so low-degree frontiers do not idle 31 of 32 lanes.
inline unsigned lanes_per_vertex(std::uint64_t vertices, std::uint64_t edges) {
  const std::uint64_t average = vertices == 0 ? 1 : (edges + vertices - 1) / vertices;
  unsigned group = 1;
  while (group < 32 && group < average) group *= 2;
  return group;
}

}  // namespace detail

// One EMV<K>::Run(f, domain) over `range` of one partition. Asynchronous: ordered on the
// partition's stream.
template <ApiKind K, class Program, class Element>
void run_on_partition(PartitionEngine<Program>& s, Domain domain, const Element& element,
                      const common::LaunchRange& range) {
  s.note_user_launch();
  if constexpr (K == MLIST || K == MESSAGE) s.ensure_message_buffer();
  if constexpr (K == VERTEX || K == ELIST || K == MLIST) {
    detail::run_vertices<K>(s, domain, element, range);
  } else if constexpr (K == EDGE) {
    detail::run_edges(s, domain, element, range);
  } else {
    static_assert(K == MESSAGE, "unknown ApiKind");
    const auto c = s.ctx();
    detail::launch<kernels::Source::All, EdgeIndex>(s, s.launch_state(), c, element,
                                                    static_cast<const EdgeIndex*>(nullptr), nullptr,
                                                    c.edge_count * c.m, EdgeIndex{0}, EdgeIndex{0},
                                                    EdgeIndex{0});
  }
}

// One edge-parallel EMV<ELIST>::Run over `range`: `element(c, va, ea, vertex, i)` runs the
// functor's prologue and loop iteration i; every (vertex, i < out-degree) pair of the domain runs
// once.
template <class Program, class Element>
void run_elist_edges_on_partition(PartitionEngine<Program>& s, Domain domain, const Element& element,
                                  const common::LaunchRange& range) {
  s.note_user_launch();
  const LaunchState l = s.launch_state();
  using Msg = typename Program::Message;
  using VA = typename Program::VertexArrays;
  using EA = typename Program::EdgeArrays;
  if (domain == Domain::All) {
    const EdgeIndex lo = s.first_out_edge(range.head_begin), hi = s.first_out_edge(range.head_end);
    s.add_edges_visited(hi - lo);
    if (hi == lo) return;
    launch_kernel<kernels::elist_all_edges_kernel<Msg, VA, EA, Element>>(
        grid_for(hi - lo, l.max_blocks), kernels::kBlock, l.stream, s.ctx(), s.vertex_arrays(), s.edge_arrays(),
        element, lo, hi);
  } else {  // Domain::Active (the session rejected Received)
    if (range.head_begin == 0) s.add_frontier_edges_visited();
    if (l.active_vertex_count == 0) return;  // an empty frontier costs no launch
    if (s.balanced_expansion()) {  // queue_expand.cuh
      if (l.active_vertex_edges == 0) return;  // (the element runs per edge: nothing to run)
      const unsigned long long* ends = s.active_degree_scan();
      const std::uint64_t tiles = (l.active_vertex_edges + kernels::kTileEdges - 1) / kernels::kTileEdges;
      launch_kernel<kernels::elist_queue_balanced_kernel<Msg, VA, EA, Element>>(
          static_cast<unsigned>(tiles < l.max_blocks ? tiles : l.max_blocks), kernels::kBlock, l.stream, s.ctx(),
          s.vertex_arrays(), s.edge_arrays(), element, l.active_vertices, ends, l.active_vertex_count,
          l.active_vertex_edges, range.head_begin, range.head_end);
      MEDUSA_CUDA_CHECK_LAUNCH("elist_queue_balanced_kernel");
      return;
    }
    const unsigned group = detail::lanes_per_vertex(l.active_vertex_count, l.active_vertex_edges);
    launch_kernel<kernels::elist_queue_edges_kernel<Msg, VA, EA, Element>>(
        grid_for(l.active_vertex_count * group, l.max_blocks), kernels::kBlock, l.stream, s.ctx(),
        s.vertex_arrays(), s.edge_arrays(), element, l.active_vertices, l.active_vertex_count,
        l.device_vertex_count, group, range.head_begin, range.head_end);
  }
  MEDUSA_CUDA_CHECK_LAUNCH("an edge-parallel ELIST kernel");
}

}  // namespace medusa::gpu
