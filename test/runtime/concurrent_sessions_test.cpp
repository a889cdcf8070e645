// Sessions run concurrently, each on its own thread: the votes and superstep that Continue(),
// Halt() and Superstep() reach are each session's own (no global they share). Backend-neutral.
#define MEDUSA_GENERATED 1
#include <medusa/medusa.h>

#include "support/emv_launch.h"

#include <catch2/catch.hpp>

#include <array>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

namespace concurrent_test {
struct Vertex {
  int until = 0;  // vote Continue() while Superstep() < until
  int last = -1;  // the last superstep this vertex saw
};
struct Edge {};
}  // namespace concurrent_test

template <>
struct medusa::ProgramTraits<concurrent_test::Vertex, concurrent_test::Edge> {
  using Vertex = concurrent_test::Vertex;
  using Edge = concurrent_test::Edge;
  using Message = int;
  struct VertexArrays {
    int* until;
    int* last;
  };
  struct EdgeArrays {};
  static constexpr std::array<medusa::FieldSpec, 2> vertex_fields{{
      {"until", offsetof(Vertex, until), sizeof(int), medusa::kUpload},
      {"last", offsetof(Vertex, last), sizeof(int), medusa::kUpload | medusa::kDownload},
  }};
  static constexpr std::array<medusa::FieldSpec, 0> edge_fields{};
  static VertexArrays bind_vertex(void* const* a) { return {static_cast<int*>(a[0]), static_cast<int*>(a[1])}; }
  static EdgeArrays bind_edge(void* const*) { return {}; }
  static constexpr medusa::ProgramUses uses = medusa::ProgramUses::of(medusa::kUsesContinueVote);
};

namespace concurrent_test {
using Program = medusa::ProgramTraits<Vertex, Edge>;

struct VertexProxy : medusa::VertexHandle<int> {
  const int& until;
  int& last;
};
struct Vote {
  MEDUSA_HD void operator()(VertexProxy& v) const {
    const int s = static_cast<int>(medusa::Superstep());
    v.last = s;
    if (s < v.until) medusa::Continue();
  }
};
struct Vote_element {
  Vote f;
  MEDUSA_HD void operator()(const medusa::KernelCtx<int>& c, const Program::VertexArrays& va,
                            const Program::EdgeArrays&, medusa::VertexId id) const {
    VertexProxy v{{&c, id}, va.until[id], va.last[id]};
    f(v);
  }
};
}  // namespace concurrent_test

MEDUSA_TEST_EMV_LAUNCH(concurrent_test::Vote, VERTEX, concurrent_test::Vote_element, concurrent_test::Program)

using namespace concurrent_test;

namespace {

// Holds each session's superstep until every running session has begun the same superstep, so
// that they all issue their launches after all of them set up their votes.
class Lockstep {
 public:
  explicit Lockstep(int sessions) : running_(sessions) {}
  void arrive() {
    std::unique_lock<std::mutex> lock(mutex_);
    const unsigned generation = generation_;
    if (++arrived_ >= running_) return release();
    cv_.wait(lock, [&] { return generation_ != generation; });
  }
  void leave() {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (--running_ > 0 && arrived_ >= running_) release();
  }

 private:
  void release() {  // (mutex held)
    arrived_ = 0;
    ++generation_;
    cv_.notify_all();
  }
  std::mutex mutex_;
  std::condition_variable cv_;
  int running_, arrived_ = 0;
  unsigned generation_ = 0;
};
Lockstep* lockstep = nullptr;

void iteration() {
  lockstep->arrive();
  medusa::EMV<medusa::VERTEX>::Run(Vote{});
}

}  // namespace

TEST_CASE("Sessions on their own threads, superstep by superstep, each stop on their own votes", "[runtime]") {
  constexpr int kSessions = 4;
  Lockstep steps(kSessions);
  lockstep = &steps;
  std::vector<medusa::RunStats> stats(kSessions);
  std::vector<std::vector<int>> last(kSessions);
  std::vector<std::thread> threads;
  for (int k = 0; k < kSessions; ++k) {
    threads.emplace_back([&, k] {
      const int until = 2 + 3 * k;  // session k votes until superstep 2 + 3k
      medusa::Graph<Vertex, Edge> g(64);
      for (Vertex& v : g.vertices()) v.until = until;
      struct Leave {  // (also when the session throws: the others must not wait for it)
        Lockstep& steps;
        ~Leave() { steps.leave(); }
      };
      {
        const Leave leave{steps};
        auto device = medusa::Init_Device_DS(g);
        stats[k] = device.Run(iteration);
        device.Dump_Result(g);
      }
      for (const Vertex& v : g.vertices()) last[k].push_back(v.last);
    });
  }
  for (auto& t : threads) t.join();
  lockstep = nullptr;
  for (int k = 0; k < kSessions; ++k) {
    INFO("session " << k);
    CHECK(stats[k].supersteps == static_cast<std::uint32_t>(3 + 3 * k));  // the first without a vote ends it
    CHECK(stats[k].stop_reason == "no continue vote");
    for (int l : last[k]) CHECK(l == 2 + 3 * k);
  }
}
