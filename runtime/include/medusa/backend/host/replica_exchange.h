// Replica refresh between partitions on the host: for every route, the owner's values are copied
// into the replica range. Same interface as the CUDA exchange (peer copies), so the session code is
// shared; see docs/multi-gpu.md. In a distributed run (Config::distributed) each rank holds the
// engines of its own partitions (transport/ownership.h): a route between two of them is a memory
// copy as in one process; a route to another rank is packed on the owner and sent through the
// transport, and received straight into the replica range (a range of consecutive local IDs).
// Routes inside the process take the sparse refresh as on CUDA (common/sparse_refresh.h): the
// owner keeps a shadow per route and field, and copies the changed replicas or all of them.
#pragma once

#include <medusa/backend/common/replicated_state.h>
#include <medusa/backend/common/sparse_refresh.h>
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
#include <utility>
#include <vector>

namespace medusa::host {

template <class Program>
class PartitionEngine;

template <class Program>
class ReplicaExchange {
 public:
  using Engine = PartitionEngine<Program>;

  ReplicaExchange(const PartitionPlan& plan, std::vector<std::unique_ptr<Engine>>& engines,
                  common::ReplicatedState<Program> what, transport::Transport& transport, Toggle sparse)
      : plan_(plan), engines_(engines), what_(std::move(what)), transport_(transport),
        own_(transport.ownership()), sparse_setting_(sparse),
        sparse_refusal_(common::sparse_refresh_refusal(plan.hops, sparse)),
        shadows_(sparse_refusal_.empty() ? what_.fields.size() : 0) {}

  // Copies every replicated field from the owners; returns the bytes copied densely (the sparse
  // copies' are counted apart: take_sparse_bytes).
  std::uint64_t refresh_fields() {
    std::uint64_t bytes = 0;
    for (std::size_t k = 0; k < what_.fields.size(); ++k) {
      const std::size_t f = what_.fields[k];
      const std::size_t size = Program::vertex_fields[f].size;
      bytes += copy_routes(size, [&](Engine& e) { return e.vertex_field(f); }, shadows_.empty() ? nullptr : &shadows_[k]);
    }
    shadow_current_ = true;
    return bytes;
  }
  // Copies the owners' SetActive flags of this superstep to their replicas.
  std::uint64_t refresh_flags() {
    if (!what_.flags) return 0;
    return copy_routes(1, [](Engine& e) { return reinterpret_cast<std::byte*>(e.next_vertex_flags()); });
  }
  // Both at once (the superstep's end of a program with a vertex frontier, when the fields are stale).
  std::uint64_t refresh_fields_and_flags() { return refresh_fields() + refresh_flags(); }
  // Host copies are done when refresh_*() returns.
  void wait(std::uint32_t) {}
  void begin_run() {
    seconds_ = 0.0;
    shadow_current_ = false;  // (until a dense refresh, what the targets hold is not known)
  }
  std::uint64_t take_sparse_bytes() { return std::exchange(sparse_bytes_, 0); }
  double transfer_seconds() const { return seconds_; }

  // Cost model: a replica refresh on the host is a gather of `bytes` per replica, cheap next to an
  // edge visit.
  static double refresh_cost_per_vertex(std::size_t bytes) { return 0.05 * static_cast<double>(bytes); }

  std::string describe() const {
    return what_.describe(plan_) + ", host memory copies, " +
           (sparse_refusal_.empty() ? std::string("sparse where few replicas changed") : "every copy " + sparse_refusal_) +
           (own_.ranks > 1 ? " and " + transport_.describe() : std::string());
  }

 private:
  // What the target of a route inside the process holds of one field, and the last diff.
  struct Shadow {
    std::vector<std::byte> values;
    std::vector<VertexId> changed;
    std::uint64_t last_changed = 0;
  };

  // The copy of a route inside the process with a shadow: the diff, then the changed replicas or
  // the whole shadow into `to`. Returns the bytes of a dense copy (0 for a sparse one).
  std::uint64_t copy_through_shadow(Shadow& sh, std::byte* to, const std::byte* src, const VertexId* from,
                                    std::size_t n, std::size_t size) {
    if (sh.values.size() != n * size) {
      sh.values.assign(n * size, std::byte{0});
      sh.last_changed = n;
    }
    const common::RefreshCopy copy =
        common::choose_refresh_copy(sparse_setting_, true, shadow_current_, sh.last_changed, n);
    sh.last_changed = common::diff_into_shadow(sh.values.data(), src, from, n, size, sh.changed);
    if (copy == common::RefreshCopy::Sparse) {
      common::scatter_changed(to, sh.values.data(), sh.changed, size);
      sparse_bytes_ += sh.last_changed * size;
      return 0;
    }
    std::memcpy(to, sh.values.data(), n * size);
    return static_cast<std::uint64_t>(n) * size;
  }

  template <class Array>
  std::uint64_t copy_routes(std::size_t size, const Array& array, std::vector<Shadow>* shadows = nullptr) {
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
        if (owner_here && target_here && shadows != nullptr) {
          if (shadows->size() < static_cast<std::size_t>(tag)) shadows->resize(tag);
          bytes += copy_through_shadow((*shadows)[tag - 1],
                                       array(engine(l.index)) + static_cast<std::size_t>(r.begin) * size,
                                       array(engine(r.owner)), from, static_cast<std::size_t>(n), size);
          continue;
        }
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
  Toggle sparse_setting_;
  std::string sparse_refusal_;          // why no route goes sparse (empty: routes may)
  std::vector<std::vector<Shadow>> shadows_;  // per replicated field, per route (by its number)
  bool shadow_current_ = false;         // a dense refresh since begin_run: the targets hold the shadows
  std::uint64_t sparse_bytes_ = 0;
  double seconds_ = 0.0;
};

}  // namespace medusa::host
