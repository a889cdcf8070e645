// Replica refresh between the GPUs of one run (docs/multi-gpu.md). For each route (owner partition
// -> replica range of another partition) the owner packs the replicated fields (and flags) of those
// vertices with one kernel on its compute stream (route_copy.cuh), then its copy stream moves the
// packed bytes straight into the replica range with cudaMemcpyPeerAsync (NVLink or PCIe). The copy
// stream runs beside the compute stream, so the partition's owned heads are processed while the
// bytes are in flight; wait(p) makes partition p's later work see them. When both partitions share
// a GPU (and its stream) that kernel writes the replica range itself: no pack, no copy.
//
// In a distributed run (Config::distributed) each rank holds the engines of its own partitions
// (transport/ownership.h). A route between two of them is the same peer copy; a route to another
// rank is staged through host memory: packed on the owner's GPU, copied to pinned memory, sent
// through the transport (MPI), and on the target copied from pinned memory into the replica range
// on its copy stream, so wait(p) covers it as it covers a peer copy. With NCCL (MEDUSA_ENABLE_NCCL,
// one GPU per rank, each a different one) the packed bytes go device to device instead: ncclSend
// from the owner's pack, ncclRecv straight into the replica range, on the copy stream.
//
// Sparse refresh (backend/common/sparse_refresh.h): on a route inside the process the field pack
// is a shadow of what the target holds. The owner's diff kernel updates it and lists the replicas
// that changed; the copy is then the dense copy of the whole pack, or a scatter kernel on the copy
// stream that writes only the listed replicas into the target's range (through peer access on
// another GPU). The counts come back to pinned memory after the copy; the next refresh reads them
// without waiting to choose. Routes between ranks stay dense.
#pragma once

#include <medusa/backend/common/replicated_state.h>
#include <medusa/backend/common/sparse_refresh.h>
#include <medusa/backend/cuda/batch_recording.h>
#include <medusa/backend/cuda/buffer.h>
#include <medusa/backend/cuda/check.h>
#include <medusa/backend/cuda/kernels.cuh>
#include <medusa/backend/cuda/nccl_link.h>
#include <medusa/backend/cuda/route_copy.cuh>
#include <medusa/backend/cuda/sparse_refresh.cuh>
#include <medusa/partition/plan.h>
#include <medusa/program.h>
#include <medusa/transport/transport.h>
#include <medusa/tuning.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

