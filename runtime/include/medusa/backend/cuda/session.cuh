// The CUDA backend: Session<Program> runs a translated program on one GPU, or with gpuCount > 1
// on one partition per GPU with head-vertex replicas refreshed by peer copies
// (docs/multi-gpu.md). Same semantics as the host backend (docs/design/codegen-contract.md).
#pragma once

#include <medusa/backend/common/partitioned_session.h>
#include <medusa/backend/cuda/partition_engine.cuh>
#include <medusa/backend/cuda/replica_exchange.cuh>

namespace medusa {

template <class Program>
class Session
    : public common::PartitionedSession<Program, gpu::PartitionEngine<Program>, gpu::ReplicaExchange<Program>> {
 public:
  using common::PartitionedSession<Program, gpu::PartitionEngine<Program>,
                                   gpu::ReplicaExchange<Program>>::PartitionedSession;
};

namespace exec {
// One EMV<K>::Run(f, domain): a kernel per partition, asynchronous on the partitions' streams.
template <ApiKind K, class Program, class Element>
void run(Session<Program>& session, Domain domain, const Element& element) {
  session.template launch<K>(domain, element);
}
// One edge-parallel EMV<ELIST>::Run (medusa-cc proved the edge loop's iterations independent).
template <class Program, class Element>
void run_elist_edges(Session<Program>& session, Domain domain, const Element& element) {
  session.launch_elist_edges(domain, element);
}
}  // namespace exec

}  // namespace medusa
