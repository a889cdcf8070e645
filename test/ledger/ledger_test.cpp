// The GPU memory ledger with a fake capacity: admission, queueing across processes, a killed
// holder, the timeout and a request larger than the whole GPU.
#include <medusa/error.h>
#include <medusa/ledger/memory_ledger.h>

#include <catch2/catch.hpp>

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace {

using medusa::ledger::Ledger;
using medusa::ledger::Request;
using medusa::ledger::WaitPolicy;
using Clock = std::chrono::steady_clock;

// A fresh ledger folder per test, removed afterwards.
struct TempLedger {
  std::string dir;
  TempLedger() {
    char name[] = "/tmp/medusa-ledger-test-XXXXXX";
    REQUIRE(mkdtemp(name) != nullptr);
    dir = name;
  }
  ~TempLedger() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

Request request(std::uint64_t bytes, std::uint64_t capacity, WaitPolicy wait, double timeout = 10.0) {
  Request r;
  r.device_key = "fake-gpu";
  r.device_label = "the fake GPU";
  r.bytes = bytes;
  r.capacity = capacity;
  r.wait = wait;
  r.timeout = std::chrono::duration<double>(timeout);
  r.owner = "ledger test";
  r.notice = nullptr;
  r.poll = std::chrono::milliseconds(5);
  return r;
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const medusa::Error& e) {
    return e.message();
  }
  return "(no error)";
}

// A medusa-ledger process whose stdout the test reads.
struct Child {
  pid_t pid = -1;
  std::FILE* out = nullptr;

  explicit Child(const std::vector<std::string>& args) {
    int fds[2];
    REQUIRE(pipe(fds) == 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    std::vector<std::string> all{MEDUSA_LEDGER_TOOL};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    REQUIRE(posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) == 0);
    posix_spawn_file_actions_destroy(&actions);
    close(fds[1]);
    out = fdopen(fds[0], "r");
  }
  ~Child() {
    if (pid > 0) {
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
    }
    if (out != nullptr) std::fclose(out);
  }
  std::string line() {
    char buf[256];
    return std::fgets(buf, sizeof buf, out) != nullptr ? std::string(buf) : std::string();
  }
  // The exit status, or 128 + the signal that ended it.
  int wait() {
    int status = 0;
    waitpid(pid, &status, 0);
    pid = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
};

std::vector<std::string> hold_args(const TempLedger& t, std::uint64_t bytes, std::uint64_t capacity, long hold_ms,
                                   double timeout = 30.0) {
  return {"hold", "--dir", t.dir, "--device", "fake-gpu", "--bytes", std::to_string(bytes), "--capacity",
          std::to_string(capacity), "--hold-ms", std::to_string(hold_ms), "--timeout", std::to_string(timeout)};
}

}  // namespace

TEST_CASE("ledger: reservations within the capacity are admitted, and released by their owner", "[ledger]") {
  TempLedger t;
  const Ledger ledger(t.dir);
  auto a = ledger.reserve(request(60, 100, WaitPolicy::FailAtOnce));
  auto b = ledger.reserve(request(40, 100, WaitPolicy::FailAtOnce));
  CHECK(a.held());
  CHECK(b.held());
  CHECK(ledger.holdings("fake-gpu").size() == 2);
  const std::string full = message_of([&] { ledger.reserve(request(1, 100, WaitPolicy::FailAtOnce)); });
  CHECK_THAT(full, Catch::Contains("not enough GPU memory now"));
  CHECK_THAT(full, Catch::Contains("pid " + std::to_string(getpid()) + " (ledger test: 60 B)"));
  b.release();
  CHECK(ledger.holdings("fake-gpu").size() == 1);
  CHECK(ledger.reserve(request(40, 100, WaitPolicy::FailAtOnce)).held());
}

TEST_CASE("ledger: a request larger than the whole GPU fails at once, even when waiting", "[ledger]") {
  TempLedger t;
  const Ledger ledger(t.dir);
  const auto start = Clock::now();
  const std::string m = message_of([&] { ledger.reserve(request(101, 100, WaitPolicy::Wait, 30.0)); });
  CHECK(Clock::now() - start < std::chrono::seconds(1));
  CHECK_THAT(m, Catch::Contains("has only 100 B (100 bytes) for all programs together"));
  CHECK_THAT(m, Catch::Contains("waiting would never help"));
  CHECK(ledger.holdings("fake-gpu").empty());
}

TEST_CASE("ledger: a wait that does not get the room ends with a clear error after the timeout", "[ledger]") {
  TempLedger t;
  const Ledger ledger(t.dir);
  auto holder = ledger.reserve(request(80, 100, WaitPolicy::FailAtOnce));
  const auto start = Clock::now();
  const std::string m = message_of([&] { ledger.reserve(request(30, 100, WaitPolicy::Wait, 0.3)); });
  const double waited = std::chrono::duration<double>(Clock::now() - start).count();
  CHECK(waited >= 0.3);
  CHECK(waited < 3.0);
  CHECK_THAT(m, Catch::Contains("gave up waiting for GPU memory after 0.3"));
  CHECK_THAT(m, Catch::Contains("needs 30 B (30 bytes) of the fake GPU; 80 B of its 100 B are reserved by pid"));
  CHECK(ledger.holdings("fake-gpu").size() == 1);  // (the waiting request is gone)
}

TEST_CASE("ledger: a waiting request says once what it waits for", "[ledger]") {
  TempLedger t;
  const Ledger ledger(t.dir);
  auto holder = ledger.reserve(request(80, 100, WaitPolicy::FailAtOnce));
  std::FILE* notice = std::tmpfile();
  Request r = request(30, 100, WaitPolicy::Wait, 0.2);
  r.notice = notice;
  message_of([&] { ledger.reserve(r); });
  std::rewind(notice);
  std::string text;
  for (int c; (c = std::fgetc(notice)) != EOF;) text += static_cast<char>(c);
  std::fclose(notice);
  CHECK(std::count(text.begin(), text.end(), '\n') == 1);
  CHECK_THAT(text, Catch::StartsWith("medusa: waiting for GPU memory (up to 0.2 s): ledger test needs 30 B"));
}

TEST_CASE("ledger: first come, first served: a newcomer does not pass a waiting request", "[ledger]") {
  TempLedger t;
  const Ledger ledger(t.dir);
  auto holder = ledger.reserve(request(60, 100, WaitPolicy::FailAtOnce));
  Child big(hold_args(t, 80, 100, 0));  // waits for 80
  for (int i = 0; i < 400 && ledger.holdings("fake-gpu").size() < 2; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  REQUIRE(ledger.holdings("fake-gpu").size() == 2);
  CHECK(ledger.holdings("fake-gpu")[1].waiting);
  // 30 would fit beside the 60 held, but the 80 came first.
  const std::string m = message_of([&] { ledger.reserve(request(30, 100, WaitPolicy::FailAtOnce)); });
  CHECK_THAT(m, Catch::Contains("1 request(s) queued before this one"));
  holder.release();
  CHECK_THAT(big.line(), Catch::StartsWith("admitted"));
  CHECK(big.wait() == 0);
}

TEST_CASE("ledger: concurrent processes that together exceed the capacity all finish, queued", "[ledger]") {
  TempLedger t;
  constexpr int kJobs = 6;
  constexpr std::uint64_t kCapacity = 100, kBytes = 40;  // two at a time
  std::vector<std::unique_ptr<Child>> jobs;
  for (int i = 0; i < kJobs; ++i) jobs.push_back(std::make_unique<Child>(hold_args(t, kBytes, kCapacity, 100)));
  struct Event {
    long long ns;
    int delta;
  };
  std::vector<Event> events;
  for (auto& job : jobs) {
    std::istringstream admitted(job->line()), released(job->line());
    std::string word;
    long pid = 0;
    long long a = 0, r = 0;
    admitted >> word >> pid >> a;
    REQUIRE(word == "admitted");
    released >> word >> pid >> r;
    REQUIRE(word == "released");
    events.push_back({a, +1});
    events.push_back({r, -1});
    CHECK(job->wait() == 0);
  }
  // (Each process's interval lies within its reservation: admitted after, released before.)
  std::sort(events.begin(), events.end(),
            [](const Event& x, const Event& y) { return x.ns != y.ns ? x.ns < y.ns : x.delta < y.delta; });
  int holding = 0, most = 0;
  for (const Event& e : events) most = std::max(most, holding += e.delta);
  CHECK(most <= static_cast<int>(kCapacity / kBytes));
  CHECK(most >= 1);
  CHECK(Ledger(t.dir).holdings("fake-gpu").empty());
}

TEST_CASE("ledger: a killed holder frees its reservation and a waiter proceeds", "[ledger]") {
  TempLedger t;
  const Ledger ledger(t.dir);
  Child holder(hold_args(t, 90, 100, -1));  // holds until killed
  REQUIRE_THAT(holder.line(), Catch::StartsWith("admitted"));
  std::thread killer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    kill(holder.pid, SIGKILL);
  });
  const auto start = Clock::now();
  medusa::ledger::Reservation waiter;
  const std::string error = message_of([&] { waiter = ledger.reserve(request(50, 100, WaitPolicy::Wait, 10.0)); });
  killer.join();
  CHECK(error == "(no error)");
  CHECK(waiter.held());
  CHECK(Clock::now() - start >= std::chrono::milliseconds(150));
  CHECK(holder.wait() == 128 + SIGKILL);
  const auto live = ledger.holdings("fake-gpu");
  REQUIRE(live.size() == 1);
  CHECK(live[0].pid == getpid());
}

TEST_CASE("ledger: a process that dies while it waits leaves no queue behind", "[ledger]") {
  TempLedger t;
  const Ledger ledger(t.dir);
  auto holder = ledger.reserve(request(60, 100, WaitPolicy::FailAtOnce));
  {
    Child waiter(hold_args(t, 80, 100, 0));
    for (int i = 0; i < 400 && ledger.holdings("fake-gpu").size() < 2; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    REQUIRE(ledger.holdings("fake-gpu").size() == 2);
    kill(waiter.pid, SIGKILL);
    CHECK(waiter.wait() == 128 + SIGKILL);
  }
  CHECK(ledger.reserve(request(30, 100, WaitPolicy::FailAtOnce)).held());  // nobody queued before it now
}

TEST_CASE("ledger: medusa-ledger reports a request it cannot admit", "[ledger]") {
  TempLedger t;
  Child too_big(hold_args(t, 200, 100, 0));
  CHECK(too_big.wait() == 3);
}