namespace medusa::gpu {

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
        sparse_refusal_(common::sparse_refresh_refusal(plan.hops, sparse)) {
    const std::size_t pack_bytes = what_.bytes_per_replica();
    sides_.resize(engines_.size());
    for (std::size_t p = 0; p < engines_.size(); ++p) {
      Side& s = sides_[p];
      DeviceScope on(engines_[p]->device_ordinal());
      s.copy_stream = std::make_unique<Stream>();
      s.ready = std::make_unique<Event>();
      s.packed = std::make_unique<Event>();
      s.sent = std::make_unique<Event>();
      s.d_sparse_bytes.allocate(1);
      s.d_sparse_bytes.zero(s.copy_stream->get());
      engines_[p]->add_side_stream(s.copy_stream->get());  // (a recorded batch joins it back)
    }
    // Peer access where the hardware allows it; cudaMemcpyPeerAsync stages through the host
    // otherwise, which is correct but slow (reported), and no batch of supersteps can end on
    // every partition at once (batch_controller.cuh).
    for (std::size_t p = 0; p < engines_.size(); ++p) {
      for (std::size_t q = 0; q < engines_.size(); ++q) {
        const int a = engines_[p]->device_ordinal(), b = engines_[q]->device_ordinal();
        if (a == b) continue;
        int can = 0;
        MEDUSA_CUDA_CHECK(cudaDeviceCanAccessPeer(&can, a, b));
        if (!can) {
          peer_ok_ = false;
          continue;
        }
        DeviceScope on(a);
        const cudaError_t err = cudaDeviceEnablePeerAccess(b, 0);
        if (err == cudaErrorPeerAccessAlreadyEnabled) {
          cudaGetLastError();  // clear the sticky-free "already enabled" status
        } else {
          MEDUSA_CUDA_CHECK(err);
        }
      }
    }
    if (!peer_ok_)
      for (auto& e : engines_) e->refuse_batches();
    if (own_.ranks > 1) nccl_ = connect_nccl();
    int tag = 0;  // the route's number: both ranks of a staged route count the routes alike
    for (const PartitionLayout& l : plan_.partitions) {
      for (const ReplicaRoute& r : l.replicas) {
        ++tag;
        const bool owner_here = own_.owns(r.owner), target_here = own_.owns(l.index);
        if (!owner_here && !target_here) continue;
        Route route;
        route.owner = r.owner;
        route.target = l.index;
        route.begin = r.begin;
        route.count = r.owner_local.size();
        route.tag = tag;
        if ((!owner_here || !target_here) && !nccl_)
          route.h_pack = PinnedBuffer<std::byte>(route.count * pack_bytes);
        if (owner_here) {
          Engine& owner = engine(r.owner);
          DeviceScope on(owner.device_ordinal());
          route.d_index.allocate(route.count);
          route.d_index.upload(r.owner_local.data(), route.count, owner.stream());
          route.d_pack.allocate(route.count * pack_bytes);
          if (target_here && sparse_refusal_.empty() && !what_.fields.empty()) allocate_shadow(route, owner);
          MEDUSA_CUDA_CHECK(cudaStreamSynchronize(owner.stream()));
        }
        (owner_here && target_here ? routes_ : owner_here ? sends_ : receives_).push_back(std::move(route));
      }
    }
  }

  ~ReplicaExchange() {
    for (std::size_t p = 0; p < engines_.size(); ++p) cudaSetDevice(engines_[p]->device_ordinal());
  }

  // Starts copying every replicated field from the owners; returns the bytes moved.
  std::uint64_t refresh_fields() { return refresh(/*flags=*/false); }
  // Starts copying the owners' SetActive flags of this superstep to their replicas: into the
  // replicas' own flags, or where a queued superstep's end queues them from (replica_flag_landing).
  std::uint64_t refresh_flags() {
    if (!what_.flags) return 0;
    return start([](Engine& e, std::size_t) { return reinterpret_cast<std::byte*>(e.next_vertex_flags()); },
                 [](Engine& e, std::size_t) { return reinterpret_cast<std::byte*>(e.replica_flag_landing()); },
                 1, [](std::size_t) { return std::size_t{1}; }, /*fields=*/0);
  }
  // Both in one refresh: each route's fields and flags in one pack (or one direct kernel).
  std::uint64_t refresh_fields_and_flags() { return refresh(/*flags=*/what_.flags); }
  // Partition p's later work (on its compute stream) waits for the copies into its replicas.
  // (A read-back that ended a recording since the copies were issued found them done.)
  void wait(std::uint32_t p) {
    DeviceScope on(engines_[p]->device_ordinal());
    if (capture_id(engines_[p]->stream()) != sent_capture_) return;
    for (std::uint32_t q : senders_[p])
      MEDUSA_CUDA_CHECK(cudaStreamWaitEvent(engines_[p]->stream(), sides_[q].sent->get(), 0));
  }

  // A Run starts: no copy time yet, and the shadows are not trusted until a dense refresh (what
  // the targets hold is then known for certain).
  void begin_run() {
    collect_timing();
    seconds_ = 0.0;
    shadow_current_ = false;
  }
  // Bytes the sparse copies wrote since the last call (counted on the GPUs; waits for them).
  std::uint64_t take_sparse_bytes() {
    std::uint64_t total = 0;
    for (std::size_t p = 0; p < sides_.size(); ++p) {
      Side& s = sides_[p];
      DeviceScope on(engines_[p]->device_ordinal());
      unsigned long long moved = 0;
      s.d_sparse_bytes.download(&moved, 1, s.copy_stream->get());
      MEDUSA_CUDA_CHECK(cudaStreamSynchronize(s.copy_stream->get()));
      s.d_sparse_bytes.zero(s.copy_stream->get());
      total += moved;
    }
    return total;
  }
  // Time the copies took: per refresh the slowest GPU's copy stream, from packed to sent.
  double transfer_seconds() {
    collect_timing();
    return seconds_;
  }

