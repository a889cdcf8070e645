// Transport between MPI ranks, staged through host memory: replica bytes and the blocks of an
// all-to-all with nonblocking point-to-point messages, votes and counts with MPI_Iallreduce,
// results with MPI_Allgatherv. A
// superstep's waits end the job after MEDUSA_COLLECTIVE_TIMEOUT seconds when it is set.
#pragma once

#include <medusa/transport/transport.h>

#include <mpi.h>

#include <string>
#include <vector>

namespace medusa::transport {

class MpiTransport final : public Transport {
 public:
  explicit MpiTransport(MPI_Comm comm);

  std::uint32_t rank() const override { return rank_; }
  std::uint32_t ranks() const override { return ranks_; }
  std::string describe() const override;

  void post_send(std::uint32_t to_rank, int tag, const void* data, std::size_t bytes) override;
  void post_receive(std::uint32_t from_rank, int tag, void* data, std::size_t bytes) override;
  void complete() override;

  void reduce_step(int* votes, std::size_t vote_count, std::uint64_t* counts, std::size_t count_count,
                   std::uint32_t step) override;
  void sum(std::uint64_t* values, std::size_t n) override;
  void broadcast(void* data, std::size_t bytes) override;
  std::vector<std::vector<std::byte>> all_gather(const std::vector<std::byte>& mine) override;
  std::vector<std::vector<std::byte>> all_to_all(const std::vector<std::vector<std::byte>>& to_each) override;
  std::vector<std::byte> scatter_from_root(const std::vector<std::vector<std::byte>>& blocks,
                                           const std::string& what) override;
  std::vector<std::vector<std::byte>> gather_to_root(const std::vector<std::byte>& mine,
                                                     const std::string& what) override;
  void fail_job(const std::string& cause) override;

 private:
  // MEDUSA_TEST_FAULT=kill:R:P, throw:R:P or hang:R:P: rank R raises SIGKILL, throws, or sleeps
  // forever at point P: the end of superstep P (a number), "setup" (its first exchange with rank 0
  // in Init_Device_DS) or "gather" (Dump_Result's). The fault tests; never set otherwise.
  void inject_test_fault(const std::string& point) const;
  // Waits for `requests`; past MEDUSA_COLLECTIVE_TIMEOUT seconds ends the job naming `what` and,
  // when `peers` gives each request's rank, the ranks that did not answer.
  void wait(std::vector<MPI_Request>& requests, const std::string& what,
            const std::vector<std::uint32_t>& peers = {});
  // Nonblocking sends / receives of `bytes` bytes in messages of at most MPI's int count.
  void post_chunks(bool send, std::uint32_t peer, std::byte* data, std::size_t bytes,
                   std::vector<MPI_Request>& requests, std::vector<std::uint32_t>& peers);

  MPI_Comm comm_;
  // Tags of the rooted messages (lengths, bytes): MPI's largest, above every replica route's number.
  // (Not a copy of the communicator: MPI_Comm_dup waits for every rank, without a timeout.)
  int length_tag_ = 0, bytes_tag_ = 0;
  std::uint32_t rank_ = 0, ranks_ = 1;
  double timeout_seconds_ = 0.0;  // 0: wait without limit
  std::vector<MPI_Request> pending_;
};

}  // namespace medusa::transport
