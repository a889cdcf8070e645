// The too-large message's "Largest items": the allocations that make up the total, one per line
// with its own name, largest first (host-side; no GPU needed).
#include <medusa/backend/cuda/memory_plan.h>
#include <medusa/error.h>

#include <catch2/catch.hpp>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

using namespace medusa;

namespace {

// BFS-Q-like shape at Kronecker scale 22: the edge arrays are the bulk of the footprint.
gpu::GraphShape scale22() {
  gpu::GraphShape g;
  g.vertices = 1ull << 22;
  g.edges = 1ull << 27;
  g.message_bytes = 4;
  g.vertex_fields = {{"level", 4}, {"updated", 1}};
  g.edge_fields = {{"length", 4}};
  g.vertex_frontier = g.received = g.pull_fusion = g.frontier_flags = true;
  g.receiver_queues = g.queued_frontier = true;
  return g;
}

struct Line {
  std::string name;
  std::string size;
};

// The item lines after "Largest items:", up to the advice.
std::vector<Line> largest_items(const std::string& message) {
  std::istringstream in(message.substr(message.find("Largest items:\n") + 15));
  std::vector<Line> lines;
  for (std::string l; std::getline(in, l) && l.rfind("  ", 0) == 0;) {
    const auto colon = l.rfind(": ");
    lines.push_back({l.substr(2, colon - 2), l.substr(colon + 2)});
  }
  return lines;
}

std::uint64_t bytes_of(const gpu::MemoryPlan& plan, const std::string& name) {
  for (const gpu::MemoryItem& i : plan.items)
    if (i.name == name) return i.bytes;
  FAIL("no item " << name);
  return 0;
}

}  // namespace

TEST_CASE("the too-large message lists the largest allocations, each by its own name", "[cuda][runtime]") {
  const gpu::GraphShape g = scale22();
  const gpu::MemoryPlan plan = gpu::plan_memory(g);
  const std::string m = gpu::memory_shortfall_message(plan, g, 497ull << 20, "H100");
  INFO(m);
  const std::vector<Line> lines = largest_items(m);
  REQUIRE(lines.size() == gpu::kShortfallItems + 1);  // the largest, then one line for the rest
  // The 1 GiB reverse-CSR rIDs lead; then the 512 MiB edge arrays (CSR, message slots, the edge
  // field, pull fusion's in-edge arrays), not a merge of arrays of different sizes.
  CHECK(lines[0].name == "reverse CSR rid");
  CHECK(lines[0].size == "1.00 GiB");
  for (std::size_t k = 1; k <= 6; ++k) CHECK(lines[k].size == "512.00 MiB");
  const std::string listed = m.substr(m.find("Largest items:"));
  for (const char* name : {"CSR out_dst", "CSR edge_src", "message buffer (E*m slots)", "edge field length",
                           "pull fusion in-edge sources", "pull fusion in-edge positions"})
    CHECK(listed.find(std::string("  ") + name + ": 512.00 MiB") != std::string::npos);
  CHECK(lines[7].size == "32.00 MiB");  // a CSR offsets array
  // Everything else, in one line that still accounts for it.
  std::size_t non_empty = 0;
  for (const gpu::MemoryItem& i : plan.items) non_empty += i.bytes != 0;
  const std::uint64_t rest = plan.total() - (1ull << 30) - 6 * (512ull << 20) - (g.vertices + 1) * 8;
  CHECK(lines.back().name == "(" + std::to_string(non_empty - gpu::kShortfallItems) + " smaller items");
  CHECK(lines.back().size == gpu::human_bytes(rest) + ")");
}

TEST_CASE("every allocation is one plan item: fields, frontiers, pull fusion, receiver queues",
          "[cuda][runtime]") {
  const gpu::GraphShape g = scale22();
  const gpu::MemoryPlan plan = gpu::plan_memory(g);
  const std::uint64_t V = g.vertices;
  CHECK(bytes_of(plan, "vertex field level") == V * 4);
  CHECK(bytes_of(plan, "vertex field updated") == V);
  CHECK(bytes_of(plan, "vertex frontier queue") == V * 4);
  CHECK(bytes_of(plan, "pull fusion out-degrees") == V * 4);
  CHECK(bytes_of(plan, "receiver queue 2 (pushes in batches of supersteps)") == V * 4);
  // The full list (the verbose report) is sorted too and names every non-empty item.
  const std::string all = plan.describe();
  std::size_t lines = 0, empty = 0;
  for (const gpu::MemoryItem& i : plan.items) empty += i.bytes == 0;
  for (char c : all) lines += c == '\n';
  CHECK(lines == plan.items.size() - empty);
  CHECK(all.find("smaller items") == std::string::npos);
}