  // Cost model (edge-visit units): NVLink moves a replica's bytes in a small fraction of the time
  // an edge visit takes; the gather adds one random read.
  static double refresh_cost_per_vertex(std::size_t bytes) { return 0.05 + 0.025 * static_cast<double>(bytes); }

  std::string describe() const {
    return what_.describe(plan_) + ", " +
           (peer_ok_ ? "peer-to-peer copies" : "copies staged through the host (no peer access)") +
           " on a copy stream per GPU, " +
           describe_sparse() +
           (own_.ranks == 1 ? std::string()
            : nccl_        ? ", between ranks NCCL device to device"
                           : ", between ranks staged through pinned host memory over " + transport_.describe());
  }

 private:
  struct Side {
    std::unique_ptr<Stream> copy_stream;
    std::unique_ptr<Event> ready, packed, sent;
    DeviceBuffer<unsigned long long> d_sparse_bytes;  // written by this GPU's sparse copies
  };
  struct Route {
    std::uint32_t owner = 0, target = 0;
    VertexId begin = 0;
    std::size_t count = 0;
    int tag = 0;
    DeviceBuffer<VertexId> d_index;   // owner-local IDs, on the owner's GPU (owner on this rank)
    DeviceBuffer<std::byte> d_pack;   // packed values, on the owner's GPU (owner on this rank)
    PinnedBuffer<std::byte> h_pack;   // packed values on their way between ranks
    // A route inside the process whose field pack is a shadow (sparse refresh allowed); per field:
    bool shadowed = false;
    DeviceBuffer<std::byte> d_flag_pack;  // the flags' pack, apart from the fields' shadow
    DeviceBuffer<VertexId> d_changed;     // count entries per field: replicas the diff listed
    DeviceBuffer<unsigned> d_changed_count;
    PinnedBuffer<unsigned> h_changed_count;  // the last diff's counts (read without waiting)
    std::vector<common::RefreshCopy> copy;   // this refresh's choice
  };
  void allocate_shadow(Route& r, Engine& owner) {
    const std::size_t fields = what_.fields.size();
    r.shadowed = true;
    r.d_pack.zero(owner.stream());
    if (what_.flags) r.d_flag_pack.allocate(r.count);
    r.d_changed.allocate(r.count * fields);
    r.d_changed_count.allocate(fields);
    r.h_changed_count = PinnedBuffer<unsigned>(fields);
    for (std::size_t k = 0; k < fields; ++k) r.h_changed_count[k] = static_cast<unsigned>(r.count);  // (unknown)
    r.copy.assign(fields, common::RefreshCopy::Dense);
  }
  // The copy each field of `r` takes this refresh, from the counts of the last diff: pinned memory
  // a copy may be writing, read without waiting (a late count only makes a worse choice).
  void choose_copies(Route& r) {
    const bool reachable = peer_ok_ || engine(r.owner).device_ordinal() == engine(r.target).device_ordinal();
    const volatile unsigned* last = r.h_changed_count.data();
    for (std::size_t k = 0; k < r.copy.size(); ++k)
      r.copy[k] = common::choose_refresh_copy(sparse_setting_, reachable, shadow_current_, last[k], r.count);
  }
  std::string describe_sparse() const {
    if (!sparse_refusal_.empty()) return "every copy " + sparse_refusal_;
    std::string when = sparse_setting_ == Toggle::On
                           ? "always"
                           : "where under " + std::to_string(static_cast<int>(common::kSparseRefreshShare * 100)) +
                                 "% of a route changed last time";
    return "fields' copies sparse " + when + (peer_ok_ ? "" : " (between partitions of one GPU: no peer access)") +
           (own_.ranks > 1 ? ", inside this rank" : "");
  }
  // Where array k of a refresh whose first `fields` arrays are fields is packed (at `offset`, the
  // element bytes of the arrays before it): a route with a shadow keeps its flags apart from it.
  std::byte* pack_of(Route& r, std::size_t k, std::size_t fields, std::size_t offset) {
    if (k >= fields && r.d_flag_pack.size() != 0) return r.d_flag_pack.data();
    return r.d_pack.data() + offset * r.count;
  }
  // Whether route r (both ends in this process) is one kernel on the owner's stream that writes the
  // target's replica range itself, with no pack and no copy: both ends on one GPU (sharing its
  // stream), and no shadow to diff against. Across GPUs the copy stream keeps overlapping the copies
  // with the owned heads' launch.
  bool direct(Route& r) { return !r.shadowed && engine(r.owner).device_ordinal() == engine(r.target).device_ordinal(); }

