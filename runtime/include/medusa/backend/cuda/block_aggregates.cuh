// Global aggregates reduced per block inside the launch that adds to them (medusa/aggregate.h):
// add() folds each warp's total into the block's shared slot (detail::s_block_aggregates); every
// kernel that may run an element functor brackets its work with
//
//   await_previous_kernel();
//   medusa::detail::bind_step_state(c.step_state);
//   if (stopped) return;                                  // (block-uniform returns only, before open)
//   open_block_aggregates<Element, ...>();              // the slots at their identities, one barrier
//   ... the grid-stride loop, functors in divergent code ...
//   close_block_aggregates<Element, ...>();             // one barrier, one global fold per slot
//
// with no return between the two (test/runtime/cuda/step_state_contract.py checks both). For
// elements that add to no aggregate (medusa_aggregates_added absent) both are empty: PageRank's and
// BFS's kernels are unchanged.
#pragma once

#include <medusa/aggregate.h>

#include <cstdint>

namespace medusa::gpu {

namespace detail {

// Folds the block's slot of Ref into the GPU's: the aggregate's acc with a hardware atomic, else
// the block's sub-slot (kAggregateSpread), so that blocks ending at once do not retry on one word.
// A slot still at its identity folds nothing.
template <class Ref>
__device__ __forceinline__ void flush_block_aggregate() {
  using T = typename Ref::value_type;
  using Op = typename Ref::op_type;
  constexpr int i = Ref::index;
  auto& cells = medusa::detail::aggregate_cells();
  const std::uint64_t bits = medusa::detail::s_block_aggregates[i];
  if (bits == cells.identity[i]) return;
  std::uint64_t* slot = &cells.acc[i];
  if constexpr (!medusa::detail::has_hardware_atomic<T, Op>)
    slot = &cells.spread[i][blockIdx.x % medusa::detail::kAggregateSpread];
  medusa::detail::atomic_fold(slot, medusa::detail::from_bits<T>(bits), Op{});
}

template <class List>
struct BlockAggregates;
template <class... Refs>
struct BlockAggregates<AddedAggregates<Refs...>> {
  __device__ __forceinline__ static void open() {
    if constexpr (sizeof...(Refs) != 0) {
      int k = 0;
      ((threadIdx.x == k++ ? (void)(medusa::detail::s_block_aggregates[Refs::index] =
                                        medusa::detail::aggregate_cells().identity[Refs::index])
                           : void()),
       ...);
      __syncthreads();
    }
  }
  // Thread k folds the k-th aggregate's slot, after every warp of the block has added.
  __device__ __forceinline__ static void close() {
    if constexpr (sizeof...(Refs) != 0) {
      __syncthreads();
      int k = 0;
      ((threadIdx.x == k++ ? flush_block_aggregate<Refs>() : void()), ...);
    }
  }
};

}  // namespace detail

// The start and the end of a kernel's work over the elements of Elements (element functors, a
// gather's source and vertex step, ...): every thread of the block calls both, converged.
template <class... Elements>
__device__ __forceinline__ void open_block_aggregates() {
  detail::BlockAggregates<medusa::detail::aggregates_added_by<Elements...>>::open();
}
template <class... Elements>
__device__ __forceinline__ void close_block_aggregates() {
  detail::BlockAggregates<medusa::detail::aggregates_added_by<Elements...>>::close();
}

}  // namespace medusa::gpu
