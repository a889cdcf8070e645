// A partition's frontiers on the GPU: SetActive flags, the queues Domain::Active reads (compacted at
// a superstep's end, or queued by SetActive() in a batch), their flags for pulls, their degree scan.
#pragma once

#include <medusa/backend/cuda/buffer.h>
#include <medusa/backend/cuda/check.h>
#include <medusa/backend/cuda/engine/core.cuh>
#include <medusa/backend/cuda/engine/message_store.cuh>
#include <medusa/backend/cuda/kernels.cuh>
#include <medusa/backend/cuda/queue_expand.cuh>
#include <medusa/config.h>
#include <medusa/error.h>
#include <medusa/topology.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace medusa::gpu {

// A part of PartitionEngine<Program> (= Engine).
template <class Program, class Engine>
class Frontiers {
 public:
  explicit Frontiers(const Tuning& tuning) : expansion_{tuning.queueExpand} {}

  // A launch over the vertex frontier visits its out-edges (in a batch, counted on the device).
  void add_frontier_edges_visited() {
    Engine& e = self();
    if (e.batch_.active())
      e.batch_.count_frontier_launch();
    else
      e.edges_visited_ += active_vertex_edges_;
  }
  // Whether this superstep's frontier is expanded edge-balanced (queue_expand.cuh).
  bool balanced_expansion() const { return !self().batch_.active() && expansion_.wanted(active_vertex_edges_); }
  // Inclusive scan of the queued vertices' out-degrees, made once per queue (queue_expand.cuh).
  const unsigned long long* active_degree_scan() {
    const Engine& e = self();
    if (!active_scan_valid_) {
      expansion_.scan(d_active_vertices_.data(), active_vertex_count_, e.d_out_offsets_.data(),
                      e.max_blocks_, e.stream_.get());
      active_scan_valid_ = true;
    }
    return expansion_.ends();
  }
  std::uint8_t* next_vertex_flags() { return d_next_active_vertex_.data(); }  // (replica exchange: the owners')
  // Where the replica exchange copies the replicas' flags: into the next frontier's flags, which
  // the compaction reads; in a queued superstep of a partition into a buffer of their own, which
  // its end queues the replicas from (queue_replicas_end_batched_superstep_kernel).
  std::uint8_t* replica_flag_landing() {
    return queues_next_frontier() && !self().whole_graph() ? d_replica_flags_.data()
                                                                  : d_next_active_vertex_.data();
  }

 protected:
  Engine& self() { return static_cast<Engine&>(*this); }
  const Engine& self() const { return static_cast<const Engine&>(*this); }

  // SetActive() queues the next frontier in this superstep (KernelCtx::next_active_queue).
  bool queues_next_frontier() const { return superstep_queued_ && self().batch_.active(); }

  // The frontiers' buffers, the first superstep's Domain::Active seeded with `seeds`.
  void allocate_frontiers(const std::vector<VertexId>& seeds, const Topology& t) {
    const Engine& e = self();
    const std::uint64_t V = e.V_, E = e.E_;
    cudaStream_t s = e.stream_.get();
    if (Program::uses.vertex_frontier) {
      const std::uint64_t flag_words = (V + 3) / 4 * 4;  // whole words: a queued SetActive sets one by word
      d_next_active_vertex_.allocate(flag_words);
      d_next_active_vertex_.zero(s);
      d_active_vertices_.allocate(V);
      if (queued_frontier_) d_next_queue_.allocate(V);
      if (queued_frontier_ && !e.whole_graph()) {
        d_replica_flags_.allocate(flag_words);
        d_replica_flags_.zero(s);  // (every refresh overwrites the replicas' bytes)
      }
      expansion_.allocate(V);
      if (e.pull_fusion_) {
        d_active_flags_.allocate(flag_words);
        d_pushed_flags_.allocate(flag_words);
      }
      seed_active_vertices(seeds, t);
    }
    if (Program::uses.edge_frontier) {
      d_next_active_edge_.allocate(E);
      d_next_active_edge_.zero(s);
      d_active_edges_.allocate(E);
    }
  }

  // The host's graph.SetActive(v) seeds become the first superstep's Domain::Active.
  void seed_active_vertices(std::vector<VertexId> seeds, const Topology& t) {
    const Engine& e = self();
    std::sort(seeds.begin(), seeds.end());  // (the session checked the global IDs)
    seeds.erase(std::unique(seeds.begin(), seeds.end()), seeds.end());
    if (!seeds.empty())
      MEDUSA_REQUIRE(seeds.back() < e.V_, "graph.SetActive(" + std::to_string(seeds.back()) +
                                              "): no such vertex (the graph has " +
                                              std::to_string(e.V_) + " vertices)");
    active_vertex_count_ = seeds.size();
    active_vertex_edges_ = 0;
    for (VertexId v : seeds) active_vertex_edges_ += t.out_degree(v);
    d_active_vertices_.upload(seeds.data(), seeds.size(), e.stream_.get());
    if (d_active_flags_.size() != 0) {
      d_active_flags_.zero(e.stream_.get());
      if (!seeds.empty()) {
        gpu::kernels::mark_queued_kernel<VertexId><<<gpu::grid_for(seeds.size(), e.max_blocks_), gpu::kernels::kBlock,
                                                     0, e.stream_.get()>>>(d_active_vertices_.data(), seeds.size(),
                                                                           d_active_flags_.data());
        MEDUSA_CUDA_CHECK_LAUNCH("mark_queued_kernel");
      }
    }
    e.stream_.sync();  // `seeds` is about to go away
  }

