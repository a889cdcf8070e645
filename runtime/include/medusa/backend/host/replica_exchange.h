// Replica refresh between partitions on the host: for every route, the owner's values are copied
// into the replica range. Same interface as the CUDA exchange (peer copies), so the session code is
// shared; see docs/multi-gpu.md. In a distributed run (Config::distributed) each rank holds the
// engines of its own partitions (transport/ownership.h): a route between two of them is a memory
// copy as in one process; a route to another rank is packed on the owner and sent through the
// transport, and received straight into the replica range (a range of consecutive local IDs).
#pragma once

#include <medusa/backend/common/replicated_state.h>
#include <medusa/partition/plan.h>
#include <medusa/program.h>
#include <medusa/transport/transport.h>
#include <medusa/tuning.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace medusa::host {

template <class Program>
class PartitionEngine;

template <class Program>
class ReplicaExchange {
 public:
  using Engine = PartitionEngine<Program>;

  // (`sparse`, Tuning::sparseRefresh: the host always copies every replica)
  ReplicaExchange(const PartitionPlan& plan, std::vector<std::unique_ptr<Engine>>& engines,
                  common::ReplicatedState<Program> what, transport::Transport& transport, Toggle /*sparse*/)
      : plan_(plan), engines_(engines), what_(std::move(what)), transport_(transport),
        own_(transport.ownership()) {}

  // Copies every replicated field from the owners; returns the bytes copied.
  std::uint64_t refresh_fields() {
    std::uint64_t bytes = 0;
    for (std::size_t f : what_.fields) {
      const std::size_t size = Program::vertex_fields[f].size;
      bytes += copy_routes(size, [&](Engine& e) { return e.vertex_field(f); });
    }
    return bytes;
  }
  // Copies the owners' SetActive flags of this superstep to their replicas.
  std::uint64_t refresh_flags() {
    if (!what_.flags) return 0;
    return copy_routes(1, [](Engine& e) { return reinterpret_cast<std::byte*>(e.next_vertex_flags()); });
  }
  // Host copies are done when refresh_*() returns.
  void wait(std::uint32_t) {}
  void begin_run() { seconds_ = 0.0; }
  std::uint64_t take_sparse_bytes() { return 0; }
  double transfer_seconds() const { return seconds_; }

  // Cost model: a replica refresh on the host is a gather of `bytes` per replica, cheap next to an
  // edge visit.
  static double refresh_cost_per_vertex(std::size_t bytes) { return 0.05 * static_cast<double>(bytes); }

  std::string describe() const {
    return what_.describe(plan_) + ", host memory copies" +
           (own_.ranks > 1 ? " and " + transport_.describe() : std::string());
  }

 private:
  template <class Array>
  std::uint64_t copy_routes(std::size_t size, const Array& array) {
    const auto start = std::chrono::steady_clock::now();
    std::uint64_t bytes = 0;
    int tag = 0;  // the route's number: sender and receiver count the routes in the same order
    sent_.clear();
    for (const PartitionLayout& l : plan_.partitions) {
      const bool target_here = own_.owns(l.index);
      for (const ReplicaRoute& r : l.replicas) {
        ++tag;
        const bool owner_here = own_.owns(r.owner);
        if (!target_here && !owner_here) continue;
        const auto n = static_cast<std::int64_t>(r.owner_local.size());
        const VertexId* from = r.owner_local.data();
        if (owner_here) {
          const std::byte* src = array(engine(r.owner));
          std::byte* to = target_here ? array(engine(l.index)) + static_cast<std::size_t>(r.begin) * size
                                      : sent_.emplace_back(static_cast<std::size_t>(n) * size).data();
#pragma omp parallel for schedule(static) if (n > 65536)
          for (std::int64_t i = 0; i < n; ++i)
            std::memcpy(to + static_cast<std::size_t>(i) * size, src + static_cast<std::size_t>(from[i]) * size, size);
          if (!target_here) transport_.post_send(own_.rank_of(l.index), tag, to, static_cast<std::size_t>(n) * size);
        } else {
          transport_.post_receive(own_.rank_of(r.owner), tag,
                                  array(engine(l.index)) + static_cast<std::size_t>(r.begin) * size,
                                  static_cast<std::size_t>(n) * size);
        }
        if (target_here) bytes += static_cast<std::uint64_t>(n) * size;
      }
    }
    transport_.complete();
    seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return bytes;
  }

  Engine& engine(std::uint32_t partition) { return *engines_[own_.local_index(partition)]; }

  const PartitionPlan& plan_;
  std::vector<std::unique_ptr<Engine>>& engines_;
  common::ReplicatedState<Program> what_;
  transport::Transport& transport_;
  transport::PartitionOwnership own_;
  std::vector<std::vector<std::byte>> sent_;  // packed routes to other ranks, until complete()
  double seconds_ = 0.0;
};

}  // namespace medusa::host
