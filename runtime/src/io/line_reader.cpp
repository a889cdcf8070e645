#include "line_reader.h"

#include <medusa/error.h>

#include <cstdio>
#include <cstring>

namespace medusa::io::detail {

namespace {
// Small inputs (tests, fuzzing) stay cheap; big files grow the buffer to kLargeBuffer after a few
// full reads, so the parser runs over large contiguous spans.
constexpr std::size_t kInitialBuffer = 64 << 10;
constexpr std::size_t kLargeBuffer = 4 << 20;
}

LineReader::LineReader(std::unique_ptr<ByteSource> source, std::string name)
    : source_(std::move(source)), name_(std::move(name)), buffer_(kInitialBuffer) {}

void LineReader::fail_at(std::size_t line, const std::string& what) const {
  throw ::medusa::Error(what, name_.c_str(), static_cast<int>(line));
}

bool LineReader::refill() {
  if (source_ended_) return false;
  // Keep the unfinished line, move it to the front, and grow the buffer if one line fills it.
  std::size_t pending = end_ - begin_;
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, pending);
    begin_ = 0;
    end_ = pending;
  }
  if (end_ == buffer_.size() || (buffer_.size() < kLargeBuffer && last_read_filled_)) {
    buffer_.resize(buffer_.size() * 2);
  }
  std::size_t got;
  const std::size_t wanted = buffer_.size() - end_;
  try {
    got = source_->read(buffer_.data() + end_, wanted);
    last_read_filled_ = got == wanted;
  } catch (const InputFailure& failure) {
    fail_at(line_number_ + 1, failure.what());
  }
  if (got == 0) {
    source_ended_ = true;
    return false;
  }
  end_ += got;
  return true;
}

bool LineReader::next(std::string_view& line) {
  std::size_t searched = begin_;
  for (;;) {
    const char* start = buffer_.data() + begin_;
    const char* newline = static_cast<const char*>(
        std::memchr(buffer_.data() + searched, '\n', end_ - searched));
    if (newline) {
      std::size_t length = newline - start;
      begin_ += length + 1;
      if (length && start[length - 1] == '\r') --length;
      line = std::string_view(start, length);
      ++line_number_;
      return true;
    }
    std::size_t scanned = end_ - begin_;
    if (!refill()) {
      if (begin_ == end_) return false;
      // Last line without a final newline.
      std::size_t length = end_ - begin_;
      const char* last = buffer_.data() + begin_;
      begin_ = end_;
      if (length && last[length - 1] == '\r') --length;
      line = std::string_view(last, length);
      ++line_number_;
      return true;
    }
    searched = begin_ + scanned;
  }
}

std::string quote(std::string_view token) {
  constexpr std::size_t kMaxShown = 40;
  std::string out = "'";
  for (std::size_t i = 0; i < token.size() && i < kMaxShown; ++i) {
    unsigned char c = static_cast<unsigned char>(token[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02X", c);
      out += escaped;
    }
  }
  if (token.size() > kMaxShown) out += "...";
  return out + "'";
}

}  // namespace medusa::io::detail
