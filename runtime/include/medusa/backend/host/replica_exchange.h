// Replica refresh between simulated partitions on the host: for every route, the owner's values
// are copied into the replica range. Same interface as the CUDA exchange (peer copies), so the
// session code is shared; see docs/multi-gpu.md.
#pragma once

#include <medusa/backend/common/format_bytes.h>
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
                  std::vector<std::size_t> fields, bool flags)
      : plan_(plan), engines_(engines), fields_(std::move(fields)), flags_(flags) {}

  // Copies every replicated field from the owners; returns the bytes copied.
  std::uint64_t refresh_fields() {
    std::uint64_t bytes = 0;
    for (std::size_t f : fields_) {
      const std::size_t size = Program::vertex_fields[f].size;
      bytes += copy_routes(size, [&](Engine& e) { return e.vertex_field(f); });
    }
    return bytes;
  }
  // Copies the owners' SetActive flags of this superstep to their replicas.
  std::uint64_t refresh_flags() {
    if (!flags_) return 0;
    return copy_routes(1, [](Engine& e) { return reinterpret_cast<std::byte*>(e.next_vertex_flags()); });
  }
  // Host copies are done when refresh_*() returns.
  void wait(std::uint32_t) {}
  void reset_timing() { seconds_ = 0.0; }
  double transfer_seconds() const { return seconds_; }

  // Cost model: a replica refresh on the host is a gather of `bytes` per replica, cheap next to an
  // edge visit.
  static double refresh_cost_per_vertex(std::size_t bytes) { return 0.05 * static_cast<double>(bytes); }

  std::string describe() const {
    std::size_t per_replica = flags_ ? 1 : 0;
    std::string names;
    for (std::size_t f : fields_) {
      per_replica += Program::vertex_fields[f].size;
      names += std::string(names.empty() ? "" : ", ") + Program::vertex_fields[f].name;
    }
    if (flags_) names += std::string(names.empty() ? "" : ", ") + "frontier flags";
    return std::to_string(plan_.replica_count()) + " replicas x " + std::to_string(per_replica) +
           " bytes (" + (names.empty() ? std::string("nothing: no edge-side functor reads a written field") : names) +
           "), host memory copies";
  }

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
  std::vector<std::size_t> fields_;
  bool flags_;
  double seconds_ = 0.0;
};

}  // namespace medusa::host
