// Global aggregates on the CUDA backend: each GPU has its own __device__ slots
// (detail::d_aggregate_cells), written before a superstep and read after it on the engine's stream.
#pragma once

#include <medusa/aggregate.h>
#include <medusa/backend/cuda/check.h>

#include <cuda_runtime.h>

namespace medusa::gpu {

template <class Program>
class PartitionEngine;

template <class Program>
void upload_aggregates(PartitionEngine<Program>& e, const medusa::detail::AggregateCells& cells) {
  MEDUSA_CUDA_CHECK(cudaSetDevice(e.device_ordinal()));
  MEDUSA_CUDA_CHECK(cudaMemcpyToSymbolAsync(medusa::detail::d_aggregate_cells, &cells, sizeof(cells), 0,
                                            cudaMemcpyHostToDevice, e.stream()));
}

template <class Program>
void download_aggregates(PartitionEngine<Program>& e, medusa::detail::AggregateCells& out) {
  MEDUSA_CUDA_CHECK(cudaSetDevice(e.device_ordinal()));
  MEDUSA_CUDA_CHECK(cudaMemcpyFromSymbolAsync(&out, medusa::detail::d_aggregate_cells, sizeof(out), 0,
                                              cudaMemcpyDeviceToHost, e.stream()));
  MEDUSA_CUDA_CHECK(cudaStreamSynchronize(e.stream()));
}

}  // namespace medusa::gpu
