// Transport between MPI ranks, staged through host memory: replica bytes with nonblocking
// point-to-point messages, votes and counts with MPI_Allreduce, results with MPI_Allgatherv.
#pragma once

#include <medusa/transport/transport.h>

#include <mpi.h>

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
  // MEDUSA_TEST_FAULT=kill:R:S or throw:R:S: rank R raises SIGKILL, or throws, at the end of
  // superstep S (the fault tests; never set otherwise).
  void inject_test_fault(std::uint32_t step) const;

  MPI_Comm comm_;
  std::uint32_t rank_ = 0, ranks_ = 1;
  std::vector<MPI_Request> pending_;
};

}  // namespace medusa::transport
