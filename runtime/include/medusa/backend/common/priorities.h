// What both backends and the session share about priorities (SetActive(priority);
// docs/design/priority-buckets.md): the delta's description, the per-superstep report, and the
// settings that cannot run them yet.
#pragma once

#include <medusa/config.h>
#include <medusa/error.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

namespace medusa::common {

// The first non-zero priorities, summed exactly (128 bits): engines that add them in different
// orders (the host in ID order, the GPU by atomics) choose the same auto delta.
struct PrioritySum {
  std::uint64_t given = 0;  // how many
  std::uint64_t low = 0, high = 0;
  void add(std::uint64_t priority) {
    ++given;
    low += priority;
    if (low < priority) ++high;  // (carried)
  }
};

// Auto delta (Config::priorityDelta 0): kWarp x (the mean of the first non-zero priorities) / (the
// mean out-degree); for SSSP the common GPU choice, warp size x mean weight / mean degree. 0 while
// no non-zero priority was given (every priority so far is bucket 0 under any delta).
inline std::uint64_t auto_priority_delta(const PrioritySum& first, double mean_out_degree) {
  constexpr double kWarp = 32.0;
  if (first.given == 0) return 0;
  // (ldexp, not a multiply-add a compiler might fuse differently in each backend's translation unit)
  const double sum = std::ldexp(static_cast<double>(first.high), 64) + static_cast<double>(first.low);
  const double degree = mean_out_degree > 0 ? mean_out_degree : 1.0;
  const double delta = kWarp * (sum / static_cast<double>(first.given)) / degree;
  return delta < 1.0 ? 1 : static_cast<std::uint64_t>(std::llround(std::min(delta, 1e18)));
}

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
// which a program's results may not depend on): why, for the verbose report; empty where buckets run
// (one partition, on either engine).
inline const char* priorities_unordered_because(std::uint32_t partitions, bool auto_delta_on_cuda = false) {
  if (partitions > 1) return "partitioned runs do not share the lowest bucket across partitions yet";
  if (auto_delta_on_cuda)
    return "with the auto delta the CUDA engine orders by bucket only on graphs of mean out-degree 8 or "
           "more; set a delta (Config::priorityDelta, MEDUSA_PRIORITY_DELTA or --delta) to order this one";
  return "";
}
inline std::string describe_unordered_priorities(const char* because) {
  return std::string("priorities: one bucket, as with delta = infinity (") + because +
         "; the results are those of any delta, in the supersteps of a run without priorities)";
}

}  // namespace medusa::common
