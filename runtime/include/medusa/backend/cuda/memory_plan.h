// How many device bytes a Session needs, computed before anything is allocated, so that a graph
// too large for the GPU fails with "needs N bytes, only M free" instead of a bare out-of-memory
// halfway through Init_Device_DS. Session allocates exactly the items listed here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace medusa::gpu {

// One device field array: its name and the bytes of one element.
struct FieldSize {
  std::string name;
  std::size_t bytes = 0;
};

// The sizes that determine a Session's device footprint.
struct GraphShape {
  std::uint64_t vertices = 0;
  std::uint64_t edges = 0;
  std::uint32_t messages_per_edge = 1;  // m
  std::size_t message_bytes = 0;        // sizeof(Message)
  std::vector<FieldSize> vertex_fields;  // the device vertex fields (one array each)
  std::vector<FieldSize> edge_fields;    // the same for edge fields
  bool vertex_frontier = false;
  bool edge_frontier = false;
  bool received = false;
  std::size_t temp_bytes = 0;  // CUB temporary storage (segmented reduce)
  bool partitioned = false;    // one partition of a multi-GPU run: global ID and degree maps
  bool pull_fusion = false;    // in-edge sources and positions for the pull-fused Combiner
  bool neighbor_rows = false;  // partitioned neighbour sets: each local vertex's whole out-row
  std::uint64_t neighbor_row_entries = 0;  // (their global IDs)
  std::uint64_t combiner_bin_bytes = 0;  // the Combiner's degree lists, heavy chunks and partials
  std::uint64_t queue_scan_bytes = 0; // degree scan of the vertex queue and its CUB storage
  bool frontier_flags = false;        // the vertex frontier as flags too, twice (pulls, pushes)
  bool receiver_queues = false;       // two queues of the vertices a batched push reached, spare combined
  bool queued_frontier = false;       // a second vertex queue: SetActive() in batched supersteps
                                      // (partitioned: and the replicas' flags as the exchange copies them)
  bool priority_slots = false;        // SetActive(priority): priorities given and waiting, the near-far piles
  std::uint64_t column_edge_bytes = 0;  // the column slots of Layout::ColumnMajor / Hybrid
  std::uint64_t owned_row_bytes = 0;    // partitioned in-edge programs: the owned vertices' whole out-rows
};

// One device allocation, named as the reports show it.
struct MemoryItem {
  std::string name;
  std::uint64_t bytes;  // saturates at UINT64_MAX instead of wrapping
};

struct MemoryPlan {
  std::vector<MemoryItem> items;  // every allocation counted in total(), one item each
  std::uint64_t total() const;
  // One line per non-empty item, largest first; with max_items, the largest max_items and a line
  // for the rest.
  std::string describe(std::size_t max_items = SIZE_MAX) const;
};

MemoryPlan plan_memory(const GraphShape& shape);

// "graph needs N bytes (...) on <device>, only M free (V vertices, E edges, m=...)" plus the
// largest items (kShortfallItems of them) and what to do.
inline constexpr std::size_t kShortfallItems = 8;
std::string memory_shortfall_message(const MemoryPlan& plan, const GraphShape& shape,
                                     std::uint64_t free_bytes, const std::string& device_name);

// Throws medusa::Error with memory_shortfall_message when plan.total() > free_bytes.
void require_fits(const MemoryPlan& plan, const GraphShape& shape, std::uint64_t free_bytes,
                  const std::string& device_name);

// "1.50 GiB" style, for messages.
std::string human_bytes(std::uint64_t bytes);

}  // namespace medusa::gpu
