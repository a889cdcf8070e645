// Reads text input line by line from a ByteSource through a large buffer, counting lines so that
// every complaint names file:line.
#pragma once

#include "byte_source.h"

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace medusa::io::detail {

class LineReader {
 public:
  LineReader(std::unique_ptr<ByteSource> source, std::string name);

  // The next line without its '\n' (and a trailing '\r'); false at the end of the input.
  bool next(std::string_view& line);
  // Number of the line last returned by next() (1-based); after the end, the last line's number.
  std::size_t line_number() const { return line_number_; }
  const std::string& name() const { return name_; }

  // Throws medusa::Error("name:line: what").
  [[noreturn]] void fail(const std::string& what) const { fail_at(line_number_, what); }
  [[noreturn]] void fail_at(std::size_t line, const std::string& what) const;

 private:
  bool refill();

  std::unique_ptr<ByteSource> source_;
  std::string name_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0, end_ = 0;
  bool source_ended_ = false;
  bool last_read_filled_ = false;
  std::size_t line_number_ = 0;
};

// Quotes a token for an error message, shortened and with unprintable bytes escaped.
std::string quote(std::string_view token);

}  // namespace medusa::io::detail
