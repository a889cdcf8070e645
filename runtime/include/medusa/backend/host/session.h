// The host (CPU, OpenMP) backend: Session<Program> runs a translated program on the host with the
// same semantics as the CUDA backend (docs/design/codegen-contract.md). It is the reference in
// tests, lets users debug their functors with ordinary tools, and with gpuCount > 1 simulates the
// partitioned multi-GPU execution exactly.
#pragma once

#include <medusa/backend/common/engine_interface.h>
#include <medusa/backend/common/partitioned_session.h>
#include <medusa/backend/host/aggregate_transfer.h>
#include <medusa/backend/host/partition_engine.h>
#include <medusa/backend/host/replica_exchange.h>

namespace medusa {

template <class Program>
class Session
    : public common::PartitionedSession<Program, host::PartitionEngine<Program>, host::ReplicaExchange<Program>> {
 public:
  using common::PartitionedSession<Program, host::PartitionEngine<Program>,
                                   host::ReplicaExchange<Program>>::PartitionedSession;
  static_assert(common::is_partition_engine<host::PartitionEngine<Program>>::value,
                "host::PartitionEngine lacks a member PartitionedSession calls (common/engine_interface.h)");
};

}  // namespace medusa
