#include <medusa/backend/common/edge_layout.h>
#include <medusa/error.h>

#include <algorithm>
#include <string>

namespace medusa::common {
namespace {

constexpr std::uint32_t kMinAutoWidth = 4;

std::string percent(std::uint64_t part, std::uint64_t whole) {
  if (whole == 0) return "0%";
  return std::to_string((part * 100 + whole / 2) / whole) + "%";
}

// count[d] = vertices of out-degree >= d, for d in 0 .. max degree.
std::vector<std::uint64_t> vertices_with_degree_at_least(const std::vector<EdgeIndex>& out_offsets) {
  EdgeIndex max_degree = 0;
  for (std::size_t v = 0; v + 1 < out_offsets.size(); ++v)
    max_degree = std::max(max_degree, out_offsets[v + 1] - out_offsets[v]);
  std::vector<std::uint64_t> count(max_degree + 2, 0);
  for (std::size_t v = 0; v + 1 < out_offsets.size(); ++v) ++count[out_offsets[v + 1] - out_offsets[v]];
  for (std::size_t d = count.size() - 1; d-- > 0;) count[d] += count[d + 1];
  count.pop_back();
  return count;
}

// Edges in the first `width` out-edges of the vertices: sum of min(degree, width).
std::uint64_t edges_within(const std::vector<std::uint64_t>& at_least, std::uint32_t width) {
  std::uint64_t edges = 0;
  for (std::uint32_t d = 1; d <= width && d < at_least.size(); ++d) edges += at_least[d];
  return edges;
}

}  // namespace

std::string EdgeLayoutChoice::describe() const {
  std::string s;
  if (layout == Layout::CSR) {
    s = "CSR (array of adjacency arrays)";
  } else {
    s = std::string(layout == Layout::ColumnMajor ? "column-major" : "hybrid") + ": out-edges 0.." +
        std::to_string(width - 1) + " of every vertex in column slots (" +
        percent(column_edges, edge_count) + " of the edges, " +
        percent(column_slots - column_edges, column_slots) + " of the slots padding)" +
        (layout == Layout::Hybrid ? ", the rest CSR" : "") +
        ", read by thread-per-vertex ELIST loops";
  }
  return s + "; " + reason;
}

EdgeLayoutChoice choose_edge_layout(const std::vector<EdgeIndex>& out_offsets, Layout requested,
                                    bool vertex_edge_loops, LayoutTarget target,
                                    std::uint64_t max_column_slots) {
  EdgeLayoutChoice c;
  const std::uint64_t V = out_offsets.empty() ? 0 : out_offsets.size() - 1;
  c.edge_count = V == 0 ? 0 : out_offsets.back() - out_offsets.front();
  auto csr = [&](std::string why) {
    c.layout = Layout::CSR;
    c.width = 0;
    c.column_edges = c.column_slots = 0;
    c.reason = std::move(why);
    return c;
  };
  if (requested == Layout::CSR) return csr("requested");
  if (requested == Layout::Auto && target == LayoutTarget::Cpu)
    return csr("auto: a CPU thread reads each vertex's CSR edges in order already");
  if (requested == Layout::Auto && !vertex_edge_loops)
    return csr("auto: no thread-per-vertex ELIST loop (edge-parallel launches read CSR in order)");
  if (V == 0 || c.edge_count == 0) return csr("the graph has no edges");

  const std::vector<std::uint64_t> at_least = vertices_with_degree_at_least(out_offsets);
  const auto max_degree = static_cast<std::uint32_t>(at_least.size() - 1);
  // HYB's rule: the widest column part that a third of the vertices fill.
  const std::uint64_t enough = std::max<std::uint64_t>(1, V / 3);
  std::uint32_t hyb = 0;
  while (hyb < max_degree && at_least[hyb + 1] >= enough) ++hyb;

  std::uint32_t width = 0;
  if (requested == Layout::ColumnMajor) {
    width = max_degree;
    c.reason = "requested";
    if (static_cast<std::uint64_t>(width) * V > max_column_slots)
      MEDUSA_THROW("Layout::ColumnMajor pads every vertex to the largest out-degree (" +
                   std::to_string(max_degree) + "): " + std::to_string(V) + " x " +
                   std::to_string(max_degree) + " column slots do not fit beside the graph (room for " +
                   std::to_string(max_column_slots) +
                   "); use Layout::Hybrid or Layout::Auto, which keep the high-degree tail in CSR");
  } else if (requested == Layout::Hybrid) {
    width = std::max<std::uint32_t>(hyb, 1);
    c.reason = "requested; width " + std::to_string(width) + ": a third of the vertices have that many out-edges";
    if (static_cast<std::uint64_t>(width) * V > max_column_slots)
      MEDUSA_THROW("Layout::Hybrid with " + std::to_string(width) + " column-major out-edges per vertex needs " +
                   std::to_string(static_cast<std::uint64_t>(width) * V) +
                   " column slots, which do not fit beside the graph (room for " +
                   std::to_string(max_column_slots) + "); use Layout::CSR");
  } else {  // Auto, GPU, thread-per-vertex loops
    // Measured on an H100 (docs/benchmarks/history/2026-11-22-h100-edge-layouts.md): below 4 out-edges
    // per lane the L1 cache already serves the CSR reads, and the column part only adds padding.
    if (hyb < kMinAutoWidth)
      return csr("auto: two thirds of the vertices have fewer than " + std::to_string(kMinAutoWidth) +
                 " out-edges, too few for coalescing to pay");
    const std::uint64_t held = edges_within(at_least, hyb);
    if (2 * held < c.edge_count)  // a hub-dominated graph: the hubs' loops stay long and uncoalesced
      return csr("auto: a column part of width " + std::to_string(hyb) + " would hold only " +
                 percent(held, c.edge_count) + " of the edges");
    if (static_cast<std::uint64_t>(hyb) * V > max_column_slots)
      return csr("auto: the column slots would not fit in memory");
    width = hyb;
    c.reason = hyb == max_degree
                   ? "auto: a third of the vertices have the largest out-degree, so padding is cheap"
                   : "auto: width " + std::to_string(width) +
                         " (a third of the vertices have that many out-edges; the largest out-degree is " +
                         std::to_string(max_degree) + ")";
  }
  c.layout = width >= max_degree ? Layout::ColumnMajor : Layout::Hybrid;
  c.width = width;
  c.column_slots = static_cast<std::uint64_t>(width) * V;
  c.column_edges = edges_within(at_least, width);
  return c;
}

ColumnMajorEdges build_column_major(const Topology& t, std::uint32_t width) {
  ColumnMajorEdges c;
  const std::uint64_t V = t.vertex_count, slots = static_cast<std::uint64_t>(width) * V;
  c.dst.assign(slots, kInvalidVertex);
  c.rid.assign(slots, kNoColumnRid);
  for (std::uint64_t v = 0; v < V; ++v) {
    const EdgeIndex first = t.out_offsets[v];
    const EdgeIndex n = std::min<EdgeIndex>(t.out_offsets[v + 1] - first, width);
    for (EdgeIndex i = 0; i < n; ++i) {
      const std::uint64_t slot = i * V + v;
      c.dst[slot] = t.out_dst[first + i];
      c.rid[slot] = t.rid[first + i];
    }
  }
  return c;
}

}  // namespace medusa::common
