// The executors: exec::run<KIND>(session, domain, element) launches one kernel for one EMV call.
// Generated code calls these from EmvLaunch<F>::run; the element functor (emitted by medusa-cc)
// builds the proxies for one id and calls the user's functor.
//
//   kind            Domain::All              Domain::Active                 Domain::Received
//   VERTEX, MLIST   thread per vertex        thread per queued vertex       flag scan over V
//   ELIST           thread per vertex        thread per queued vertex       (not allowed)
//   EDGE            thread per edge          thread per queued edge         (not allowed)
//   MESSAGE         thread per slot (E*m)    (not allowed)                  (not allowed)
//
// ELIST runs the user's whole edge loop in one thread, so a high-degree vertex is one long thread.
// When medusa-cc proves the loop's iterations independent it emits an edge-parallel element
// instead, run by exec::run_elist_edges:
//   ELIST (edges)   thread per edge          lanes (1..32) per queued vertex (not allowed)
#pragma once

#include <medusa/backend/common/domain_check.h>
#include <medusa/backend/cuda/check.h>
#include <medusa/backend/cuda/kernels.cuh>
#include <medusa/types.h>

#include <cstdint>

namespace medusa {

template <class Program>
class Session;

namespace gpu::detail {

template <kernels::Source S, class Index, class Program, class Element>
void launch(Session<Program>& s, const LaunchState& l, const Element& f, const Index* ids,
            const std::uint8_t* flags, std::uint64_t n) {
  if (n == 0) return;  // an empty frontier costs no launch
  using Msg = typename Program::Message;
  using VA = typename Program::VertexArrays;
  using EA = typename Program::EdgeArrays;
  kernels::apply_kernel<S, Index, Msg, VA, EA, Element>
      <<<grid_for(n, l.max_blocks), kernels::kBlock, 0, l.stream>>>(
          s.ctx(), s.vertex_arrays(), s.edge_arrays(), f, ids, flags, n);
  MEDUSA_CUDA_CHECK_LAUNCH("an EMV functor kernel");
}

template <ApiKind K, class Program, class Element>
void run_vertices(Session<Program>& s, Domain d, const Element& f) {
  const LaunchState l = s.launch_state();
  const std::uint64_t V = s.ctx().vertex_count;
  switch (d) {
    case Domain::All:
      if (K == ELIST) s.add_edges_visited(s.ctx().edge_count);
      launch<kernels::Source::All, VertexId>(s, l, f, static_cast<const VertexId*>(nullptr),
                                             nullptr, V);
      return;
    case Domain::Active:
      if (K == ELIST) s.add_edges_visited(l.active_vertex_edges);
      launch<kernels::Source::Queue, VertexId>(s, l, f, l.active_vertices, nullptr,
                                               l.active_vertex_count);
      return;
    case Domain::Received:  // (check_domain rejects it for ELIST; no kernel is instantiated)
      if constexpr (K != ELIST)
        launch<kernels::Source::Flagged, VertexId>(s, l, f, static_cast<const VertexId*>(nullptr),
                                                   l.received, V);
      return;
  }
}

template <class Program, class Element>
void run_edges(Session<Program>& s, Domain d, const Element& f) {
  const LaunchState l = s.launch_state();
  const std::uint64_t E = s.ctx().edge_count;
  if (d == Domain::All) {
    s.add_edges_visited(E);
    launch<kernels::Source::All, EdgeIndex>(s, l, f, static_cast<const EdgeIndex*>(nullptr),
                                            nullptr, E);
  } else {
    s.add_edges_visited(l.active_edge_count);
    launch<kernels::Source::Queue, EdgeIndex>(s, l, f, l.active_edges, nullptr,
                                              l.active_edge_count);
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

}  // namespace gpu::detail

namespace exec {

// One EMV<K>::Run(f, domain) on the session's GPU. Asynchronous: ordered on the session's stream.
template <ApiKind K, class Program, class Element>
void run(Session<Program>& s, Domain domain, const Element& element) {
  common::check_domain(K, domain, Program::uses);
  if constexpr (K == MLIST || K == MESSAGE) s.ensure_message_buffer();
  if constexpr (K == VERTEX || K == ELIST || K == MLIST) {
    gpu::detail::run_vertices<K>(s, domain, element);
  } else if constexpr (K == EDGE) {
    gpu::detail::run_edges(s, domain, element);
  } else {
    static_assert(K == MESSAGE, "unknown ApiKind");
    const auto c = s.ctx();
    gpu::detail::launch<gpu::kernels::Source::All, EdgeIndex>(
        s, s.launch_state(), element, static_cast<const EdgeIndex*>(nullptr), nullptr,
        c.edge_count * c.m);
  }
}

// One edge-parallel EMV<ELIST>::Run: `element(c, va, ea, vertex, i)` runs the functor's
// prologue and loop iteration i; every (vertex, i < out-degree) pair of the domain runs once.
template <class Program, class Element>
void run_elist_edges(Session<Program>& s, Domain domain, const Element& element) {
  common::check_domain(ELIST, domain, Program::uses);
  const gpu::LaunchState l = s.launch_state();
  using Msg = typename Program::Message;
  using VA = typename Program::VertexArrays;
  using EA = typename Program::EdgeArrays;
  if (domain == Domain::All) {
    const std::uint64_t E = s.ctx().edge_count;
    s.add_edges_visited(E);
    if (E == 0) return;
    gpu::kernels::elist_all_edges_kernel<Msg, VA, EA, Element>
        <<<gpu::grid_for(E, l.max_blocks), gpu::kernels::kBlock, 0, l.stream>>>(
            s.ctx(), s.vertex_arrays(), s.edge_arrays(), element, E);
  } else {  // Domain::Active (check_domain rejected Received)
    s.add_edges_visited(l.active_vertex_edges);
    if (l.active_vertex_count == 0) return;  // an empty frontier costs no launch
    const unsigned group = gpu::detail::lanes_per_vertex(l.active_vertex_count, l.active_vertex_edges);
    gpu::kernels::elist_queue_edges_kernel<Msg, VA, EA, Element>
        <<<gpu::grid_for(l.active_vertex_count * group, l.max_blocks), gpu::kernels::kBlock, 0,
           l.stream>>>(s.ctx(), s.vertex_arrays(), s.edge_arrays(), element, l.active_vertices,
                       l.active_vertex_count, group);
  }
  MEDUSA_CUDA_CHECK_LAUNCH("an edge-parallel ELIST kernel");
}

}  // namespace exec
}  // namespace medusa
