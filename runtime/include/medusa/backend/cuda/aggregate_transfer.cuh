// Global aggregates on the CUDA backend: each GPU has its own __device__ slots
// (detail::d_aggregate_cells), written before a superstep and read after it on the engine's stream.
// The read is queued with the superstep's counters (request_aggregates, before collect()'s stream
// sync) into pinned memory, so it costs no sync of its own. Partitions that share a GPU
// (partitionsPerGpu > 1) share its slots: the first of them to read takes the whole fold and
// leaves the identities, as on the host, with syncs of their own.
#pragma once

#include <medusa/aggregate.h>
#include <medusa/backend/cuda/check.h>

#include <cuda_runtime.h>

#include <array>

namespace medusa::gpu {

template <class Program>
class PartitionEngine;

// One pinned landing buffer per GPU ordinal, allocated on first use and kept for the process.
inline medusa::detail::AggregateCells* aggregate_landing(int ordinal) {
  static std::array<medusa::detail::AggregateCells*, 64> buffers{};
  auto& b = buffers.at(static_cast<std::size_t>(ordinal));
  if (b == nullptr) MEDUSA_CUDA_CHECK(cudaMallocHost(reinterpret_cast<void**>(&b), sizeof(*b)));
  return b;
}

// acc[i] folded with every sub-slot of aggregate i (aggregate.h: kAggregateSpread).
template <class Program>
void fold_spread(medusa::detail::AggregateCells& cells) {
  const auto& entries = medusa::detail::aggregate_registry<Program>();
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (entries[i].object != nullptr)
      for (const std::uint64_t sub : cells.spread[i]) cells.acc[i] = entries[i].fold(cells.acc[i], sub);
}

template <class Program>
void upload_aggregates(PartitionEngine<Program>& e, const medusa::detail::AggregateCells& cells, bool shared_gpu) {
  MEDUSA_CUDA_CHECK(cudaSetDevice(e.device_ordinal()));
  medusa::detail::AggregateCells staged = cells;  // (pageable: the copy takes it before returning)
  medusa::detail::reset_spread(staged);
  MEDUSA_CUDA_CHECK(cudaMemcpyToSymbolAsync(medusa::detail::d_aggregate_cells, &staged, sizeof(staged), 0,
                                            cudaMemcpyHostToDevice, e.stream()));
  if (shared_gpu) MEDUSA_CUDA_CHECK(cudaStreamSynchronize(e.stream()));  // (before any partition adds)
}

// After the superstep's launches and before collect(), which waits for the stream.
template <class Program>
void request_aggregates(PartitionEngine<Program>& e, bool shared_gpu) {
  if (shared_gpu) return;  // (read once every partition on the GPU has ended: download_aggregates)
  MEDUSA_CUDA_CHECK(cudaSetDevice(e.device_ordinal()));
  MEDUSA_CUDA_CHECK(cudaMemcpyFromSymbolAsync(aggregate_landing(e.device_ordinal()), medusa::detail::d_aggregate_cells,
                                              sizeof(medusa::detail::AggregateCells), 0, cudaMemcpyDeviceToHost,
                                              e.stream()));
}

// After collect(): the slots request_aggregates queued.
template <class Program>
void download_aggregates(PartitionEngine<Program>& e, medusa::detail::AggregateCells& out, bool shared_gpu) {
  if (!shared_gpu) {
    out = *aggregate_landing(e.device_ordinal());
    fold_spread<Program>(out);
    return;
  }
  MEDUSA_CUDA_CHECK(cudaSetDevice(e.device_ordinal()));
  MEDUSA_CUDA_CHECK(cudaMemcpyFromSymbolAsync(&out, medusa::detail::d_aggregate_cells, sizeof(out), 0,
                                              cudaMemcpyDeviceToHost, e.stream()));
  MEDUSA_CUDA_CHECK(cudaStreamSynchronize(e.stream()));
  medusa::detail::AggregateCells rest = out;  // the next partition on this GPU reads the identities
  fold_spread<Program>(out);
  const auto& entries = medusa::detail::aggregate_registry<Program>();
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (entries[i].object != nullptr) rest.acc[i] = entries[i].identity(entries[i].object);
  medusa::detail::reset_spread(rest);
  MEDUSA_CUDA_CHECK(cudaMemcpyToSymbolAsync(medusa::detail::d_aggregate_cells, &rest, sizeof(rest), 0,
                                            cudaMemcpyHostToDevice, e.stream()));
  MEDUSA_CUDA_CHECK(cudaStreamSynchronize(e.stream()));
}

}  // namespace medusa::gpu
