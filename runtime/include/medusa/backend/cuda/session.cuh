// The CUDA backend: Session<Program> runs a translated program on one GPU, or with gpuCount > 1
// on one partition per GPU with head-vertex replicas refreshed by peer copies
// (docs/multi-gpu.md). Same semantics as the host backend (docs/design/codegen-contract.md).
#pragma once

#include <medusa/backend/common/engine_interface.h>
#include <medusa/backend/common/partitioned_session.h>
#include <medusa/backend/cuda/aggregate_transfer.cuh>
#include <medusa/backend/cuda/partition_engine.cuh>
#include <medusa/backend/cuda/replica_exchange.cuh>

namespace medusa {

template <class Program>
class Session
    : public common::PartitionedSession<Program, gpu::PartitionEngine<Program>, gpu::ReplicaExchange<Program>> {
 public:
  using common::PartitionedSession<Program, gpu::PartitionEngine<Program>,
                                   gpu::ReplicaExchange<Program>>::PartitionedSession;
  static_assert(common::is_partition_engine<gpu::PartitionEngine<Program>>::value,
                "gpu::PartitionEngine lacks a member PartitionedSession calls (common/engine_interface.h)");
};

}  // namespace medusa
