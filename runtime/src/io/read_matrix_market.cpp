// Matrix Market coordinate format: "%%MatrixMarket matrix coordinate <field> <symmetry>", '%'
// comments, a "rows cols entries" line, then 1-based "row col [value]" entries. Entry (i, j) is the
// edge i -> j; a symmetric file stores each off-diagonal entry once and means both directions.
#include "format_readers.h"
#include "line_fields.h"

#include <algorithm>
#include <cctype>

namespace medusa::io::detail {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

enum class Field { Pattern, Integer, Real };

}  // namespace

EdgeListData read_matrix_market(LineReader& reader) {
  std::string_view line;
  if (!reader.next(line)) reader.fail_at(1, "empty file (expected a %%MatrixMarket header)");

  LineFields banner(line, reader);
  std::string_view word;
  if (!banner.next(word) || lower(word) != "%%matrixmarket") {
    banner.fail_expected("'%%MatrixMarket' header", word.data() ? word : line);
  }
  if (!banner.next(word) || lower(word) != "matrix") banner.fail_expected("object 'matrix'", word);
  if (!banner.next(word) || lower(word) != "coordinate") {
    banner.fail_expected("format 'coordinate' (dense 'array' files are not graphs)", word);
  }
  Field field = Field::Pattern;
  if (!banner.next(word)) banner.fail_expected("field 'pattern', 'integer' or 'real'", {});
  std::string field_name = lower(word);
  if (field_name == "pattern") field = Field::Pattern;
  else if (field_name == "integer") field = Field::Integer;
  else if (field_name == "real" || field_name == "double") field = Field::Real;
  else banner.fail_expected("field 'pattern', 'integer' or 'real'", word);
  if (!banner.next(word)) banner.fail_expected("symmetry 'general' or 'symmetric'", {});
  std::string symmetry = lower(word);
  bool symmetric;
  if (symmetry == "general") symmetric = false;
  else if (symmetry == "symmetric") symmetric = true;
  else banner.fail_expected("symmetry 'general' or 'symmetric'", word);
  banner.expect_end("the symmetry");

  // Size line: first line that is neither a comment nor blank.
  bool have_size = false;
  while (reader.next(line)) {
    if (is_blank_line(line) || line[0] == '%') continue;
    have_size = true;
    break;
  }
  if (!have_size) reader.fail("file ends before the size line (expected 'rows columns entries')");
  LineFields size(line, reader);
  std::uint64_t rows = size.unsigned_integer("row count");
  std::uint64_t columns = size.unsigned_integer("column count");
  std::uint64_t entries = size.unsigned_integer("entry count");
  size.expect_end("the entry count");
  if (symmetric && rows != columns) {
    reader.fail("a symmetric matrix must be square (expected rows = columns, got " + std::to_string(rows) + " x " +
                std::to_string(columns) + ")");
  }
  std::uint64_t vertices = std::max(rows, columns);
  if (vertices > kMaxVertexCount) {
    reader.fail("too many vertices for 32-bit ids (expected at most " + std::to_string(kMaxVertexCount) +
                ", got " + std::to_string(vertices) + ")");
  }

  EdgeListData data;
  data.format = "matrix-market";
  data.symmetric = symmetric;
  data.vertex_count = static_cast<VertexId>(vertices);
  const bool weighted = field != Field::Pattern;
  reserve_edges(data, symmetric ? 2 * entries : entries, weighted);

  std::uint64_t seen = 0;
  while (reader.next(line)) {
    if (is_blank_line(line) || line[0] == '%') continue;
    if (seen == entries) {
      reader.fail("more entries than declared (expected " + std::to_string(entries) + ", got another)");
    }
    LineFields fields(line, reader);
    VertexId row = fields.one_based_vertex("row", rows);
    VertexId column = fields.one_based_vertex("column", columns);
    double value = 1.0;
    if (field == Field::Integer) value = static_cast<double>(fields.signed_integer("integer value"));
    else if (field == Field::Real) value = fields.real("real value");
    fields.expect_end(weighted ? "the value" : "the column (pattern files have no values)");
    data.src.push_back(row);
    data.dst.push_back(column);
    if (weighted) data.weight.push_back(value);
    if (symmetric && row != column) {
      data.src.push_back(column);
      data.dst.push_back(row);
      if (weighted) data.weight.push_back(value);
    }
    ++seen;
  }
  if (seen != entries) {
    reader.fail("fewer entries than declared (expected " + std::to_string(entries) + ", got " +
                std::to_string(seen) + ")");
  }
  return data;
}

}  // namespace medusa::io::detail
