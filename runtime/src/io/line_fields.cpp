#include "line_fields.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>

namespace medusa::io::detail {

bool parse_unsigned(std::string_view text, std::uint64_t& value) {
  if (text.empty()) return false;
  std::size_t i = text[0] == '+' ? 1 : 0;
  if (i == text.size()) return false;
  std::uint64_t result = 0;
  for (; i < text.size(); ++i) {
    unsigned digit = static_cast<unsigned char>(text[i]) - '0';
    if (digit > 9) return false;
    if (result > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) return false;
    result = result * 10 + digit;
  }
  value = result;
  return true;
}

bool parse_signed(std::string_view text, std::int64_t& value) {
  bool negative = !text.empty() && text[0] == '-';
  std::uint64_t magnitude;
  if (!parse_unsigned(negative ? text.substr(1) : text, magnitude)) return false;
  if (negative && text.size() > 1 && text[1] == '+') return false;
  constexpr std::uint64_t kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (magnitude > kMax + (negative ? 1 : 0)) return false;
  value = negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
  return true;
}

bool parse_real(std::string_view text, double& value) {
  // from_chars rejects a leading '+', which some writers emit.
  if (!text.empty() && text[0] == '+') text.remove_prefix(1);
  if (text.empty()) return false;
  // Only digits, sign, point and exponent: rules out "nan", "inf" and hex forms up front.
  for (char c : text) {
    if (!((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E')) return false;
  }
  const char* end = text.data() + text.size();
  auto [stop, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc() || stop != end) return false;
  return std::isfinite(value);
}

bool LineFields::next(std::string_view& field) {
  std::size_t i = 0;
  while (i < rest_.size() && is_blank(rest_[i])) ++i;
  if (i == rest_.size()) {
    rest_ = {};
    return false;
  }
  std::size_t j = i;
  while (j < rest_.size() && !is_blank(rest_[j])) ++j;
  field = rest_.substr(i, j - i);
  rest_.remove_prefix(j);
  return true;
}

bool LineFields::at_end() {
  std::size_t i = 0;
  while (i < rest_.size() && is_blank(rest_[i])) ++i;
  rest_.remove_prefix(i);
  return rest_.empty();
}

std::size_t LineFields::count_remaining() const {
  LineFields copy = *this;
  std::size_t n = 0;
  std::string_view field;
  while (copy.next(field)) ++n;
  return n;
}

void LineFields::fail_expected(const std::string& what, std::string_view got) const {
  reader_.fail("expected " + what + ", got " + (got.data() ? quote(got) : std::string("end of line")));
}

std::string_view LineFields::take(const std::string& what) {
  std::string_view field;
  if (!next(field)) fail_expected(what, {});
  return field;
}

std::uint64_t LineFields::unsigned_integer(const std::string& what) {
  std::string_view field = take(what);
  std::uint64_t value;
  if (!parse_unsigned(field, value)) fail_expected(what + " (a non-negative integer)", field);
  return value;
}

std::int64_t LineFields::signed_integer(const std::string& what) {
  std::string_view field = take(what);
  std::int64_t value;
  if (!parse_signed(field, value)) fail_expected(what + " (an integer)", field);
  return value;
}

double LineFields::real(const std::string& what) {
  std::string_view field = take(what);
  double value;
  if (!parse_real(field, value)) fail_expected(what + " (a finite number)", field);
  return value;
}

VertexId LineFields::one_based_vertex(const std::string& what, std::uint64_t count) {
  std::string_view field = take(what);
  std::uint64_t id;
  if (!parse_unsigned(field, id)) fail_expected(what + " (a vertex id from 1 to " + std::to_string(count) + ")", field);
  if (id == 0) {
    reader_.fail("vertex id 0 in a 1-based format (expected " + what + " from 1 to " + std::to_string(count) +
                 ", got 0)");
  }
  if (id > count) {
    reader_.fail("vertex id out of range (expected " + what + " from 1 to " + std::to_string(count) +
                 ", the declared vertex count, got " + std::to_string(id) + ")");
  }
  return static_cast<VertexId>(id - 1);
}

void LineFields::expect_end(const std::string& after) {
  std::string_view field;
  if (next(field)) fail_expected("end of line after " + after, field);
}

void require_non_negative_weight(const LineReader& reader, double weight) {
  if (weight < 0) reader.fail("negative edge weight (expected a weight >= 0, got " + std::to_string(weight) + ")");
}

}  // namespace medusa::io::detail
