// The transport of one process that runs every partition: the replica exchanges copy between its
// partitions themselves, so nothing is sent, and the collectives have one rank to reduce over.
#pragma once

#include <medusa/error.h>
#include <medusa/transport/transport.h>

#include <string>
#include <vector>

namespace medusa::transport {

class InProcessTransport final : public Transport {
 public:
  std::uint32_t rank() const override { return 0; }
  std::uint32_t ranks() const override { return 1; }
  std::string describe() const override { return "in-process"; }

  void post_send(std::uint32_t, int, const void*, std::size_t) override { no_peer(); }
  void post_receive(std::uint32_t, int, void*, std::size_t) override { no_peer(); }
  void complete() override {}

  void reduce_step(int*, std::size_t, std::uint64_t*, std::size_t, std::uint32_t) override {}
  void sum(std::uint64_t*, std::size_t) override {}
  void broadcast(void*, std::size_t) override {}
  std::vector<std::vector<std::byte>> all_gather(const std::vector<std::byte>& mine) override { return {mine}; }
  std::vector<std::vector<std::byte>> all_to_all(const std::vector<std::vector<std::byte>>& to_each) override {
    MEDUSA_REQUIRE(to_each.size() == 1, "in-process transport: an all-to-all of " + std::to_string(to_each.size()) +
                                            " blocks over one rank");
    return to_each;
  }
  std::vector<std::byte> scatter_from_root(const std::vector<std::vector<std::byte>>& blocks,
                                           const std::string&) override {
    return blocks.empty() ? std::vector<std::byte>{} : blocks.front();
  }
  std::vector<std::vector<std::byte>> gather_to_root(const std::vector<std::byte>& mine,
                                                     const std::string&) override {
    return {mine};
  }
  void fail_job(const std::string&) override {}

 private:
  [[noreturn]] static void no_peer() {
    MEDUSA_THROW("in-process transport: every partition is in this process, there is no other rank");
  }
};

}  // namespace medusa::transport
