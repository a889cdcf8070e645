#include "mpi_transport.h"

#include <medusa/error.h>
#include <medusa/transport/mpi_job.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace medusa::transport {

namespace {

// MPI counts are ints: larger blocks go as several messages of the same tag, which MPI delivers
// in the order posted.
constexpr std::size_t kMaxMessage = std::size_t{1} << 30;

void check(int rc, const char* what) {
  if (rc != MPI_SUCCESS) MEDUSA_THROW(std::string("MPI: ") + what + " failed");
}

// MEDUSA_COLLECTIVE_TIMEOUT: seconds a rank waits in a superstep's exchange or reduction before it
// ends the job; unset or 0: no limit (MPI's blocking calls).
double collective_timeout_from_environment() {
  const char* text = std::getenv("MEDUSA_COLLECTIVE_TIMEOUT");
  if (text == nullptr || *text == '\0') return 0.0;
  char* end = nullptr;
  const double seconds = std::strtod(text, &end);
  MEDUSA_REQUIRE(end != text && *end == '\0' && seconds >= 0.0,
                 std::string("MEDUSA_COLLECTIVE_TIMEOUT=") + text + ": expected seconds (a number >= 0; 0: no limit)");
  return seconds;
}

}  // namespace

MpiTransport::MpiTransport(MPI_Comm comm) : comm_(comm) {
  int r = 0, n = 1;
  check(MPI_Comm_rank(comm_, &r), "MPI_Comm_rank");
  check(MPI_Comm_size(comm_, &n), "MPI_Comm_size");
  rank_ = static_cast<std::uint32_t>(r);
  ranks_ = static_cast<std::uint32_t>(n);
  timeout_seconds_ = collective_timeout_from_environment();
  int* tag_ub = nullptr;
  int found = 0;
  check(MPI_Comm_get_attr(comm_, MPI_TAG_UB, &tag_ub, &found), "MPI_Comm_get_attr (MPI_TAG_UB)");
  bytes_tag_ = found && tag_ub != nullptr ? *tag_ub : 32767;  // (the standard's least upper bound)
  length_tag_ = bytes_tag_ - 1;
}

