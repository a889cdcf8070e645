// Transport between MPI ranks, staged through host memory: replica bytes with nonblocking
// point-to-point messages, votes and counts with MPI_Iallreduce, results with MPI_Allgatherv. A
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
  void fail_job(const std::string& cause) override;

 private:
  // MEDUSA_TEST_FAULT=kill:R:S, throw:R:S or hang:R:S: rank R raises SIGKILL, throws, or sleeps
  // forever, at the end of superstep S (the fault tests; never set otherwise).
  void inject_test_fault(std::uint32_t step) const;
  // Waits for `requests`; past MEDUSA_COLLECTIVE_TIMEOUT seconds ends the job naming `what`.
  void wait(std::vector<MPI_Request>& requests, const std::string& what);

  MPI_Comm comm_;
  std::uint32_t rank_ = 0, ranks_ = 1;
  double timeout_seconds_ = 0.0;  // 0: wait without limit
  std::vector<MPI_Request> pending_;
};

}  // namespace medusa::transport
