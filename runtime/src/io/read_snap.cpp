// SNAP edge lists: '#' comment lines, then "src dst [weight]" per line, 0-based, whitespace
// separated. Directed as written. Vertex count is max id + 1, or the "# Nodes: N" comment SNAP
// writes when that is larger (keeps isolated vertices at the end).
#include "format_readers.h"
#include "line_fields.h"

#include <algorithm>

namespace medusa::io::detail {
namespace {

// Looks for "Nodes: N" in a comment line.
bool declared_nodes(std::string_view comment, std::uint64_t& nodes) {
  std::size_t at = comment.find("Nodes:");
  if (at == std::string_view::npos) return false;
  std::string_view rest = comment.substr(at + 6);
  std::size_t begin = 0;
  while (begin < rest.size() && is_blank(rest[begin])) ++begin;
  std::size_t end = begin;
  while (end < rest.size() && rest[end] >= '0' && rest[end] <= '9') ++end;
  return parse_unsigned(rest.substr(begin, end - begin), nodes);
}

VertexId zero_based_vertex(LineFields& fields, const LineReader& reader, const char* what) {
  std::string_view field;
  if (!fields.next(field)) fields.fail_expected(std::string(what) + " vertex id", {});
  std::uint64_t id;
  if (!parse_unsigned(field, id)) fields.fail_expected(std::string(what) + " vertex id (a non-negative integer)", field);
  if (id >= kMaxVertexCount) {
    reader.fail("vertex id out of range (expected " + std::string(what) + " below " + std::to_string(kMaxVertexCount) +
                " for 32-bit ids, got " + std::to_string(id) + ")");
  }
  return static_cast<VertexId>(id);
}

}  // namespace

EdgeListData read_snap(LineReader& reader) {
  EdgeListData data;
  data.format = "snap";
  std::uint64_t nodes_comment = 0;
  std::uint64_t max_id_plus_one = 0;
  int columns = 0;  // 2 or 3, fixed by the first edge line
  std::size_t first_edge_line = 0;
  bool any_line = false;
  std::string_view line;
  while (reader.next(line)) {
    any_line = true;
    if (is_blank_line(line)) continue;
    std::size_t start = 0;
    while (is_blank(line[start])) ++start;
    if (line[start] == '#' || line[start] == '%') {
      std::uint64_t nodes;
      if (data.src.empty() && declared_nodes(line, nodes)) nodes_comment = nodes;
      continue;
    }
    LineFields fields(line, reader);
    if (columns == 0) {
      std::size_t count = fields.count_remaining();
      if (count != 2 && count != 3) {
        reader.fail("expected 2 or 3 columns (source target [weight]), got " + std::to_string(count));
      }
      columns = static_cast<int>(count);
      first_edge_line = reader.line_number();
    }
    VertexId source = zero_based_vertex(fields, reader, "source");
    VertexId target = zero_based_vertex(fields, reader, "target");
    if (columns == 3) {
      std::string_view field;
      if (!fields.next(field)) {
        fields.fail_expected("a weight (line " + std::to_string(first_edge_line) + " has 3 columns)", {});
      }
      double weight;
      if (!parse_real(field, weight)) fields.fail_expected("a weight (a finite number)", field);
      data.weight.push_back(weight);
    }
    fields.expect_end(columns == 3 ? "the weight" : "the target (line " + std::to_string(first_edge_line) +
                                                        " has 2 columns)");
    data.src.push_back(source);
    data.dst.push_back(target);
    max_id_plus_one = std::max<std::uint64_t>(max_id_plus_one, std::max(source, target) + std::uint64_t{1});
  }
  if (!any_line) reader.fail_at(1, "empty file (expected 'source target' lines)");
  if (data.src.empty()) reader.fail("no edges (expected at least one 'source target' line)");
  std::uint64_t count = std::max(max_id_plus_one, std::min(nodes_comment, kMaxVertexCount));
  data.vertex_count = static_cast<VertexId>(count);
  return data;
}

}  // namespace medusa::io::detail
