// Run configuration: the paper's `conf` object, without the global.
#pragma once

#include <medusa/tuning.h>

#include <cstdint>
#include <string>
#include <vector>

namespace medusa {

// Built-in combiner operators (paper: conf.combinerOpType). The data type is inferred from the
// program's message type; a user-defined operator is passed to Combiner(op) instead.
// MEDUSA_LOGICAL_AND / MEDUSA_LOGICAL_OR are logical: they yield 0 or 1 (a bitmask folds to 1).
// MEDUSA_BIT_AND / MEDUSA_BIT_OR / MEDUSA_BIT_XOR are bitwise (&, |, ^) and need an integer
// message; their identities (the InitMessageBuffer value that changes nothing) are ~0, 0 and 0.
enum CombinerOp {
  MEDUSA_SUM,
  MEDUSA_MIN,
  MEDUSA_MAX,
  MEDUSA_PRODUCT,
  MEDUSA_LOGICAL_AND,
  MEDUSA_LOGICAL_OR,
  MEDUSA_BIT_OR,
  MEDUSA_BIT_AND,
  MEDUSA_BIT_XOR,
  // Deprecated names of the logical operators (same values), kept so existing programs build;
  // medusa-cc warns when they combine a non-bool integer message.
  MEDUSA_AND = MEDUSA_LOGICAL_AND,
  MEDUSA_OR = MEDUSA_LOGICAL_OR,
};

// Edge layout on the device (paper section 4 / appendix A).
enum class Layout { Auto, CSR, ColumnMajor, Hybrid };

// How the device numbers the vertices (of the graph, or each partition's own: docs/design/vertex-order.md).
// Results always come back in the user's IDs; functors see them too (v.id(), head_id()).
enum class VertexOrder {
  Auto,    // one partition: Degree for large skewed graphs (a few hubs hold many edges); else Input
  Input,   // the user's IDs
  Degree,  // descending in + out degree, ties by ID: the hubs' values share cache lines
};

// How vertices are split into partitions when gpuCount > 1 (docs/multi-gpu.md).
enum class PartitionMethod {
  Auto,        // METIS k-way when Medusa was built with METIS and the graph is not tiny, else Contiguous
  Metis,       // METIS k-way, balanced by vertices and by edges
  Contiguous,  // consecutive ID ranges with balanced edge counts (no METIS needed)
};

// Several programs on one GPU (docs/programming-guide.md, "Sharing a GPU"): what a CUDA Session
// does when the machine-wide GPU memory ledger lacks the room for it.
enum class GpuAdmission {
  Wait,        // queue (first come, first served) until the room is released, up to waitSeconds
  FailAtOnce,  // throw medusa::Error at once, naming what holds the GPU
  Off,         // no ledger: plan against the GPU's free memory alone (the behaviour before it)
};
struct Sharing {
  GpuAdmission admission = GpuAdmission::Wait;  // MEDUSA_GPU_ADMISSION=wait|fail|off overrides it
  double waitSeconds = 3600.0;                  // > 0; MEDUSA_GPU_WAIT_SECONDS overrides it
  // Bytes of each GPU the ledger hands out to all Medusa programs together; 0: the GPU's memory.
  // Leaves room to programs that do not use the ledger. MEDUSA_GPU_CAPACITY (bytes, or 40G, 512M)
  // overrides it; every program sharing a GPU should use the same.
  std::uint64_t capacityBytes = 0;
  std::string ledgerDir;  // empty: $MEDUSA_LEDGER_DIR, else /dev/shm/medusa-ledger
};

struct Config {
  CombinerOp combinerOpType = MEDUSA_SUM;
  // The number of partitions of the graph (the paper's name: one partition per GPU unless
  // partitionsPerGpu > 1). The host backend runs them as simulated partitions on the CPU.
  int gpuCount = 1;
  // CUDA: partitions placed on each GPU, so the gpuCount partitions run on
  // ceil(gpuCount / partitionsPerGpu) GPUs (k-partition runs on fewer GPUs). Ignored by the host.
  int partitionsPerGpu = 1;
  PartitionMethod partitionMethod = PartitionMethod::Auto;
  // gpmetis-format file (one partition number per line): read when it exists, written otherwise,
  // so a large graph is partitioned once. Empty: partition every run.
  std::string partitionFile;
  // Distributed runs from per-rank partition files made by `medusa-part <graph> -k N --rank-files
  // PREFIX`: rank r of the N-rank job reads PREFIX.<r>-of-<N> alone (its partition's local graph,
  // edges and replica routes), and no rank reads the whole graph. The program's Graph on each
  // rank must hold every vertex and its partition's local edges (partition/rank_files.h). Empty:
  // rank 0 reads the graph and sends each rank its partition.
  std::string partitionFiles;
  // Hops of head-vertex replicas (the paper's multi-hop replication): replicas are refreshed every
  // `replicationHops` supersteps. 0: the cost model picks within replicationMemoryBudget.
  std::uint32_t replicationHops = 0;
  // Largest total (local vertices + local edges) / (V + E) the cost model may choose; >= 1.
  double replicationMemoryBudget = 2.0;
  std::uint32_t maxIteration = 2147483647u;  // 2^31 - 1, as in the paper
  std::uint32_t messagesPerEdge = 1;         // the paper's m: slots per edge in the message buffer
  Layout layout = Layout::Auto;
  VertexOrder vertexOrder = VertexOrder::Auto;  // MEDUSA_VERTEX_ORDER overrides it
  // Runs an edge-parallel ELIST launch over all vertices together with the built-in
  // Combiner() that follows it, as one pull pass over each vertex's in-edges (no scattered
  // message writes). Same results; single-partition runs with m = 1. MEDUSA_PULL_FUSION overrides it.
  bool pullFusion = true;
  // Width of a priority bucket for programs that call SetActive(priority): bucket = priority /
  // priorityDelta, lowest first. 0: auto (docs/design/priority-buckets.md). MEDUSA_PRIORITY_DELTA
  // (auto or a positive integer) overrides it.
  std::uint64_t priorityDelta = 0;
  // The runtime's other schedule choices, Auto unless forced (tuning.h, docs/tuning.md).
  Tuning tuning;
  // GPU memory admission when several programs share a GPU (ledger/admission.h).
  Sharing sharing;
  bool verbose = false;                      // print layout choice, memory use, per-superstep stats
  // Run over the ranks of an MPI job (`mpirun -np N ./prog --distributed`; needs Medusa built with
  // MPI): partition p runs on rank p % N, and gpuCount = 1 means one partition per rank. Every
  // rank runs the same program on the same graph; Dump_Result gives each the whole result
  // (docs/multi-gpu.md).
  bool distributed = false;
};

// One rank's share of a distributed run's time: exchange is its time in replica refreshes and the
// end-of-superstep reductions (waiting for slower ranks included), compute the rest.
struct RankTime {
  double compute_seconds = 0.0;
  double exchange_seconds = 0.0;
};

// What a finished Run reports.
struct RunStats {
  std::uint32_t supersteps = 0;
  double seconds = 0.0;              // (distributed: the slowest rank's)
  std::uint64_t edges_visited = 0;  // edges traversed by EDGE/ELIST calls, summed over supersteps
  std::string stop_reason;          // "maxIteration", "halt vote", "no continue vote"
  // Supersteps the CUDA backend issued in batches, without a read-back after each (long runs of
  // sparse frontiers; docs/design/superstep-batches.md).
  std::uint32_t batched_supersteps = 0;
  // Of those, supersteps launched as a replay of a recorded batch, without the host issuing them
  // (an iteration function medusa-cc proved replayable).
  std::uint32_t replayed_supersteps = 0;
  // Of those, supersteps whose next frontier SetActive() queued, without a pass over every vertex's
  // flag (on k partitions: those of the partition with the fewest).
  std::uint32_t queued_supersteps = 0;
  // Supersteps the host issued whose pass computing one message per source vertex was skipped: the
  // VERTEX step before had computed those messages (CUDA; docs/design/pull-fusion.md).
  std::uint32_t source_passes_skipped = 0;
  // InitMessageBuffer + pass + Combiner() runs issued as one fused pass (pull gather, frontier
  // pass, push-combine), summed over supersteps the host issued.
  std::uint32_t fused_passes = 0;
  // A Run of a function with a registered plan (medusa/plan.h): the issued supersteps whose calls
  // followed it, and those that departed from it and fell back to the run-time rules.
  std::uint32_t plan_supersteps = 0;
  std::uint32_t plan_departures = 0;
  // Partitioned runs (gpuCount > 1): the replica exchange.
  std::uint32_t partitions = 1;
  std::uint32_t replication_hops = 1;
  double replication_factor = 1.0;       // local vertex copies / vertices (owned + replicas)
  std::uint32_t exchange_refreshes = 0;  // field and frontier-flag refreshes
  std::uint64_t exchange_bytes = 0;      // bytes copied between partitions
  std::uint64_t exchange_sparse_bytes = 0;  // of those, by sparse copies (only changed replicas)
  double exchange_seconds = 0.0;         // time the copies took (on the GPUs' copy streams;
                                         // distributed: the slowest rank's, reductions included)
  // Distributed runs over more than one rank: each rank's time, in rank order.
  std::vector<RankTime> rank_times;
};

}  // namespace medusa