  // The replicated fields, then the flags when `flags`.
  std::uint64_t refresh(bool flags) {
    const std::vector<std::size_t>& fields = what_.fields;
    const std::size_t n = fields.size();
    const auto array_of = [&](Engine& e, std::size_t k) {
      return k < n ? e.vertex_field(fields[k]) : reinterpret_cast<std::byte*>(e.next_vertex_flags());
    };
    const auto landing_of = [&](Engine& e, std::size_t k) {
      return k < n ? e.vertex_field(fields[k]) : reinterpret_cast<std::byte*>(e.replica_flag_landing());
    };
    const std::uint64_t bytes =
        start(array_of, landing_of, n + (flags ? 1 : 0),
              [&](std::size_t k) { return k < n ? Program::vertex_fields[fields[k]].size : std::size_t{1}; }, n);
    shadow_current_ = true;  // (this refresh was dense where it was not)
    return bytes;
  }
  Engine& engine(std::uint32_t partition) { return *engines_[own_.local_index(partition)]; }
  Side& side(std::uint32_t partition) { return sides_[own_.local_index(partition)]; }

  // The timing events of one refresh, per GPU side: packed (on the compute stream) and sent (on
  // the copy stream). Refreshes inside a batch of supersteps must not wait for the one before
  // (the host issues the batch ahead of the GPU), so each refresh gets its own pair, and their
  // times are collected once done.
  struct RefreshTiming {
    std::vector<std::unique_ptr<Event>> packed, sent;
  };
  RefreshTiming& next_timing() {
    if (timing_free_.empty()) {
      RefreshTiming t;
      for (std::size_t q = 0; q < engines_.size(); ++q) {
        DeviceScope on(engines_[q]->device_ordinal());
        t.packed.push_back(std::make_unique<Event>(/*timing=*/true));
        t.sent.push_back(std::make_unique<Event>(/*timing=*/true));
      }
      timing_free_.push_back(std::move(t));
    }
    timing_pending_.push_back(std::move(timing_free_.back()));
    timing_free_.pop_back();
    return timing_pending_.back();
  }
  // Adds the copy time of the refreshes done (`wait`: of all, waiting for those in flight): per
  // refresh the slowest GPU's copy stream, from packed to sent.
  void collect_timing(bool wait = true) {
    while (!timing_pending_.empty()) {
      RefreshTiming& t = timing_pending_.front();
      float slowest = 0.0f;
      for (std::size_t q = 0; q < t.sent.size(); ++q) {
        DeviceScope on(engines_[q]->device_ordinal());
        if (!wait) {
          const cudaError_t done = cudaEventQuery(t.sent[q]->get());
          if (done == cudaErrorNotReady) {
            cudaGetLastError();  // (not an error: clear it)
            return;
          }
          MEDUSA_CUDA_CHECK(done);
        }
        MEDUSA_CUDA_CHECK(cudaEventSynchronize(t.sent[q]->get()));
        float ms = 0.0f;
        MEDUSA_CUDA_CHECK(cudaEventElapsedTime(&ms, t.packed[q]->get(), t.sent[q]->get()));
        slowest = std::max(slowest, ms);
      }
      seconds_ += slowest / 1e3;
      timing_free_.push_back(std::move(t));
      timing_pending_.pop_front();
    }
  }

