// Everything that crosses partitions, whatever carries it (docs/multi-gpu.md): the bytes of a
// replica refresh (fields and SetActive flags), the sends by vertex id to their targets' owners,
// the end-of-superstep votes (OR) and frontier counts (sum), the results Dump_Result gathers, the
// per-rank timings, and ending the job when one rank fails. InProcessTransport (in_process.h) is
// one process running every partition; the MPI transport (mpi_job.h) runs each partition on the
// rank that owns it. The replica exchanges of the backends move bytes between partitions of one
// process themselves and hand the transport only the routes whose other end is on another rank.
#pragma once

#include <medusa/transport/ownership.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace medusa::transport {

class Transport {
 public:
  virtual ~Transport() = default;

  virtual std::uint32_t rank() const = 0;
  virtual std::uint32_t ranks() const = 0;
  PartitionOwnership ownership() const { return {rank(), ranks()}; }
  // "in-process", "MPI, 2 ranks, host-staged"
  virtual std::string describe() const = 0;

  // ---- Point to point: one round of replica bytes. Sends and receives are matched by (peer
  // rank, tag) in the order posted; the buffers must stay untouched until complete() returns.
  virtual void post_send(std::uint32_t to_rank, int tag, const void* data, std::size_t bytes) = 0;
  virtual void post_receive(std::uint32_t from_rank, int tag, void* data, std::size_t bytes) = 0;
  virtual void complete() = 0;

  // ---- Collectives: every rank calls them in the same order.
  // The end of superstep `step`: votes OR-ed and counts summed over the ranks, in place.
  virtual void reduce_step(int* votes, std::size_t vote_count, std::uint64_t* counts,
                           std::size_t count_count, std::uint32_t step) = 0;
  // Sums over the ranks, in place.
  virtual void sum(std::uint64_t* values, std::size_t n) = 0;
  // Every rank gets rank 0's bytes (the same size on every rank).
  virtual void broadcast(void* data, std::size_t bytes) = 0;
  // Every rank's block, in rank order (blocks may differ in size).
  virtual std::vector<std::vector<std::byte>> all_gather(const std::vector<std::byte>& mine) = 0;
  // Each rank passes a block for every rank (its own included, in rank order) and gets the blocks
  // the ranks passed for it, in rank order (blocks may differ in size).
  virtual std::vector<std::vector<std::byte>> all_to_all(const std::vector<std::vector<std::byte>>& to_each) = 0;

  // ---- Rooted, for the set-up and the results: rank 0 and each other rank. `what` names the step
  // in a timeout's message, which names the ranks that did not answer.
  // Rank 0 passes one block per rank (its own included; the others pass nothing): each rank gets
  // its block.
  virtual std::vector<std::byte> scatter_from_root(const std::vector<std::vector<std::byte>>& blocks,
                                                   const std::string& what) = 0;
  // Rank 0 gets every rank's block, in rank order; the others get nothing.
  virtual std::vector<std::vector<std::byte>> gather_to_root(const std::vector<std::byte>& mine,
                                                             const std::string& what) = 0;

  // Called with the cause when this rank failed: ends the whole job (MPI prints
  // "medusa: rank R: <cause>" and aborts every rank) or returns, and the caller rethrows (one
  // process has no one else to tell).
  virtual void fail_job(const std::string& cause) = 0;
};

// Every rank's doubles, in rank order.
inline std::vector<double> gather_doubles(Transport& t, const std::vector<double>& mine) {
  std::vector<std::byte> bytes(mine.size() * sizeof(double));
  if (!mine.empty()) std::memcpy(bytes.data(), mine.data(), bytes.size());
  std::vector<double> all;
  for (const std::vector<std::byte>& block : t.all_gather(bytes)) {
    const std::size_t at = all.size();
    all.resize(at + block.size() / sizeof(double));
    if (!block.empty()) std::memcpy(all.data() + at, block.data(), block.size());
  }
  return all;
}

}  // namespace medusa::transport
