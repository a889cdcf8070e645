// What both backends and the session share about priorities (SetActive(priority);
// docs/design/priority-buckets.md): the delta's description, the per-superstep report, and the
// settings that cannot run them yet.
#pragma once

#include <medusa/config.h>
#include <medusa/error.h>

#include <cstdint>
#include <string>

namespace medusa::common {

inline std::string describe_priority_delta(const Config& conf) {
  if (conf.priorityDelta != 0) return std::to_string(conf.priorityDelta);
  return "auto (32 x the mean of the first non-zero priorities / the mean out-degree)";
}

// " bucket 7 (priorities 700..799), 12 deferred" for the superstep report; bucket ~0: none.
inline std::string describe_bucket(std::uint64_t bucket, std::uint64_t width, std::uint64_t deferred) {
  constexpr std::uint64_t kNone = ~std::uint64_t{0};
  std::string r = ", bucket ";
  if (bucket == kNone) r += "none";
  else if (width == 0) r += std::to_string(bucket) + " (delta not chosen yet: every priority so far is 0)";
  else
    r += std::to_string(bucket) + " (priorities " + std::to_string(bucket * width) + ".." +
         std::to_string(bucket * width + (width - 1)) + ")";
  return r + ", " + std::to_string(deferred) + " deferred";
}

// Where priorities run as one bucket (SetActive(priority) as SetActive(), the same as delta = infinity,
// which a program's results may not depend on): why, for the verbose report; empty where buckets run.
inline const char* priorities_unordered_because(bool cuda, std::uint32_t partitions) {
  if (cuda) return "the CUDA engine does not order by priority yet";
  if (partitions > 1) return "partitioned runs do not share the lowest bucket across partitions yet";
  return "";
}
inline std::string describe_unordered_priorities(const char* because) {
  return std::string("priorities: one bucket, as with delta = infinity (") + because +
         "; the results are those of any delta, in the supersteps of a run without priorities)";
}

}  // namespace medusa::common
