// The end-of-superstep decision, from the votes the functors cast (paper: halt; overview paper:
// Continue) and maxIteration. Both backends copy the vote slots to the host and ask this.
#pragma once

#include <medusa/config.h>
#include <medusa/device_api.h>
#include <medusa/error.h>
#include <medusa/program.h>

#include <cstdint>
#include <string>

namespace medusa::common {

struct StopDecision {
  bool stop = false;
  const char* reason = "";  // RunStats::stop_reason when stop
};

// The votes' part of the rule, also applied on the GPU at the end of a batched superstep
// (cuda/superstep_batch.cuh).
enum class VoteStop : int { None = 0, Halt = 1, NoContinue = 2 };
MEDUSA_HD inline VoteStop vote_stop(const int* votes, bool continue_vote) {
  if (votes[kVoteHalt] != 0) return VoteStop::Halt;
  if (continue_vote && votes[kVoteContinue] == 0) return VoteStop::NoContinue;
  return VoteStop::None;
}
inline const char* vote_stop_reason(VoteStop s) {  // RunStats::stop_reason
  return s == VoteStop::Halt ? "halt vote" : s == VoteStop::NoContinue ? "no continue vote" : "";
}

// votes: the kVoteSlots vote slots after superstep `superstep` (counted from 0) finished.
// bucketed_vertices: with SetActive(priority), the vertices that priority buckets hold (the next
// frontier's bucket and the higher ones): a superstep without a Continue vote does not end the run
// while a bucket holds a vertex (docs/design/priority-buckets.md).
inline StopDecision decide_stop(const int* votes, std::uint32_t superstep, const Config& conf,
                                const ProgramUses& uses, std::uint64_t bucketed_vertices = 0) {
  VoteStop by_votes = vote_stop(votes, uses.continue_vote);
  if (by_votes == VoteStop::NoContinue && bucketed_vertices > 0) by_votes = VoteStop::None;
  if (by_votes != VoteStop::None) return {true, vote_stop_reason(by_votes)};
  if (conf.maxIteration == 0 || superstep + 1 >= conf.maxIteration) return {true, "maxIteration"};
  return {false, ""};
}

// Throws when a functor sent more than m messages along one edge since the last InitMessageBuffer
// (EdgeHandle::sendMsg flags it; only InitMessageBuffer resets the per-edge counts).
// `what` names the launch, e.g. the functor, for the message.
inline void check_message_overflow(const int* votes, std::uint32_t m, std::uint32_t superstep,
                                   const std::string& what) {
  if (votes[kVoteTooManyMessages] == 0) return;
  MEDUSA_THROW("superstep " + std::to_string(superstep) + ": " + what +
               " sent more than Config::messagesPerEdge = " + std::to_string(m) +
               " message(s) along one edge since the last InitMessageBuffer (which restarts the "
               "count); the extra messages were dropped. Raise messagesPerEdge (the paper's m), "
               "or send fewer messages along an edge between two InitMessageBuffer calls.");
}

}  // namespace medusa::common
