// The machine-wide GPU memory ledger: every Medusa process of a machine reserves the device bytes it
// will allocate here before it allocates them, so that several programs on one GPU queue instead of
// failing out of memory halfway (docs/programming-guide.md, "Sharing a GPU").
//
// A ledger is a directory (default /dev/shm/medusa-ledger) with one folder per GPU. A folder holds a
// lock file, taken briefly (flock) around every look and change, and one small file per reservation
// or waiting request. Each such file stays flock'ed by its owner while it lives: the kernel drops the
// lock when the owner exits or is killed, so a file nobody locks is dead and is pruned. Nothing
// depends on pids, which the system reuses.
//
// Admission is first come, first served: a request is admitted when it fits beside the live
// reservations and no live request that came before it still waits. One lock taken for a few file
// operations and never held while waiting: the ledger cannot deadlock, and it never admits more
// than the capacity. (A process that holds a reservation and waits for another on the same GPU can
// still wait for itself: the timeout ends that.)
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace medusa::ledger {

// What a request does when the GPU lacks the room now.
enum class WaitPolicy { FailAtOnce, Wait };

struct Request {
  std::string device_key;    // names the GPU's folder: its UUID ("GPU-8d2f...") or "gpu0"
  std::string device_label;  // for messages: "NVIDIA H100 80GB HBM3 (GPU 0)"
  std::uint64_t bytes = 0;
  std::uint64_t capacity = 0;  // the bytes the ledger hands out on this GPU, all processes together
  WaitPolicy wait = WaitPolicy::Wait;
  std::chrono::duration<double> timeout{3600.0};  // Wait only
  std::string owner;            // what the bytes are for, shown to others: "bfs_q: Session (V=.., E=..)"
  std::FILE* notice = stderr;   // where a waiting request says (once) what it waits for; null: nowhere
  std::chrono::milliseconds poll{20};  // how often a waiting request looks again
};

// One live entry of a GPU's folder, for messages and `medusa-ledger list`.
struct Holding {
  std::uint64_t sequence = 0;  // order of arrival
  bool waiting = false;        // a queued request, not yet admitted
  std::uint64_t bytes = 0;
  long pid = 0;
  std::string owner;
};

// A reservation: released when destroyed (or by release()), and by the kernel when the process dies.
class Reservation {
 public:
  Reservation() = default;
  Reservation(Reservation&& other) noexcept;
  Reservation& operator=(Reservation&& other) noexcept;
  Reservation(const Reservation&) = delete;
  Reservation& operator=(const Reservation&) = delete;
  ~Reservation();

  bool held() const { return fd_ >= 0; }
  std::uint64_t bytes() const { return bytes_; }
  const std::string& path() const { return path_; }
  void release();

 private:
  friend class Ledger;
  Reservation(int fd, std::string path, std::uint64_t bytes) : fd_(fd), path_(std::move(path)), bytes_(bytes) {}
  int fd_ = -1;
  std::string path_;
  std::uint64_t bytes_ = 0;
};

class Ledger {
 public:
  // Opens (creating it, world-writable and sticky, when missing) the ledger in `directory`; empty:
  // default_directory(). Throws medusa::Error when it cannot.
  explicit Ledger(std::string directory = {});

  // $MEDUSA_LEDGER_DIR when set, else /dev/shm/medusa-ledger (or $TMPDIR / /tmp without /dev/shm).
  static std::string default_directory();

  // Admits the request or throws medusa::Error: at once when bytes > capacity or when the policy is
  // FailAtOnce and the GPU lacks the room; after the timeout when waiting does not help.
  Reservation reserve(const Request& request) const;

  // The live entries of one GPU's folder, oldest first (prunes the dead ones).
  std::vector<Holding> holdings(const std::string& device_key) const;

  const std::string& directory() const { return directory_; }

 private:
  std::string device_folder(const std::string& device_key) const;
  std::string directory_;
};

// "12 MiB"-style sizes and "pid 7 (bfs_q: 1.2 GiB), ..." lists, for messages.
std::string describe_holdings(const std::vector<Holding>& holdings);

}  // namespace medusa::ledger
