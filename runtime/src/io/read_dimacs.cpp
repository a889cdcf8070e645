// DIMACS shortest-path format (.gr): 'c' comment lines, one "p sp n m" problem line before any
// arc, then exactly m lines "a u v w" (1-based ids, non-negative integer length w). Directed.
#include "format_readers.h"
#include "line_fields.h"

namespace medusa::io::detail {

EdgeListData read_dimacs(LineReader& reader) {
  EdgeListData data;
  data.format = "dimacs";
  bool have_problem = false;
  bool any_line = false;
  std::uint64_t vertices = 0, arcs = 0, seen = 0;
  std::string_view line;
  while (reader.next(line)) {
    any_line = true;
    LineFields fields(line, reader);
    std::string_view kind;
    if (!fields.next(kind)) continue;  // blank line
    if (kind == "c") continue;
    if (kind == "p") {
      if (have_problem) reader.fail("second problem line (expected one 'p sp n m' line, got another)");
      std::string_view problem;
      if (!fields.next(problem) || problem != "sp") {
        fields.fail_expected("problem type 'sp'", problem.data() ? problem : std::string_view());
      }
      vertices = fields.unsigned_integer("vertex count");
      arcs = fields.unsigned_integer("arc count");
      fields.expect_end("the arc count");
      if (vertices > kMaxVertexCount) {
        reader.fail("too many vertices for 32-bit ids (expected at most " + std::to_string(kMaxVertexCount) +
                    ", got " + std::to_string(vertices) + ")");
      }
      have_problem = true;
      reserve_edges(data, arcs, true);
      continue;
    }
    if (kind == "a") {
      if (!have_problem) reader.fail("arc before the problem line (expected 'p sp n m' first)");
      if (seen == arcs) reader.fail("more arcs than declared (expected " + std::to_string(arcs) + ", got another)");
      VertexId tail = fields.one_based_vertex("arc tail", vertices);
      VertexId head = fields.one_based_vertex("arc head", vertices);
      std::int64_t length = fields.signed_integer("arc length");
      if (length < 0) {
        reader.fail("negative arc length (expected a length >= 0, got " + std::to_string(length) + ")");
      }
      fields.expect_end("the arc length");
      data.src.push_back(tail);
      data.dst.push_back(head);
      data.weight.push_back(static_cast<double>(length));
      ++seen;
      continue;
    }
    fields.fail_expected("a line starting with 'c', 'p' or 'a'", kind);
  }
  if (!any_line) reader.fail_at(1, "empty file (expected 'p sp n m')");
  if (!have_problem) reader.fail("no problem line (expected 'p sp n m')");
  if (seen != arcs) {
    reader.fail("fewer arcs than declared (expected " + std::to_string(arcs) + ", got " + std::to_string(seen) + ")");
  }
  data.vertex_count = static_cast<VertexId>(vertices);
  return data;
}

}  // namespace medusa::io::detail