  // array_of(owner, k): array k, packed from at the owners' vertices; landing_of(target, k): where
  // the copies of array k land, at the replicas' local IDs. The first `fields` arrays are the
  // replicated fields (diffed against the routes' shadows where they have one), the rest the
  // SetActive flags.
  template <class ArrayOf, class LandingOf, class SizeOf>
  std::uint64_t start(const ArrayOf& array_of, const LandingOf& landing_of, std::size_t arrays,
                      const SizeOf& size_of, std::size_t fields) {
    const std::size_t n = engines_.size();
    senders_.assign(n, {});
    if (arrays == 0 || (routes_.empty() && sends_.empty() && receives_.empty())) return 0;
    // Inside a recorded batch (batch_recording.h) no copy is timed: a captured event cannot be
    // queried. Nor can a capture wait on an event recorded outside it, or the reverse: the last
    // refresh's copies are then done already, since a recording starts and ends at a read-back.
    const unsigned long long capture = engines_capture();
    const bool wait_sent = sent_once_ && sent_capture_ == capture;
    if (capture == 0) collect_timing(/*wait=*/false);
    // Copies land in replica ranges that earlier work of the target may still read, and the
    // packs below reuse buffers the previous refresh's copies may still read.
    for (std::size_t p = 0; p < n; ++p) {
      DeviceScope on(engines_[p]->device_ordinal());
      MEDUSA_CUDA_CHECK(cudaEventRecord(sides_[p].ready->get(), engines_[p]->stream()));
      if (wait_sent) MEDUSA_CUDA_CHECK(cudaStreamWaitEvent(engines_[p]->stream(), sides_[p].sent->get(), 0));
    }
    // Pack on each owner's compute stream (ordered after the work that wrote the fields); a direct
    // route is its whole copy there.
    std::uint64_t bytes = 0;
    for (std::vector<Route>* packed : {&routes_, &sends_}) {
      for (Route& r : *packed) {
        Engine& owner = engine(r.owner);
        DeviceScope on(owner.device_ordinal());
        if (packed == &routes_ && direct(r)) {
          bytes += copy_direct(r, array_of, landing_of, arrays, size_of);
          continue;
        }
        const bool diff = fields != 0 && r.shadowed;
        if (diff) {
          choose_copies(r);
          MEDUSA_CUDA_CHECK(cudaMemsetAsync(r.d_changed_count.data(), 0, fields * sizeof(unsigned), owner.stream()));
        }
        RouteCopy pack(r.d_index.data(), r.count, owner.stream());
        std::size_t offset = 0;
        for (std::size_t k = 0; k < arrays; ++k) {
          const std::size_t size = size_of(k);
          std::byte* to = pack_of(r, k, fields, offset);
          if (diff && k < fields)
            diff_into_shadow(size, to, array_of(owner, k), r.d_index.data(), r.count,
                             r.copy[k] == common::RefreshCopy::Sparse ? r.d_changed.data() + k * r.count : nullptr,
                             r.d_changed_count.data() + k, owner.stream());
          else
            pack.add(to, array_of(owner, k), size);
          offset += size;
        }
        pack.launch();
      }
    }
    RefreshTiming* timing = capture == 0 ? &next_timing() : nullptr;
    for (std::size_t q = 0; q < n; ++q) {
      DeviceScope on(engines_[q]->device_ordinal());
      if (timing) MEDUSA_CUDA_CHECK(cudaEventRecord(timing->packed[q]->get(), engines_[q]->stream()));
      MEDUSA_CUDA_CHECK(cudaEventRecord(sides_[q].packed->get(), engines_[q]->stream()));
      MEDUSA_CUDA_CHECK(cudaStreamWaitEvent(sides_[q].copy_stream->get(), sides_[q].packed->get(), 0));
    }
    for (Route& r : routes_) {
      Engine& owner = engine(r.owner);
      Engine& target = engine(r.target);
      if (direct(r)) {  // (written on the owner's stream: only another stream waits)
        if (owner.stream() != target.stream()) senders_[own_.local_index(r.target)].push_back(own_.local_index(r.owner));
        continue;
      }
      DeviceScope on(owner.device_ordinal());
      cudaStream_t cs = side(r.owner).copy_stream->get();
      MEDUSA_CUDA_CHECK(cudaStreamWaitEvent(cs, side(r.target).ready->get(), 0));
      const bool diffed = fields != 0 && r.shadowed;
      std::size_t offset = 0;
      for (std::size_t k = 0; k < arrays; ++k) {
        const std::size_t size = size_of(k);
        std::byte* dst = landing_of(target, k) + static_cast<std::size_t>(r.begin) * size;
        const std::byte* src = pack_of(r, k, fields, offset);
        if (diffed && k < fields && r.copy[k] == common::RefreshCopy::Sparse) {  // (bytes counted on the GPU)
          const std::size_t expected = std::min<std::size_t>(r.count, 2 * std::size_t{r.h_changed_count[k]} + 1);
          scatter_changed(size, dst, src, r.d_changed.data() + k * r.count, r.d_changed_count.data() + k, expected,
                          side(r.owner).d_sparse_bytes.data(), cs);
          offset += size;
          continue;
        }
        if (target.device_ordinal() == owner.device_ordinal())  // (a plain copy: one a recording can hold)
          MEDUSA_CUDA_CHECK(cudaMemcpyAsync(dst, src, r.count * size, cudaMemcpyDeviceToDevice, cs));
        else
          MEDUSA_CUDA_CHECK(cudaMemcpyPeerAsync(dst, target.device_ordinal(), src, owner.device_ordinal(),
                                                r.count * size, cs));
        offset += size;
        bytes += r.count * size;
      }
      if (diffed)
        MEDUSA_CUDA_CHECK(cudaMemcpyAsync(r.h_changed_count.data(), r.d_changed_count.data(), fields * sizeof(unsigned),
                                          cudaMemcpyDeviceToHost, cs));
      senders_[own_.local_index(r.target)].push_back(own_.local_index(r.owner));
    }
    bytes += exchange_between_ranks(landing_of, arrays, size_of);
    for (std::size_t q = 0; q < n; ++q) {
      DeviceScope on(engines_[q]->device_ordinal());
      MEDUSA_CUDA_CHECK(cudaEventRecord(sides_[q].sent->get(), sides_[q].copy_stream->get()));
      if (timing) MEDUSA_CUDA_CHECK(cudaEventRecord(timing->sent[q]->get(), sides_[q].copy_stream->get()));
    }
    sent_once_ = true;
    sent_capture_ = capture;
    for (auto& s : senders_) {
      std::sort(s.begin(), s.end());
      s.erase(std::unique(s.begin(), s.end()), s.end());
    }
    return bytes;
  }

