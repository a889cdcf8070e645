// Iteration functions that medusa-cc proved replayable: the body is a straight line of Medusa
// operations (InitMessageBuffer, EMV<K>::Run, Combiner, Continue, Halt) whose arguments are
// constants, so every superstep issues the same operations with the same arguments. The CUDA
// engine may then launch a recorded batch of supersteps again without calling the function
// (docs/design/superstep-batches.md). Generated code registers each such function once, at
// static initialization:
//
//   static const bool medusa_replayable_BFS = medusa::detail::register_replayable_iteration(&::BFS);
#pragma once

#include <mutex>
#include <set>

namespace medusa::detail {

using IterationFunction = void (*)();

class ReplayableIterations {
 public:
  static ReplayableIterations& instance() {
    static ReplayableIterations registry;
    return registry;
  }
  void add(IterationFunction f) {
    const std::lock_guard<std::mutex> lock(mutex_);
    functions_.insert(f);
  }
  bool contains(IterationFunction f) const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return functions_.count(f) != 0;
  }

 private:
  mutable std::mutex mutex_;
  std::set<IterationFunction> functions_;
};

inline bool register_replayable_iteration(IterationFunction f) {
  if (f != nullptr) ReplayableIterations::instance().add(f);
  return true;
}
inline bool is_replayable_iteration(IterationFunction f) {
  return f != nullptr && ReplayableIterations::instance().contains(f);
}

}  // namespace medusa::detail
