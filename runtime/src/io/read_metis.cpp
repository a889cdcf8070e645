// METIS graph format: '%' comments, header "n m [fmt [ncon]]", then exactly n lines, line i
// listing vertex i's neighbours (1-based). fmt's digits (vertex size, vertex weights, edge
// weights) say what else each line carries; an empty line is a vertex without neighbours. Every
// undirected edge appears in both endpoint lines, so the file holds 2m adjacency entries.
#include "format_readers.h"
#include "line_fields.h"

namespace medusa::io::detail {

EdgeListData read_metis(LineReader& reader) {
  std::string_view line;
  bool have_header = false;
  bool any_line = false;
  while (reader.next(line)) {
    any_line = true;
    if (is_blank_line(line) || line[0] == '%') continue;
    have_header = true;
    break;
  }
  if (!any_line) reader.fail_at(1, "empty file (expected the header 'vertices edges [fmt [ncon]]')");
  if (!have_header) reader.fail("no header (expected 'vertices edges [fmt [ncon]]')");

  LineFields header(line, reader);
  std::uint64_t vertices = header.unsigned_integer("vertex count");
  std::uint64_t edges = header.unsigned_integer("edge count");
  bool has_sizes = false, has_vertex_weights = false, has_edge_weights = false;
  std::uint64_t constraints = 0;
  std::string_view fmt;
  if (header.next(fmt)) {
    if (fmt.size() > 3 || fmt.find_first_not_of("01") != std::string_view::npos) {
      header.fail_expected("fmt of up to three 0/1 digits (like 1, 10, 11, 011)", fmt);
    }
    std::string digits = std::string(3 - fmt.size(), '0') + std::string(fmt);
    has_sizes = digits[0] == '1';
    has_vertex_weights = digits[1] == '1';
    has_edge_weights = digits[2] == '1';
    if (!header.at_end()) {
      constraints = header.unsigned_integer("ncon (number of vertex weights)");
      if (!has_vertex_weights) reader.fail("ncon given but fmt has no vertex weights (expected fmt x1x, got " + std::string(fmt) + ")");
    }
  }
  header.expect_end("the header");
  if (has_vertex_weights && constraints == 0) constraints = 1;
  if (vertices > kMaxVertexCount) {
    reader.fail("too many vertices for 32-bit ids (expected at most " + std::to_string(kMaxVertexCount) + ", got " +
                std::to_string(vertices) + ")");
  }
  if (edges > (1ull << 40)) {
    reader.fail("implausible edge count (expected at most 2^40, got " + std::to_string(edges) + ")");
  }
  const std::size_t header_line = reader.line_number();

  EdgeListData data;
  data.format = "metis";
  data.symmetric = true;
  data.vertex_count = static_cast<VertexId>(vertices);
  reserve_edges(data, 2 * edges, has_edge_weights);

  std::uint64_t vertex = 0;
  const std::uint64_t expected_entries = 2 * edges;
  while (reader.next(line)) {
    if (!line.empty() && line[0] == '%') continue;
    if (vertex == vertices) {
      if (is_blank_line(line)) continue;  // trailing blank lines
      reader.fail("more vertex lines than declared (expected " + std::to_string(vertices) + ", got another)");
    }
    LineFields fields(line, reader);
    if (has_sizes) fields.unsigned_integer("vertex size");
    for (std::uint64_t c = 0; c < constraints; ++c) fields.unsigned_integer("vertex weight");
    const VertexId source = static_cast<VertexId>(vertex);
    while (!fields.at_end()) {
      if (data.src.size() == expected_entries) {
        reader.fail("more adjacency entries than declared (expected " + std::to_string(expected_entries) +
                    " = 2 x " + std::to_string(edges) + " edges, got another)");
      }
      VertexId neighbour = fields.one_based_vertex("neighbour", vertices);
      if (has_edge_weights) {
        std::uint64_t weight = fields.unsigned_integer("edge weight");
        if (weight == 0) reader.fail("edge weight 0 (expected a positive integer, got 0)");
        data.weight.push_back(static_cast<double>(weight));
      }
      data.src.push_back(source);
      data.dst.push_back(neighbour);
    }
    ++vertex;
  }
  if (vertex < vertices) {
    reader.fail("fewer vertex lines than declared (expected " + std::to_string(vertices) + " after the header on line " +
                std::to_string(header_line) + ", got " + std::to_string(vertex) + ")");
  }
  if (data.src.size() != expected_entries) {
    reader.fail("fewer adjacency entries than declared (expected " + std::to_string(expected_entries) + " = 2 x " +
                std::to_string(edges) + " edges, got " + std::to_string(data.src.size()) + ")");
  }
  return data;
}

}  // namespace medusa::io::detail