  // A direct route (direct()) on the owner's stream, after the target's earlier work (`ready`).
  // Returns the bytes written.
  template <class ArrayOf, class LandingOf, class SizeOf>
  std::uint64_t copy_direct(Route& r, const ArrayOf& array_of, const LandingOf& landing_of, std::size_t arrays,
                            const SizeOf& size_of) {
    Engine& owner = engine(r.owner);
    Engine& target = engine(r.target);
    if (owner.stream() != target.stream())
      MEDUSA_CUDA_CHECK(cudaStreamWaitEvent(owner.stream(), side(r.target).ready->get(), 0));
    RouteCopy copy(r.d_index.data(), r.count, owner.stream());
    std::uint64_t bytes = 0;
    for (std::size_t k = 0; k < arrays; ++k) {
      const std::size_t size = size_of(k);
      copy.add(landing_of(target, k) + static_cast<std::size_t>(r.begin) * size, array_of(owner, k), size);
      bytes += r.count * size;
    }
    copy.launch();
    return bytes;
  }

  // The routes to and from other ranks (after the packs and the local copies were issued): packed
  // bytes to pinned memory, through the transport, and into the replica ranges (landing_of) on the
  // target's copy stream. Returns the bytes received.
  template <class LandingOf, class SizeOf>
  std::uint64_t exchange_between_ranks(const LandingOf& landing_of, std::size_t arrays, const SizeOf& size_of) {
    if (sends_.empty() && receives_.empty()) return 0;
    if (nccl_) return exchange_through_nccl(landing_of, arrays, size_of);
    std::size_t bytes_per_vertex = 0;
    for (std::size_t k = 0; k < arrays; ++k) bytes_per_vertex += size_of(k);
    for (Route& r : sends_) {  // on the owner's copy stream, after its packs
      DeviceScope on(engine(r.owner).device_ordinal());
      MEDUSA_CUDA_CHECK(cudaMemcpyAsync(r.h_pack.data(), r.d_pack.data(), r.count * bytes_per_vertex,
                                        cudaMemcpyDeviceToHost, side(r.owner).copy_stream->get()));
    }
    for (Route& r : receives_) transport_.post_receive(own_.rank_of(r.owner), r.tag, r.h_pack.data(),
                                                       r.count * bytes_per_vertex);
    for (Route& r : sends_) {
      DeviceScope on(engine(r.owner).device_ordinal());
      MEDUSA_CUDA_CHECK(cudaStreamSynchronize(side(r.owner).copy_stream->get()));
      transport_.post_send(own_.rank_of(r.target), r.tag, r.h_pack.data(), r.count * bytes_per_vertex);
    }
    transport_.complete();
    std::uint64_t bytes = 0;
    for (Route& r : receives_) {
      Engine& target = engine(r.target);
      DeviceScope on(target.device_ordinal());
      cudaStream_t cs = side(r.target).copy_stream->get();
      MEDUSA_CUDA_CHECK(cudaStreamWaitEvent(cs, side(r.target).ready->get(), 0));
      std::size_t offset = 0;
      for (std::size_t k = 0; k < arrays; ++k) {
        const std::size_t size = size_of(k);
        MEDUSA_CUDA_CHECK(cudaMemcpyAsync(landing_of(target, k) + static_cast<std::size_t>(r.begin) * size,
                                          r.h_pack.data() + offset * r.count, r.count * size,
                                          cudaMemcpyHostToDevice, cs));
        offset += size;
        bytes += r.count * size;
      }
      senders_[own_.local_index(r.target)].push_back(own_.local_index(r.target));
    }
    return bytes;
  }

