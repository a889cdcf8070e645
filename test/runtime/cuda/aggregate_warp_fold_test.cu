// detail::aggregate_add on the device (medusa/aggregate.h): the lanes of a warp fold their values
// first (warp-reduce instructions, shuffles) and one lane folds the warp's total into the block's
// shared slot; the kernel's end folds each block's slot into the GPU's, or, for an operator without
// a hardware atomic, into the block's sub-slot (spread), folded after (block_aggregates.cuh).
// Many threads add at once, with whole warps, partial warps and lanes that skip the add, under
// every kind of operator; the slots must equal the host's fold.
#include <medusa/aggregate.h>
#include <medusa/backend/cuda/block_aggregates.cuh>

#include <catch2/catch.hpp>

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace {

struct AbsMax {
  MEDUSA_HD float operator()(const float& a, const float& b) const { return fabsf(a) < fabsf(b) ? b : a; }
};

using medusa::detail::AggregateOp;
using SumInt = AggregateOp<int, medusa::MEDUSA_SUM>;
using MinInt = AggregateOp<int, medusa::MEDUSA_MIN>;
using OrUnsigned = AggregateOp<unsigned int, medusa::MEDUSA_BIT_OR>;
using MaxLong = AggregateOp<long long, medusa::MEDUSA_MAX>;
using SumDouble = AggregateOp<double, medusa::MEDUSA_SUM>;

std::int32_t value_of(std::uint32_t i) { return static_cast<std::int32_t>((i * 2654435761u) % 20011u) - 10000; }
// Thread i adds when this holds: lanes of a warp diverge, and some warps add with few lanes.
MEDUSA_HD bool adds(std::uint32_t i) { return i % 3 != 1 && (i / 32) % 5 != 4 ? true : i % 11 == 0; }

// What an element functor that adds to these six would declare.
struct AddsAll {
  using medusa_aggregates_added =
      medusa::AddedAggregates<medusa::AggregateRef<int, SumInt, 0>, medusa::AggregateRef<int, MinInt, 1>,
                              medusa::AggregateRef<unsigned int, OrUnsigned, 2>,
                              medusa::AggregateRef<long long, MaxLong, 3>, medusa::AggregateRef<double, SumDouble, 4>,
                              medusa::AggregateRef<float, AbsMax, 5>>;
};

__device__ void add_all(const std::int32_t* values, std::uint32_t i) {
  const std::int32_t x = values[i];
  medusa::detail::aggregate_add<int, SumInt>(0, x);
  medusa::detail::aggregate_add<int, MinInt>(1, x);
  medusa::detail::aggregate_add<unsigned int, OrUnsigned>(2, 1u << (static_cast<std::uint32_t>(x) % 32u));
  medusa::detail::aggregate_add<long long, MaxLong>(3, static_cast<long long>(x) * 1000003LL);
  medusa::detail::aggregate_add<double, SumDouble>(4, x * 0.5);
  medusa::detail::aggregate_add<float, AbsMax>(5, static_cast<float>(x));
}

// A grid-stride loop, as the runtime's kernels: the adds sit in divergent code.
__global__ void add_kernel(const std::int32_t* values, std::uint32_t n) {
  medusa::gpu::open_block_aggregates<AddsAll>();
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    if (adds(i)) add_all(values, i);
  medusa::gpu::close_block_aggregates<AddsAll>();
}

}  // namespace

TEST_CASE("Aggregates on the device: warps fold into the block's slot, one global atomic per block", "[cuda][gpu]") {
  using medusa::detail::from_bits;
  using medusa::detail::to_bits;
  const std::uint32_t n = 1000003;  // (not a multiple of 32: the last warp is partial)
  std::vector<std::int32_t> values(n);
  for (std::uint32_t i = 0; i < n; ++i) values[i] = value_of(i);

  medusa::detail::AggregateCells cells{};
  cells.acc[0] = to_bits(0);
  cells.acc[1] = to_bits(2147483647);
  cells.acc[2] = to_bits(0u);
  cells.acc[3] = to_bits(-9223372036854775807LL);
  cells.acc[4] = to_bits(0.0);
  cells.acc[5] = to_bits(0.0f);
  std::copy(cells.acc, cells.acc + medusa::detail::kMaxAggregates, cells.identity);
  long long sum = 0, max = -9223372036854775807LL;
  int min = 2147483647;
  unsigned int bits = 0;
  double half_sum = 0.0;
  float widest = 0.0f;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (!adds(i)) continue;
    const std::int32_t x = values[i];
    sum += x, min = std::min(min, x), bits |= 1u << (static_cast<std::uint32_t>(x) % 32u);
    max = std::max(max, static_cast<long long>(x) * 1000003LL), half_sum += x * 0.5;
    widest = AbsMax{}(widest, static_cast<float>(x));
  }

  std::int32_t* d_values = nullptr;
  REQUIRE(cudaMalloc(&d_values, n * sizeof(std::int32_t)) == cudaSuccess);
  REQUIRE(cudaMemcpy(d_values, values.data(), n * sizeof(std::int32_t), cudaMemcpyHostToDevice) == cudaSuccess);
  medusa::detail::reset_spread(cells);
  REQUIRE(cudaMemcpyToSymbol(medusa::detail::d_aggregate_cells, &cells, sizeof cells) == cudaSuccess);
  // Twice: a thread per value, then 97 blocks that loop (every block adds many times).
  add_kernel<<<(n + 255) / 256, 256>>>(d_values, n);
  add_kernel<<<97, 256>>>(d_values, n);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  REQUIRE(cudaMemcpyFromSymbol(&cells, medusa::detail::d_aggregate_cells, sizeof cells) == cudaSuccess);
  cudaFree(d_values);

  CHECK(from_bits<int>(cells.acc[0]) == static_cast<int>(2 * sum));
  CHECK(from_bits<int>(cells.acc[1]) == min);
  CHECK(from_bits<unsigned int>(cells.acc[2]) == bits);
  CHECK(from_bits<long long>(cells.acc[3]) == max);
  CHECK(from_bits<double>(cells.acc[4]) == 2 * half_sum);  // (halves of integers: exact in any order)
  CHECK(from_bits<float>(cells.acc[5]) == 0.0f);  // (AbsMax has no hardware atomic: only sub-slots)
  float spread_fold = from_bits<float>(cells.acc[5]);
  for (const std::uint64_t sub : cells.spread[5]) spread_fold = AbsMax{}(spread_fold, from_bits<float>(sub));
  CHECK(std::fabs(spread_fold) == std::fabs(widest));
  for (const std::uint64_t sub : cells.spread[0]) CHECK(from_bits<int>(sub) == 0);  // (hardware atomics: acc)
}
