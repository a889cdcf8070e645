// Device memory footprint of a Session and the too-large error.
#include <medusa/backend/cuda/memory_plan.h>

#include <medusa/error.h>

#include <algorithm>
#include <cstdio>
#include <limits>

namespace medusa::gpu {
namespace {

constexpr std::uint64_t kSaturated = std::numeric_limits<std::uint64_t>::max();

std::uint64_t mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r = 0;
  return __builtin_mul_overflow(a, b, &r) ? kSaturated : r;
}
std::uint64_t add(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r = 0;
  return __builtin_add_overflow(a, b, &r) ? kSaturated : r;
}

}  // namespace

std::uint64_t MemoryPlan::total() const {
  std::uint64_t t = 0;
  for (const MemoryItem& i : items) t = add(t, i.bytes);
  return t;
}

std::string human_bytes(std::uint64_t bytes) {
  if (bytes == kSaturated) return "more than 16 EiB";
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024.0 && u < 6) {
    v /= 1024.0;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.2f %s", v, units[u]);
  return buf;
}

std::string MemoryPlan::describe() const {
  std::vector<MemoryItem> sorted = items;
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const MemoryItem& a, const MemoryItem& b) { return a.bytes > b.bytes; });
  std::string s;
  for (const MemoryItem& i : sorted) {
    if (i.bytes == 0) continue;
    s += "  " + i.name + ": " + human_bytes(i.bytes) + "\n";
  }
  return s;
}

MemoryPlan plan_memory(const GraphShape& g) {
  const std::uint64_t V = g.vertices, E = g.edges, m = g.messages_per_edge;
  const std::uint64_t offsets = mul(add(V, 1), sizeof(std::uint64_t));
  MemoryPlan p;
  p.items.push_back({"out_offsets", offsets});
  p.items.push_back({"out_dst", mul(E, sizeof(std::uint32_t))});
  p.items.push_back({"edge_src", mul(E, sizeof(std::uint32_t))});
  p.items.push_back({"rid", mul(E, sizeof(std::uint64_t))});
  p.items.push_back({"in_offsets", offsets});
  p.items.push_back({"vertex fields", mul(V, g.vertex_field_bytes)});
  p.items.push_back({"edge fields", mul(E, g.edge_field_bytes)});
  p.items.push_back({"message buffer (E*m slots)", mul(mul(E, m), g.message_bytes)});
  if (m > 1) {
    p.items.push_back({"send counts (m > 1)", mul(E, sizeof(std::uint32_t))});
    p.items.push_back({"message segment offsets (m > 1)", offsets});
  }
  p.items.push_back({"combined messages", mul(V, g.message_bytes)});
  if (g.vertex_frontier)
    p.items.push_back({"vertex frontier (flags + queue)", mul(V, 1 + sizeof(std::uint32_t))});
  if (g.edge_frontier)
    p.items.push_back({"edge frontier (flags + queue)", mul(E, 1 + sizeof(std::uint64_t))});
  if (g.received) p.items.push_back({"received flags", V});
  if (g.partitioned)
    p.items.push_back({"partition maps (global IDs, global degrees)", mul(V, 3 * sizeof(std::uint32_t))});
  if (g.pull_fusion)
    p.items.push_back({"in-edge sources and positions, out-degrees, source messages (pull fusion)",
                       add(mul(E, 2 * sizeof(std::uint32_t)), mul(V, sizeof(std::uint32_t) + g.message_bytes))});
  p.items.push_back({"frontier degree scan (edge-balanced ELIST)", g.queue_scan_bytes});
  if (g.frontier_flags)
    p.items.push_back({"frontier flags, two copies (pulled and pushed frontiers)", mul(V, 2)});
  if (g.receiver_queues)
    p.items.push_back({"receiver queues, two, and spare combined values and flags (pushes in batches of supersteps)",
                       add(mul(V, 2 * sizeof(std::uint32_t) + g.message_bytes), mul(add(V, 3) / 4, 4))});
  if (g.queued_frontier)
    p.items.push_back({"next frontier queue (SetActive in batches of supersteps)", mul(V, sizeof(std::uint32_t))});
  p.items.push_back({"column-major out-edges (layout)", g.column_edge_bytes});
  p.items.push_back({"Combiner degree bins", g.combiner_bin_bytes});
  p.items.push_back({"step counters", 64});
  p.items.push_back({"CUB temporary storage", g.temp_bytes});
  return p;
}

std::string memory_shortfall_message(const MemoryPlan& plan, const GraphShape& g,
                                     std::uint64_t free_bytes, const std::string& device_name) {
  const std::uint64_t need = plan.total();
  std::string s = "graph needs " + std::to_string(need) + " bytes (" + human_bytes(need) +
                  ") on " + device_name + ", only " + std::to_string(free_bytes) + " (" +
                  human_bytes(free_bytes) + ") free (" + std::to_string(g.vertices) +
                  " vertices, " + std::to_string(g.edges) + " edges, m=" +
                  std::to_string(g.messages_per_edge) + ", " + std::to_string(g.message_bytes) +
                  "-byte messages). Largest items:\n" + plan.describe() +
                  "Use a GPU with more memory, several GPUs (Config::gpuCount), a smaller "
                  "Config::messagesPerEdge, or fewer device fields.";
  return s;
}

void require_fits(const MemoryPlan& plan, const GraphShape& shape, std::uint64_t free_bytes,
                  const std::string& device_name) {
  if (plan.total() > free_bytes)
    MEDUSA_THROW(memory_shortfall_message(plan, shape, free_bytes, device_name));
}

}  // namespace medusa::gpu
