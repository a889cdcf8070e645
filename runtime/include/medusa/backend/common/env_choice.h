// Strategy overrides read from the environment (MEDUSA_FRONTIER_PULL, MEDUSA_QUEUE_EXPAND,
// MEDUSA_COMBINER): for benchmarking and for tests that force every path. Unknown or unset values
// keep the automatic choice.
#pragma once

#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <utility>

namespace medusa::common {

template <class E>
E choice_from_env(const char* variable, E automatic, std::initializer_list<std::pair<const char*, E>> values) {
  if (const char* env = std::getenv(variable)) {
    for (const auto& [name, value] : values)
      if (std::strcmp(env, name) == 0) return value;
  }
  return automatic;
}

}  // namespace medusa::common