  // The end of a queued superstep: the next frontier's flags and queue become the current ones.
  void swap_queued_frontiers() {
    std::swap(d_active_flags_, d_next_active_vertex_);
    std::swap(d_active_vertices_, d_next_queue_);
  }

  unsigned compact_grid(std::uint64_t flags) const {  // a thread per kCompactPerThread flags
    return gpu::grid_for((flags + gpu::kernels::kCompactPerThread - 1) / gpu::kernels::kCompactPerThread,
                         self().max_blocks_);
  }
  // SetActive flags of this superstep -> the queues the next superstep's Domain::Active reads.
  void promote_frontiers(cudaStream_t s) {
    Engine& e = self();
    gpu::StepCounters* c = e.d_counters_.data();
    // A batch that ended mid-superstep: SetActive() counted what the compaction counts again.
    if (superstep_queued_)
      MEDUSA_CUDA_CHECK(cudaMemsetAsync(&c->next_active_vertices, 0, 2 * sizeof(unsigned long long), s));
    // Pending slots of a push still need its frontier's flags: the compaction writes the other copy.
    if (e.slots_ == SlotState::FrontierSources && e.pushed_sources_ == d_active_flags_.data())
      std::swap(d_active_flags_, d_pushed_flags_);
    if (Program::uses.vertex_frontier && e.priority_buckets()) {
      e.take_lowest_bucket(s);  // (its own compaction, and the lowest bucket queued)
    } else if (Program::uses.vertex_frontier && e.V_ != 0) {
      gpu::launch_kernel<gpu::kernels::compact_flags_kernel<VertexId>>(
          compact_grid(e.V_), gpu::kernels::kBlock, s, d_next_active_vertex_.data(), e.V_, d_active_vertices_.data(),
          &c->next_active_vertices, e.d_out_offsets_.data(), &c->next_active_vertex_edges, d_active_flags_.data(),
          gpu::kernels::CurrentFlags::Copied, e.batch_.device_halted());
      MEDUSA_CUDA_CHECK_LAUNCH("compact_flags_kernel (vertex frontier)");
    }
    if (Program::uses.edge_frontier && e.E_ != 0) {
      gpu::launch_kernel<gpu::kernels::compact_flags_kernel<EdgeIndex>>(
          compact_grid(e.E_), gpu::kernels::kBlock, s, d_next_active_edge_.data(), e.E_, d_active_edges_.data(),
          &c->next_active_edges, nullptr, nullptr, nullptr, gpu::kernels::CurrentFlags::Copied, nullptr);
      MEDUSA_CUDA_CHECK_LAUNCH("compact_flags_kernel (edge frontier)");
    }
  }

  // The frontiers' part of a launch's KernelCtx.
  void frontier_ctx(KernelCtx<typename Program::Message>& c) const {
    c.next_active_vertex = d_next_active_vertex_.data();
    c.next_active_edge = d_next_active_edge_.data();
    if (queues_next_frontier()) {
      c.next_active_queue = d_next_queue_.data();
      c.next_active_counts = &self().d_counters_.data()->next_active_vertices;  // (then next_active_vertex_edges)
    }
  }

  gpu::DeviceBuffer<std::uint8_t> d_next_active_vertex_;
  gpu::DeviceBuffer<VertexId> d_active_vertices_;
  // In a batch, SetActive() queues the next frontier here (queued_frontier_, superstep_queued_).
  gpu::DeviceBuffer<VertexId> d_next_queue_;
  bool queued_frontier_ = false, superstep_queued_ = false;
  // On a partition of k in a queued superstep: the replicas' flags as the exchange copies them (the
  // owned vertices' bytes are unused).
  gpu::DeviceBuffer<std::uint8_t> d_replica_flags_;
  std::uint32_t queued_swaps_ = 0;  // swap_queued_frontiers() calls since the batch started
  gpu::QueueExpansion expansion_;   // degree scan of d_active_vertices_
  gpu::DeviceBuffer<std::uint8_t> d_active_flags_;  // the same frontier as flags (pull fusion)
  gpu::DeviceBuffer<std::uint8_t> d_pushed_flags_;  // a pushed frontier's, while its slots are pending
  bool active_scan_valid_ = false;
  std::uint64_t active_vertex_count_ = 0, active_vertex_edges_ = 0;
  gpu::DeviceBuffer<std::uint8_t> d_next_active_edge_;
  gpu::DeviceBuffer<EdgeIndex> d_active_edges_;
  std::uint64_t active_edge_count_ = 0;
};

}  // namespace medusa::gpu