  // NCCL (one engine per rank, connect_nccl): every pair of ranks matches its sends and receives
  // in route order, field by field, each on its engine's copy stream.
  template <class LandingOf, class SizeOf>
  std::uint64_t exchange_through_nccl(const LandingOf& landing_of, std::size_t arrays, const SizeOf& size_of) {
    for (std::size_t p = 0; p < engines_.size(); ++p) {  // replicas the copies land in may still be read
      DeviceScope on(engines_[p]->device_ordinal());
      MEDUSA_CUDA_CHECK(cudaStreamWaitEvent(sides_[p].copy_stream->get(), sides_[p].ready->get(), 0));
    }
    std::uint64_t bytes = 0;
    nccl_->group_start();
    for (Route& r : sends_) {
      DeviceScope on(engine(r.owner).device_ordinal());
      std::size_t offset = 0;
      for (std::size_t k = 0; k < arrays; ++k) {
        nccl_->send(r.d_pack.data() + offset * r.count, r.count * size_of(k), own_.rank_of(r.target),
                    side(r.owner).copy_stream->get());
        offset += size_of(k);
      }
    }
    for (Route& r : receives_) {
      Engine& target = engine(r.target);
      DeviceScope on(target.device_ordinal());
      for (std::size_t k = 0; k < arrays; ++k) {
        const std::size_t size = size_of(k);
        nccl_->receive(landing_of(target, k) + static_cast<std::size_t>(r.begin) * size, r.count * size,
                       own_.rank_of(r.owner), side(r.target).copy_stream->get());
        bytes += r.count * size;
      }
      senders_[own_.local_index(r.target)].push_back(own_.local_index(r.target));
    }
    nccl_->group_end();
    return bytes;
  }

