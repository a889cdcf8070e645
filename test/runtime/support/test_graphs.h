// The graphs the integration tests run on, loaded once per test binary.
#pragma once

#include "graph_files.h"

#include <medusa/config.h>

#include <cstdint>

#include <string>
#include <vector>

namespace medusa_test {

struct NamedGraph {
  std::string name;
  const EdgeList* graph;  // null when the file is not available (the test then skips it)
};

// karate (34 vertices), road-NY (264,346 vertices, high diameter; only when with_road) and a
// seeded random directed graph with self loops and duplicates.
std::vector<NamedGraph> integration_graphs(bool with_road = true);

// A message for a skipped input.
std::string missing_graph_message(const std::string& name);

}  // namespace medusa_test

namespace medusa_test {

int test_gpus();
// MEDUSA_TEST_MPI_RANKS (set by the runtime.mpi ctests, which start the tests with mpirun): the
// job's ranks, or 0 when the tests run as one process.
int test_mpi_ranks();

// A run configuration of the partitioned tests: the same program must give the same result on one
// partition and on several (simulated on the host; several partitions per GPU on CUDA, so one GPU
// runs them too).
struct PartitionCase {
  std::string name;
  int parts = 1;
  std::uint32_t hops = 1;  // 0: the cost model chooses
  medusa::PartitionMethod method = medusa::PartitionMethod::Auto;
  medusa::VertexOrder vertex_order = medusa::VertexOrder::Auto;
  bool distributed = false;  // over the MPI job's ranks (parts = 1: one partition per rank)

  // MEDUSA_TEST_GPUS (default 1): GPUs to spread the partitions over on the CUDA backend.
  medusa::Config apply(medusa::Config c) const {
    const int gpus = test_gpus();
    c.gpuCount = parts;  // Config::gpuCount counts partitions, placed on `gpus` GPUs
    c.partitionsPerGpu = (parts + gpus - 1) / gpus;
    c.replicationHops = hops;
    c.partitionMethod = method;
    c.vertexOrder = vertex_order;
    c.distributed = distributed;
    return c;
  }
};

// 1 partition (vertices in input order, then renumbered by degree), 2 and 3 (METIS when
// available), 4 contiguous, 2 with owned vertices by degree; with multi_hop also 2 and 3 hops (3
// with owned vertices by degree) and the cost model's choice. Under mpirun (test_mpi_ranks() > 0)
// only distributed cases: one partition per rank, two per rank (contiguous; with multi_hop 2 hops).
std::vector<PartitionCase> partition_cases(bool multi_hop);

}  // namespace medusa_test
