// What the parts of a CUDA PartitionEngine (partition_engine.cuh, engine/*.cuh) share: its device,
// stream, sizes and step counters (EngineCore), one launch's state for the executors, grids.
#pragma once

#include <medusa/backend/common/partition_view.h>
#include <medusa/backend/cuda/admission.h>
#include <medusa/backend/cuda/buffer.h>
#include <medusa/backend/cuda/check.h>
#include <medusa/backend/cuda/device.h>
#include <medusa/backend/cuda/kernels.cuh>
#include <medusa/backend/cuda/memory_plan.h>
#include <medusa/config.h>
#include <medusa/device_api.h>
#include <medusa/error.h>
#include <medusa/types.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

namespace medusa::gpu {

// Written on the device during a superstep, read back once at its end.
struct StepCounters {
  int votes[kVoteSlots];
  int source_sent_fill;  // an active source's message equals the fill value (gather.cuh: SourceMessageSource)
  unsigned long long next_active_vertices;
  unsigned long long next_active_vertex_edges;  // sum of out-degrees of next_active_vertices
  unsigned long long next_active_edges;
  // SetActive(priority) (engine/priority_frontier.cuh): the next frontier's bucket, inverted (0:
  // none), and the vertices the buckets hold.
  unsigned long long lowest_bucket_inverted;
  unsigned long long bucketed_vertices;
  medusa::detail::StepState step_state;  // the functors' (KernelCtx::step_state): not cleared
};

// What the executors need for one launch besides ctx() and the field arrays.
struct LaunchState {
  cudaStream_t stream = nullptr;
  unsigned max_blocks = 1;  // grid cap for the grid-stride kernels
  const VertexId* active_vertices = nullptr;
  std::uint64_t active_vertex_count = 0;
  std::uint64_t active_vertex_edges = 0;
  const EdgeIndex* active_edges = nullptr;
  std::uint64_t active_edge_count = 0;
  const std::uint8_t* received = nullptr;
  // In a batch after a push that kept one: the receivers as a queue, its length on the device.
  const VertexId* receiver_queue = nullptr;
  const unsigned long long* device_receiver_count = nullptr;
  // In a batch (superstep_batch.cuh): the frontier's size on the device; active_vertex_count and
  // active_vertex_edges are then only bounds for the grids.
  const unsigned long long* device_vertex_count = nullptr;
};

inline unsigned grid_for(std::uint64_t n, unsigned max_blocks) {
  const std::uint64_t blocks = (n + gpu::kernels::kBlock - 1) / gpu::kernels::kBlock;
  return static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(blocks, max_blocks)));
}

// Makes `ordinal` the current device for the calls in its scope: engines of one run may sit on
// different GPUs, so every entry point that issues work selects its own.
class DeviceScope {
 public:
  explicit DeviceScope(int ordinal) {
    int current = -1;  // (asking is cheaper than setting: a batched superstep pays for every call)
    if (cudaGetDevice(&current) != cudaSuccess || current != ordinal) MEDUSA_CUDA_CHECK(cudaSetDevice(ordinal));
  }
};

// The state every part of the engine reads: the first base of PartitionEngine, so that the GPU is
// selected and the stream made before any other part is constructed, and both outlive the rest.
class EngineCore {
 protected:
  EngineCore(const common::PartitionView& view, const Config& conf, std::uint32_t slot)
      : conf_(conf), index_(view.index), owned_count_(view.owned_count),
        combine_count_(view.combine_count), device_(checked_device(conf, slot)),
        stream_(conf.gpuCount > 1 && conf.partitionsPerGpu > 1, device_.ordinal) {}

  // Validates the configuration, then picks the GPU (before the stream member is created on it).
  static gpu::DeviceInfo checked_device(const Config& conf, std::uint32_t slot) {
    MEDUSA_REQUIRE(conf.partitionsPerGpu >= 1, "Config::partitionsPerGpu must be at least 1");
    const int gpus_needed = (conf.gpuCount + conf.partitionsPerGpu - 1) / conf.partitionsPerGpu;
    int visible = 0;
    if (cudaGetDeviceCount(&visible) == cudaSuccess && gpus_needed > visible && visible > 0)
      MEDUSA_THROW("gpuCount = " + std::to_string(conf.gpuCount) + " with partitionsPerGpu = " +
                   std::to_string(conf.partitionsPerGpu) + " needs " + std::to_string(gpus_needed) +
                   " GPUs but " + std::to_string(visible) +
                   " are visible (check CUDA_VISIBLE_DEVICES, or raise partitionsPerGpu)");
    return gpu::select_device(static_cast<int>(slot) / conf.partitionsPerGpu);
  }

  // This partition is the whole graph: a run of one partition (gpuCount is the run's partition count).
  bool whole_graph() const { return conf_.gpuCount == 1; }
  // The vote slots are the first member of the device StepCounters.
  int* votes_ptr() const { return reinterpret_cast<int*>(d_counters_.data()); }

  Config conf_;
  std::uint32_t index_ = 0;
  VertexId owned_count_ = 0;
  VertexId combine_count_ = 0;
  gpu::DeviceInfo device_;
  gpu::Admission admission_;  // (before the buffers: released after they are freed)
  gpu::MemoryPlan plan_;
  gpu::EngineStream stream_;
  std::uint64_t V_ = 0, E_ = 0;
  std::uint32_t m_ = 1;
  unsigned max_blocks_ = 1;
  std::uint32_t superstep_ = 0;
  std::uint64_t edges_visited_ = 0;
  gpu::DeviceBuffer<gpu::StepCounters> d_counters_;
  gpu::PinnedBuffer<gpu::StepCounters> h_counters_;
};

template <class Program>
class PartitionEngine;
// The executors (exec.cuh, included at the end of partition_engine.cuh).
template <ApiKind K, class Program, class Element>
void run_on_partition(PartitionEngine<Program>& s, Domain domain, const Element& element,
                      const common::LaunchRange& range);
template <class Program, class Element>
void run_elist_edges_on_partition(PartitionEngine<Program>& s, Domain domain, const Element& element,
                                  const common::LaunchRange& range);

}  // namespace medusa::gpu
