// Device memory footprint of a Session and the too-large error.
#include <medusa/backend/cuda/memory_plan.h>

#include <medusa/error.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <utility>

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

std::string MemoryPlan::describe(std::size_t max_items) const {
  std::vector<MemoryItem> sorted;
  for (const MemoryItem& i : items)
    if (i.bytes != 0) sorted.push_back(i);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const MemoryItem& a, const MemoryItem& b) { return a.bytes > b.bytes; });
  std::string s;
  std::uint64_t rest = 0;
  for (std::size_t k = 0; k < sorted.size(); ++k) {
    if (k < max_items) s += "  " + sorted[k].name + ": " + human_bytes(sorted[k].bytes) + "\n";
    else rest = add(rest, sorted[k].bytes);
  }
  if (sorted.size() > max_items)
    s += "  (" + std::to_string(sorted.size() - max_items) + " smaller items: " + human_bytes(rest) + ")\n";
  return s;
}

MemoryPlan plan_memory(const GraphShape& g) {
  const std::uint64_t V = g.vertices, E = g.edges, m = g.messages_per_edge;
  const std::uint64_t offsets = mul(add(V, 1), sizeof(std::uint64_t));
  const std::uint64_t vertex_ids = mul(V, sizeof(std::uint32_t));
  MemoryPlan p;
  auto item = [&p](std::string name, std::uint64_t bytes) { p.items.push_back({std::move(name), bytes}); };
  item("CSR out_offsets", offsets);
  item("CSR out_dst", mul(E, sizeof(std::uint32_t)));
  item("CSR edge_src", mul(E, sizeof(std::uint32_t)));
  item("reverse CSR rid", mul(E, sizeof(std::uint64_t)));
  item("reverse CSR in_offsets", offsets);
  for (const FieldSize& f : g.vertex_fields) item("vertex field " + f.name, mul(V, f.bytes));
  for (const FieldSize& f : g.edge_fields) item("edge field " + f.name, mul(E, f.bytes));
  item("message buffer (E*m slots)", mul(mul(E, m), g.message_bytes));
  if (m > 1) {
    item("send counts (m > 1)", mul(E, sizeof(std::uint32_t)));
    item("message segment offsets (m > 1)", offsets);
  }
  item("combined messages", mul(V, g.message_bytes));
  if (g.vertex_frontier) {
    item("vertex frontier flags", V);
    item("vertex frontier queue", vertex_ids);
  }
  if (g.edge_frontier) {
    item("edge frontier flags", E);
    item("edge frontier queue", mul(E, sizeof(std::uint64_t)));
  }
  if (g.received) item("received flags", V);
  if (g.partitioned) {
    item("partition global IDs", vertex_ids);
    item("partition global out-degrees", vertex_ids);
    item("partition global in-degrees", vertex_ids);
  }
  if (g.neighbor_rows) {
    item("neighbour rows offsets (neighbour sets on partitions)", offsets);
    item("neighbour rows (neighbour sets on partitions)", mul(g.neighbor_row_entries, sizeof(std::uint32_t)));
  }
  item("owned vertices' whole out-rows (in-edge pull)", g.owned_row_bytes);
  if (g.pull_fusion) {
    item("pull fusion in-edge sources", mul(E, sizeof(std::uint32_t)));
    item("pull fusion in-edge positions", mul(E, sizeof(std::uint32_t)));
    item("pull fusion out-degrees", vertex_ids);
    item("pull fusion source messages", mul(V, g.message_bytes));
  }
  item("frontier degree scan (edge-balanced ELIST)", g.queue_scan_bytes);
  if (g.frontier_flags) {
    item("pulled frontier flags", V);
    item("pushed frontier flags", V);
  }
  if (g.receiver_queues) {
    item("receiver queue 1 (pushes in batches of supersteps)", vertex_ids);
    item("receiver queue 2 (pushes in batches of supersteps)", vertex_ids);
    item("spare combined messages (pushes in batches of supersteps)", mul(V, g.message_bytes));
    item("spare received flags (pushes in batches of supersteps)", mul(add(V, 3) / 4, 4));
  }
  if (g.queued_frontier) item("next frontier queue (SetActive in batches of supersteps)", vertex_ids);
  if (g.queued_frontier && g.partitioned)
    item("replicas' frontier flags from the exchange (queued frontiers on partitions)", mul(add(V, 3) / 4, 4));
  if (g.priority_slots) {
    item("priorities given in a superstep (SetActive(priority))", mul(V, sizeof(std::uint64_t)));
    item("priorities of waiting vertices (priority buckets)", mul(V, sizeof(std::uint64_t)));
    item("vertices activated in a superstep (priority buckets)", vertex_ids);
    item("far pile 1 (priority buckets)", vertex_ids);
    item("far pile 2 (priority buckets)", vertex_ids);
    item("far pile entries (priority buckets)", V);
  }
  item("column-major out-edges (layout)", g.column_edge_bytes);
  item("Combiner degree bins", g.combiner_bin_bytes);
  item("step counters", 64);
  item("CUB temporary storage", g.temp_bytes);
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
                  "-byte messages). Largest items:\n" + plan.describe(kShortfallItems) +
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
