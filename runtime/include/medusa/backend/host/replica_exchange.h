// Replica refresh between simulated partitions on the host: for every route, the owner's values
// are copied into the replica range. Same interface as the CUDA exchange (peer copies), so the
// session code is shared; see docs/multi-gpu.md.
#pragma once

#include <medusa/backend/common/replicated_state.h>
#include <medusa/partition/plan.h>
#include <medusa/program.h>

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

  ReplicaExchange(const PartitionPlan& plan, std::vector<std::unique_ptr<Engine>>& engines,
                  common::ReplicatedState<Program> what)
      : plan_(plan), engines_(engines), what_(std::move(what)) {}

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
  void reset_timing() { seconds_ = 0.0; }
  double transfer_seconds() const { return seconds_; }

  // Cost model: a replica refresh on the host is a gather of `bytes` per replica, cheap next to an
  // edge visit.
  static double refresh_cost_per_vertex(std::size_t bytes) { return 0.05 * static_cast<double>(bytes); }

  std::string describe() const { return what_.describe(plan_) + ", host memory copies"; }

 private:
  template <class Array>
  std::uint64_t copy_routes(std::size_t size, const Array& array) {
    const auto start = std::chrono::steady_clock::now();
    std::uint64_t bytes = 0;
    for (const PartitionLayout& l : plan_.partitions) {
      std::byte* dst = array(*engines_[l.index]);
      for (const ReplicaRoute& r : l.replicas) {
        const std::byte* src = array(*engines_[r.owner]);
        const auto n = static_cast<std::int64_t>(r.owner_local.size());
        const VertexId* from = r.owner_local.data();
        std::byte* to = dst + static_cast<std::size_t>(r.begin) * size;
#pragma omp parallel for schedule(static) if (n > 65536)
        for (std::int64_t i = 0; i < n; ++i)
          std::memcpy(to + static_cast<std::size_t>(i) * size, src + static_cast<std::size_t>(from[i]) * size, size);
        bytes += static_cast<std::uint64_t>(n) * size;
      }
    }
    seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return bytes;
  }

  const PartitionPlan& plan_;
  std::vector<std::unique_ptr<Engine>>& engines_;
  common::ReplicatedState<Program> what_;
  double seconds_ = 0.0;
};

}  // namespace medusa::host