  // NCCL when it is built in, not switched off (MEDUSA_NCCL=0), and every rank runs one engine on
  // a GPU of its own (NCCL cannot connect two ranks on one GPU). Every rank decides alike.
  std::unique_ptr<NcclLink> connect_nccl() {
    const char* env = std::getenv("MEDUSA_NCCL");
    bool usable = NcclLink::available() && !(env != nullptr && std::strcmp(env, "0") == 0) && engines_.size() == 1;
    std::vector<std::byte> mine(1 + sizeof(cudaUUID_t));
    if (usable) {
      cudaDeviceProp prop{};
      MEDUSA_CUDA_CHECK(cudaGetDeviceProperties(&prop, rank_gpu()));
      std::memcpy(mine.data() + 1, &prop.uuid, sizeof(cudaUUID_t));
    }
    mine[0] = std::byte{usable ? std::uint8_t{1} : std::uint8_t{0}};
    const std::vector<std::vector<std::byte>> all = transport_.all_gather(mine);
    for (std::size_t r = 0; r < all.size(); ++r) {
      usable = usable && all[r].size() == mine.size() && all[r][0] == std::byte{1};
      for (std::size_t q = 0; usable && q < r; ++q)
        usable = std::memcmp(all[q].data() + 1, all[r].data() + 1, sizeof(cudaUUID_t)) != 0;
    }
    if (!usable) return nullptr;
    DeviceScope on(rank_gpu());
    return NcclLink::connect(transport_);
  }
  // The capture the engines' compute streams take part in (0: none). A batch recording forks every
  // partition's stream into its capture (batch_recording.h), so they agree; the event waits of a
  // refresh are only valid if they do.
  unsigned long long engines_capture() const {
    unsigned long long capture = 0;
    for (std::size_t p = 0; p < engines_.size(); ++p) {
      DeviceScope on(engines_[p]->device_ordinal());
      const unsigned long long id = capture_id(engines_[p]->stream());
      MEDUSA_REQUIRE(p == 0 || id == capture,
                     "internal: a replica refresh starts while only some partitions' streams are recording a batch");
      capture = id;
    }
    return capture;
  }
  // The GPU of a rank that NCCL connects: its one engine's (a communicator has one GPU per rank).
  int rank_gpu() const {
    MEDUSA_REQUIRE(engines_.size() == 1, "internal: NCCL connects ranks of one engine each");
    return engines_.front()->device_ordinal();
  }


  const PartitionPlan& plan_;
  std::vector<std::unique_ptr<Engine>>& engines_;
  common::ReplicatedState<Program> what_;
  transport::Transport& transport_;
  transport::PartitionOwnership own_;
  std::unique_ptr<NcclLink> nccl_;  // routes between ranks device to device, when usable
  Toggle sparse_setting_;
  std::string sparse_refusal_;   // why no route goes sparse (empty: routes may)
  bool shadow_current_ = false;  // the targets hold what the shadows hold (a dense refresh since begin_run)
  bool peer_ok_ = true;
  bool sent_once_ = false;
  unsigned long long sent_capture_ = 0;  // the capture the last `sent` events were recorded in (0: none)
  std::deque<RefreshTiming> timing_pending_;  // recorded, not yet collected (oldest first)
  std::vector<RefreshTiming> timing_free_;
  double seconds_ = 0.0;
  std::vector<Side> sides_;
  std::vector<Route> routes_;             // both ends on this rank: peer copies
  std::vector<Route> sends_, receives_;   // one end on another rank: staged through the host
  std::vector<std::vector<std::uint32_t>> senders_;  // per target: owners whose copies are in flight
};

}  // namespace medusa::gpu
