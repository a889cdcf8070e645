// The stop rule of a superstep run on k partitions: every partition's votes, and those the host
// cast while issuing the superstep, are OR-ed before the rule (stop_decision.h) applies. So a
// partition whose frontier emptied (no Continue() vote there) does not stop the others, and one
// Halt() stops them all. The session ORs the read-back votes with it (partitioned_session.h); the
// end of a batched superstep applies it on the device to one partition or to k together
// (cuda/superstep_batch.cuh), so that every partition stops at the same superstep.
#pragma once

#include <medusa/backend/common/stop_decision.h>
#include <medusa/device_api.h>

namespace medusa::common {

MEDUSA_HD inline void or_votes(int* into, const volatile int* votes) {
  for (int i = 0; i < kVoteSlots; ++i) into[i] |= votes[i];
}

struct PartitionedVoteStop {
  VoteStop stop = VoteStop::None;
  bool too_many_messages = false;  // a functor of some partition sent more than m messages along an edge
  MEDUSA_HD bool stops() const { return stop != VoteStop::None || too_many_messages; }
};

// `partition_votes[p]`: the kVoteSlots vote slots of partition p (read through volatile: on the
// device they may have been written by other SMs, or by another GPU's kernels).
MEDUSA_HD inline PartitionedVoteStop partitioned_vote_stop(const volatile int* const* partition_votes,
                                                           unsigned partitions, const int* host_votes,
                                                           bool continue_vote) {
  int votes[kVoteSlots];
  for (int i = 0; i < kVoteSlots; ++i) votes[i] = host_votes[i];
  for (unsigned p = 0; p < partitions; ++p) or_votes(votes, partition_votes[p]);
  PartitionedVoteStop s;
  s.stop = vote_stop(votes, continue_vote);
  s.too_many_messages = votes[kVoteTooManyMessages] != 0;
  return s;
}

}  // namespace medusa::common