void MpiTransport::wait(std::vector<MPI_Request>& requests, const std::string& what,
                        const std::vector<std::uint32_t>& peers) {
  if (requests.empty()) return;
  const int count = static_cast<int>(requests.size());
  if (timeout_seconds_ <= 0.0) {
    check(MPI_Waitall(count, requests.data(), MPI_STATUSES_IGNORE), what.c_str());
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    int done = 0;
    check(MPI_Testall(count, requests.data(), &done, MPI_STATUSES_IGNORE), what.c_str());
    if (done) return;
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (waited > timeout_seconds_) {
      char seconds[32];
      std::snprintf(seconds, sizeof seconds, "%g", timeout_seconds_);
      std::string silent = "the other ranks";
      if (!peers.empty()) {  // (MPI_Testall modified no request: test each to see who answered)
        std::vector<std::uint32_t> missing;
        for (std::size_t i = 0; i < requests.size(); ++i) {
          int finished = 1;
          if (requests[i] != MPI_REQUEST_NULL) MPI_Test(&requests[i], &finished, MPI_STATUS_IGNORE);
          if (!finished && std::find(missing.begin(), missing.end(), peers[i]) == missing.end())
            missing.push_back(peers[i]);
        }
        silent = missing.size() == 1 ? "rank " : "ranks ";
        for (std::size_t i = 0; i < missing.size(); ++i) silent += (i == 0 ? "" : ", ") + std::to_string(missing[i]);
      }
      // Ends every rank, the silent one included (the caller's fail_job would too, after a throw).
      transport::fail_job(what + ": no answer from " + silent + " within MEDUSA_COLLECTIVE_TIMEOUT=" + seconds +
                          " s (a rank hangs, or is that much slower)");
      MEDUSA_THROW(what + ": timed out");  // (one rank: fail_job returns)
    }
    // Cores are shared when ranks are oversubscribed: give them up while waiting.
    if (waited < 0.01) std::this_thread::yield();
    else std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

std::string MpiTransport::describe() const {
  return "MPI, " + std::to_string(ranks_) + " ranks, host-staged";
}

void MpiTransport::post_send(std::uint32_t to_rank, int tag, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const std::byte*>(data);
  for (std::size_t at = 0; at < bytes; at += kMaxMessage) {
    MPI_Request req;
    const auto n = static_cast<int>(std::min(kMaxMessage, bytes - at));
    check(MPI_Isend(p + at, n, MPI_BYTE, static_cast<int>(to_rank), tag, comm_, &req), "MPI_Isend");
    pending_.push_back(req);
  }
}

void MpiTransport::post_receive(std::uint32_t from_rank, int tag, void* data, std::size_t bytes) {
  auto* p = static_cast<std::byte*>(data);
  for (std::size_t at = 0; at < bytes; at += kMaxMessage) {
    MPI_Request req;
    const auto n = static_cast<int>(std::min(kMaxMessage, bytes - at));
    check(MPI_Irecv(p + at, n, MPI_BYTE, static_cast<int>(from_rank), tag, comm_, &req), "MPI_Irecv");
    pending_.push_back(req);
  }
}

void MpiTransport::complete() {
  wait(pending_, "the replica exchange");
  pending_.clear();
}

void MpiTransport::reduce_step(int* votes, std::size_t vote_count, std::uint64_t* counts,
                               std::size_t count_count, std::uint32_t step) {
  inject_test_fault(std::to_string(step));
  std::vector<MPI_Request> requests(2, MPI_REQUEST_NULL);
  check(MPI_Iallreduce(MPI_IN_PLACE, votes, static_cast<int>(vote_count), MPI_INT, MPI_BOR, comm_, &requests[0]),
        "MPI_Iallreduce (votes)");
  if (count_count > 0)
    check(MPI_Iallreduce(MPI_IN_PLACE, counts, static_cast<int>(count_count), MPI_UINT64_T, MPI_SUM, comm_,
                         &requests[1]),
          "MPI_Iallreduce (counts)");
  wait(requests, "the reduction at the end of superstep " + std::to_string(step));
}

void MpiTransport::sum(std::uint64_t* values, std::size_t n) {
  if (n == 0) return;
  std::vector<MPI_Request> requests(1);
  check(MPI_Iallreduce(MPI_IN_PLACE, values, static_cast<int>(n), MPI_UINT64_T, MPI_SUM, comm_, &requests[0]),
        "MPI_Iallreduce (sum)");
  wait(requests, "a sum over the ranks");
}

void MpiTransport::broadcast(void* data, std::size_t bytes) {
  auto* p = static_cast<std::byte*>(data);
  std::vector<MPI_Request> requests;
  for (std::size_t at = 0; at < bytes; at += kMaxMessage) {
    requests.emplace_back();
    check(MPI_Ibcast(p + at, static_cast<int>(std::min(kMaxMessage, bytes - at)), MPI_BYTE, 0, comm_,
                     &requests.back()),
          "MPI_Ibcast");
  }
  wait(requests, "a broadcast from rank 0");
}

std::vector<std::vector<std::byte>> MpiTransport::all_gather(const std::vector<std::byte>& mine) {
  MEDUSA_REQUIRE(mine.size() <= INT_MAX, "MPI all-gather: a block of " + std::to_string(mine.size()) +
                                             " bytes is larger than MPI's int counts allow");
  const int my_size = static_cast<int>(mine.size());
  std::vector<int> sizes(ranks_), offsets(ranks_);
  std::vector<MPI_Request> requests(1);
  check(MPI_Iallgather(&my_size, 1, MPI_INT, sizes.data(), 1, MPI_INT, comm_, &requests[0]), "MPI_Iallgather");
  wait(requests, "an all-gather between the ranks");
  long long total = 0;
  for (std::uint32_t r = 0; r < ranks_; ++r) {
    MEDUSA_REQUIRE(total + sizes[r] <= INT_MAX,
                   "MPI all-gather: more than 2 GiB in all, which MPI's int offsets cannot address");
    offsets[r] = static_cast<int>(total);
    total += sizes[r];
  }
  std::vector<std::byte> all(static_cast<std::size_t>(total));
  check(MPI_Iallgatherv(mine.data(), my_size, MPI_BYTE, all.data(), sizes.data(), offsets.data(), MPI_BYTE,
                        comm_, &requests[0]),
        "MPI_Iallgatherv");
  wait(requests, "an all-gather between the ranks");
  std::vector<std::vector<std::byte>> blocks(ranks_);
  for (std::uint32_t r = 0; r < ranks_; ++r)
    blocks[r].assign(all.begin() + offsets[r], all.begin() + offsets[r] + sizes[r]);
  return blocks;
}

void MpiTransport::post_chunks(bool send, std::uint32_t peer, std::byte* data, std::size_t bytes,
                               std::vector<MPI_Request>& requests, std::vector<std::uint32_t>& peers) {
  for (std::size_t at = 0; at < bytes; at += kMaxMessage) {
    MPI_Request req;
    const auto n = static_cast<int>(std::min(kMaxMessage, bytes - at));
    if (send) check(MPI_Isend(data + at, n, MPI_BYTE, static_cast<int>(peer), bytes_tag_, comm_, &req), "MPI_Isend");
    else check(MPI_Irecv(data + at, n, MPI_BYTE, static_cast<int>(peer), bytes_tag_, comm_, &req), "MPI_Irecv");
    requests.push_back(req);
    peers.push_back(peer);
  }
}

// The lengths first (MPI_Ialltoall), then each block to its rank: a receiver sizes its buffer
// before the bytes come. (The rooted messages' tag: every rank calls collectives in one order.)
std::vector<std::vector<std::byte>> MpiTransport::all_to_all(const std::vector<std::vector<std::byte>>& to_each) {
  const std::string what = "an all-to-all between the ranks";
  MEDUSA_REQUIRE(to_each.size() == ranks_, what + ": " + std::to_string(to_each.size()) + " blocks for " +
                                               std::to_string(ranks_) + " ranks");
  std::vector<std::uint64_t> lengths(ranks_), incoming(ranks_);
  for (std::uint32_t r = 0; r < ranks_; ++r) lengths[r] = to_each[r].size();
  std::vector<MPI_Request> requests(1);
  check(MPI_Ialltoall(lengths.data(), 1, MPI_UINT64_T, incoming.data(), 1, MPI_UINT64_T, comm_, &requests[0]),
        "MPI_Ialltoall");
  wait(requests, what);
  std::vector<std::vector<std::byte>> from_each(ranks_);
  from_each[rank_] = to_each[rank_];
  requests.clear();
  std::vector<std::uint32_t> peers;
  for (std::uint32_t r = 0; r < ranks_; ++r) {
    if (r == rank_) continue;
    from_each[r].resize(incoming[r]);
    post_chunks(false, r, from_each[r].data(), from_each[r].size(), requests, peers);
    post_chunks(true, r, const_cast<std::byte*>(to_each[r].data()), to_each[r].size(), requests, peers);
  }
  wait(requests, what, peers);
  return from_each;
}

// Each block's length first, then its bytes: a receiver sizes its buffer before the bytes come.
std::vector<std::byte> MpiTransport::scatter_from_root(const std::vector<std::vector<std::byte>>& blocks,
                                                       const std::string& what) {
  inject_test_fault(what.rfind("Dump_Result", 0) == 0 ? "gather" : "setup");
  std::vector<MPI_Request> requests;
  std::vector<std::uint32_t> peers;
  if (rank_ == 0) {
    MEDUSA_REQUIRE(blocks.size() == ranks_, what + ": " + std::to_string(blocks.size()) + " blocks for " +
                                                std::to_string(ranks_) + " ranks");
    std::vector<std::uint64_t> lengths(ranks_);
    for (std::uint32_t r = 1; r < ranks_; ++r) {
      lengths[r] = blocks[r].size();
      MPI_Request req;
      check(MPI_Isend(&lengths[r], 1, MPI_UINT64_T, static_cast<int>(r), length_tag_, comm_, &req), "MPI_Isend");
      requests.push_back(req);
      peers.push_back(r);
      post_chunks(true, r, const_cast<std::byte*>(blocks[r].data()), blocks[r].size(), requests, peers);
    }
    wait(requests, what, peers);
    return blocks.front();
  }
  std::uint64_t length = 0;
  requests.resize(1);
  peers.assign(1, 0);
  check(MPI_Irecv(&length, 1, MPI_UINT64_T, 0, length_tag_, comm_, &requests[0]), "MPI_Irecv");
  wait(requests, what, peers);
  std::vector<std::byte> mine(length);
  requests.clear();
  peers.clear();
  post_chunks(false, 0, mine.data(), mine.size(), requests, peers);
  wait(requests, what, peers);
  return mine;
}

std::vector<std::vector<std::byte>> MpiTransport::gather_to_root(const std::vector<std::byte>& mine,
                                                                 const std::string& what) {
  inject_test_fault(what.rfind("Dump_Result", 0) == 0 ? "gather" : "setup");
  std::vector<MPI_Request> requests;
  std::vector<std::uint32_t> peers;
  if (rank_ != 0) {
    std::uint64_t length = mine.size();
    requests.resize(1);
    peers.assign(1, 0);
    check(MPI_Isend(&length, 1, MPI_UINT64_T, 0, length_tag_, comm_, &requests[0]), "MPI_Isend");
    post_chunks(true, 0, const_cast<std::byte*>(mine.data()), mine.size(), requests, peers);
    wait(requests, what, peers);
    return {};
  }
  std::vector<std::uint64_t> lengths(ranks_);
  for (std::uint32_t r = 1; r < ranks_; ++r) {
    MPI_Request req;
    check(MPI_Irecv(&lengths[r], 1, MPI_UINT64_T, static_cast<int>(r), length_tag_, comm_, &req), "MPI_Irecv");
    requests.push_back(req);
    peers.push_back(r);
  }
  wait(requests, what, peers);
  std::vector<std::vector<std::byte>> blocks(ranks_);
  blocks[0] = mine;
  requests.clear();
  peers.clear();
  for (std::uint32_t r = 1; r < ranks_; ++r) {
    blocks[r].resize(lengths[r]);
    post_chunks(false, r, blocks[r].data(), blocks[r].size(), requests, peers);
  }
  wait(requests, what, peers);
  return blocks;
}

void MpiTransport::fail_job(const std::string& cause) { transport::fail_job(cause); }

void MpiTransport::inject_test_fault(const std::string& point) const {
  const char* spec = std::getenv("MEDUSA_TEST_FAULT");
  if (spec == nullptr) return;
  const std::string s = spec;
  const std::size_t a = s.find(':'), b = s.find(':', a == std::string::npos ? a : a + 1);
  if (a == std::string::npos || b == std::string::npos) return;
  const std::string kind = s.substr(0, a);
  if (std::strtoul(s.c_str() + a + 1, nullptr, 10) != rank_ || s.substr(b + 1) != point) return;
  const bool step = point.find_first_not_of("0123456789") == std::string::npos;
  if (kind == "kill") std::raise(SIGKILL);
  if (kind == "hang")
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  if (kind == "throw")
    MEDUSA_THROW("MEDUSA_TEST_FAULT: injected failure " +
                 (step ? "at the end of superstep " + point : "at " + point));
}

}  // namespace medusa::transport
