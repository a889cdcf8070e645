// Errors the runtime reports. Library code throws medusa::Error; it never calls exit().
#pragma once

#include <stdexcept>
#include <string>

namespace medusa {

class Error : public std::runtime_error {
 public:
  Error(const std::string& message, const char* file, int line)
      : std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + message),
        message_(message) {}
  // The message without the file:line prefix.
  const std::string& message() const { return message_; }

 private:
  std::string message_;
};

}  // namespace medusa

#define MEDUSA_THROW(msg) throw ::medusa::Error((msg), __FILE__, __LINE__)
#define MEDUSA_REQUIRE(cond, msg) \
  do {                            \
    if (!(cond)) MEDUSA_THROW(msg); \
  } while (0)
