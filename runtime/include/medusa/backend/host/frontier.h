// A SetActive frontier: flags written during superstep s, promoted at its end into the compacted
// queue that Domain::Active visits in superstep s + 1.
#pragma once

#include <medusa/backend/host/compact.h>
#include <medusa/backend/host/host_array.h>
#include <medusa/backend/host/priority_buckets.h>
#include <medusa/error.h>

#include <cstdint>
#include <string>
#include <vector>

namespace medusa::host {

template <class Index>
class Frontier {
 public:
  void allocate(std::size_t n) {
    next_.allocate(n);
    allocated_ = true;
  }
  bool allocated() const { return allocated_; }
  // Flags SetActive() writes; null when the program has no frontier of this kind.
  std::uint8_t* next_flags() { return next_.data(); }
  // What Domain::Active visits in the current superstep.
  const std::vector<Index>& current() const { return current_; }

  // Seeds the first superstep (Graph::SetActive on the host); duplicates collapse.
  template <class Id>
  void seed(const std::vector<Id>& ids, const char* what) {
    for (Id id : ids) {
      MEDUSA_REQUIRE(static_cast<std::size_t>(id) < next_.size(),
                     std::string("SetActive: ") + what + " " + std::to_string(id) +
                         " is out of range (" + std::to_string(next_.size()) + " " + what + "s)");
      next_[static_cast<std::size_t>(id)] = 1;
    }
    promote();
  }

  // End of superstep: next flags -> current queue, flags cleared.
  void promote() { compact_flags(next_.data(), next_.size(), current_, /*clear_flags=*/true); }
  // The same with priorities: the flagged vertices join `buckets`, and the lowest bucket is current.
  void promote(PriorityBuckets& buckets) {
    compact_flags(next_.data(), next_.size(), activated_, /*clear_flags=*/true);
    buckets.promote(activated_, current_);
  }

  std::size_t bytes() const { return next_.bytes() + current_.capacity() * sizeof(Index); }

 private:
  HostArray<std::uint8_t> next_;
  std::vector<Index> current_;
  std::vector<Index> activated_;  // (promote with priorities)
  bool allocated_ = false;
};

}  // namespace medusa::host
