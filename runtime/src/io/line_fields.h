// Splits one text line into whitespace-separated fields and parses numbers by hand (no locale,
// no allocation); every failure becomes "file:line: expected ..., got ...".
#pragma once

#include "line_reader.h"

#include <medusa/types.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace medusa::io::detail {

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// True when the line has nothing but blanks.
inline bool is_blank_line(std::string_view line) {
  for (char c : line) {
    if (!is_blank(c)) return false;
  }
  return true;
}

// Parses all of `text` as a decimal unsigned integer; false on anything else or on overflow.
bool parse_unsigned(std::string_view text, std::uint64_t& value);
// Parses all of `text` as an optionally signed decimal integer.
bool parse_signed(std::string_view text, std::int64_t& value);
// Parses all of `text` as a finite real number (decimal or exponent notation; no nan/inf).
bool parse_real(std::string_view text, double& value);

class LineFields {
 public:
  LineFields(std::string_view line, const LineReader& reader) : rest_(line), reader_(reader) {}

  // The next field, or false at the end of the line.
  bool next(std::string_view& field);
  bool at_end();
  std::size_t count_remaining() const;

  std::uint64_t unsigned_integer(const std::string& what);
  std::int64_t signed_integer(const std::string& what);
  double real(const std::string& what);
  // A vertex id in a 1-based format with `count` vertices; returns it 0-based.
  VertexId one_based_vertex(const std::string& what, std::uint64_t count);
  // Complains about any field left on the line.
  void expect_end(const std::string& after);

  [[noreturn]] void fail_expected(const std::string& what, std::string_view got) const;

 private:
  std::string_view take(const std::string& what);

  std::string_view rest_;
  const LineReader& reader_;
};

// Weight checks shared by the formats.
void require_non_negative_weight(const LineReader& reader, double weight);

}  // namespace medusa::io::detail
