// The host (CPU, OpenMP) backend: Session<Program> runs a translated program on the host with the
// same semantics as the CUDA backend (docs/design/codegen-contract.md). It is the reference in
// tests, lets users debug their functors with ordinary tools, and with gpuCount > 1 simulates the
// partitioned multi-GPU execution exactly.
#pragma once

#include <medusa/backend/common/partitioned_session.h>
#include <medusa/backend/host/partition_engine.h>
#include <medusa/backend/host/replica_exchange.h>

namespace medusa {

template <class Program>
class Session
    : public common::PartitionedSession<Program, host::PartitionEngine<Program>, host::ReplicaExchange<Program>> {
 public:
  using common::PartitionedSession<Program, host::PartitionEngine<Program>,
                                   host::ReplicaExchange<Program>>::PartitionedSession;
};

namespace exec {
// Runs `element` (a generated element functor) over the elements of `domain` for API kind K.
template <ApiKind K, class Program, class Element>
void run(Session<Program>& session, Domain domain, const Element& element) {
  session.template launch<K>(domain, element);
}
// Runs an edge-parallel ELIST element: element(c, va, ea, v, i) for every out-edge i of every
// vertex v of `domain`.
template <class Program, class Element>
void run_elist_edges(Session<Program>& session, Domain domain, const Element& element) {
  session.launch_elist_edges(domain, element);
}
}  // namespace exec

}  // namespace medusa
