// The GPU memory ledger (ledger/memory_ledger.h): a folder per GPU, a lock file, one flock'ed file
// per reservation (".held") or waiting request (".wait"), named by arrival order and pid.
#include <medusa/backend/common/format_bytes.h>
#include <medusa/error.h>
#include <medusa/ledger/memory_ledger.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <utility>

namespace medusa::ledger {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

std::string errno_text() { return std::strerror(errno); }

// A folder everyone may add to (sticky: only the owner removes an entry). Racing creators are fine.
void make_shared_folder(const std::string& path) {
  if (::mkdir(path.c_str(), 0777) != 0 && errno != EEXIST)
    MEDUSA_THROW("cannot create the GPU memory ledger folder " + path + ": " + errno_text() +
                 "; set MEDUSA_LEDGER_DIR (Config::sharing.ledgerDir) to a writable folder, or "
                 "MEDUSA_GPU_ADMISSION=off to run without admission");
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    MEDUSA_THROW("the GPU memory ledger path " + path + " is not a folder; set MEDUSA_LEDGER_DIR");
  if (st.st_uid == ::geteuid()) ::chmod(path.c_str(), 01777);  // (others' umask must not matter)
}

// A file name is safe when it has no '/' and is not "." or "..".
std::string folder_name(const std::string& device_key) {
  std::string name;
  for (char c : device_key) name += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_') ? c : '_';
  if (name.empty()) MEDUSA_THROW("the GPU memory ledger needs a device key (a UUID or an ordinal)");
  return name;
}

// The lock of one GPU's folder, held for a few file operations.
class FolderLock {
 public:
  explicit FolderLock(const std::string& folder) {
    const std::string path = folder + "/.lock";
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd_ < 0) fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);  // (another user's lock file)
    if (fd_ < 0) MEDUSA_THROW("cannot open the GPU memory ledger lock " + path + ": " + errno_text());
    ::fchmod(fd_, 0666);
    while (::flock(fd_, LOCK_EX) != 0) {
      if (errno != EINTR) {
        ::close(fd_);
        MEDUSA_THROW("cannot lock the GPU memory ledger " + path + ": " + errno_text());
      }
    }
  }
  ~FolderLock() { ::close(fd_); }  // (closing drops the lock)
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

 private:
  int fd_ = -1;
};

struct Entry {
  Holding holding;
  std::string path;
};

// "<sequence>-<pid>.held" / ".wait"; false for anything else.
bool parse_name(const std::string& name, Holding& h) {
  const std::size_t dash = name.find('-'), dot = name.rfind('.');
  if (dash == std::string::npos || dot == std::string::npos || dot < dash) return false;
  const std::string kind = name.substr(dot + 1);
  if (kind != "held" && kind != "wait") return false;
  char* end = nullptr;
  h.sequence = std::strtoull(name.c_str(), &end, 10);
  if (end != name.c_str() + dash) return false;
  h.pid = std::strtol(name.c_str() + dash + 1, &end, 10);
  if (end != name.c_str() + dot) return false;
  h.waiting = kind == "wait";
  return true;
}

// True while some process holds the entry's flock. A dead entry is unlinked where allowed (another
// user's stays, but no longer counts).
bool alive(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;  // (released meanwhile)
  const bool locked = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  if (!locked) ::unlink(path.c_str());
  ::close(fd);
  return locked;
}

// The live entries, oldest first. Call with the folder locked.
std::vector<Entry> scan(const std::string& folder) {
  std::vector<Entry> entries;
  std::error_code ec;
  for (const auto& f : fs::directory_iterator(folder, ec)) {
    Entry e;
    if (!parse_name(f.path().filename().string(), e.holding)) continue;
    e.path = f.path().string();
    if (!alive(e.path)) continue;
    std::ifstream in(e.path);
    in >> e.holding.bytes;
    in.ignore(1);
    std::getline(in, e.holding.owner);
    entries.push_back(std::move(e));
  }
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.holding.sequence < b.holding.sequence; });
  return entries;
}

// Creates and flocks a new entry after every existing one. Call with the folder locked (a pruner
// takes the same lock, so it never sees the file before its lock).
void create_entry(const std::string& folder, const std::vector<Entry>& live, bool waiting,
                         std::uint64_t bytes, const std::string& owner, int& fd_out, std::string& path_out) {
  std::uint64_t sequence = 1;
  std::error_code ec;
  for (const auto& f : fs::directory_iterator(folder, ec)) {  // (dead ones too: names stay unique)
    Holding h;
    if (parse_name(f.path().filename().string(), h)) sequence = std::max(sequence, h.sequence + 1);
  }
  for (const Entry& e : live) sequence = std::max(sequence, e.holding.sequence + 1);
  char name[64];
  std::snprintf(name, sizeof name, "/%016llu-%ld.%s", static_cast<unsigned long long>(sequence),
                static_cast<long>(::getpid()), waiting ? "wait" : "held");
  path_out = folder + name;
  fd_out = ::open(path_out.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd_out < 0) MEDUSA_THROW("cannot create the GPU memory ledger entry " + path_out + ": " + errno_text());
  if (::flock(fd_out, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd_out);
    ::unlink(path_out.c_str());
    MEDUSA_THROW("cannot lock the GPU memory ledger entry " + path_out + ": " + errno_text());
  }
  std::string text = std::to_string(bytes) + "\n";
  for (char c : owner) text += c == '\n' ? ' ' : c;
  text += "\n";
  if (::write(fd_out, text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
    ::close(fd_out);
    ::unlink(path_out.c_str());
    MEDUSA_THROW("cannot write the GPU memory ledger entry " + path_out + ": " + errno_text());
  }
}

std::vector<Holding> holdings_of(const std::vector<Entry>& entries) {
  std::vector<Holding> h;
  for (const Entry& e : entries) h.push_back(e.holding);
  return h;
}

std::uint64_t held_bytes(const std::vector<Entry>& entries) {
  std::uint64_t sum = 0;
  for (const Entry& e : entries)
    if (!e.holding.waiting) sum += e.holding.bytes;
  return sum;
}

// Waiting requests that came before `sequence` (all of them when sequence is 0: a newcomer).
std::size_t waiting_before(const std::vector<Entry>& entries, std::uint64_t sequence) {
  std::size_t n = 0;
  for (const Entry& e : entries)
    if (e.holding.waiting && (sequence == 0 || e.holding.sequence < sequence)) ++n;
  return n;
}

std::string bytes_text(std::uint64_t b) { return common::format_bytes(b) + " (" + std::to_string(b) + " bytes)"; }

std::string situation(const Request& r, const std::vector<Entry>& entries, std::size_t queued_ahead) {
  const std::uint64_t held = held_bytes(entries);
  std::string s = "needs " + bytes_text(r.bytes) + " of " + r.device_label + "; " + common::format_bytes(held) +
                  " of its " + common::format_bytes(r.capacity) + " are reserved";
  std::vector<Holding> holders;
  for (const Entry& e : entries)
    if (!e.holding.waiting) holders.push_back(e.holding);
  if (!holders.empty()) s += " by " + describe_holdings(holders);
  if (queued_ahead > 0) s += "; " + std::to_string(queued_ahead) + " request(s) queued before this one";
  return s;
}

}  // namespace

// ---- Reservation ---------------------------------------------------------------------------------

Reservation::Reservation(Reservation&& o) noexcept
    : fd_(std::exchange(o.fd_, -1)), path_(std::move(o.path_)), bytes_(std::exchange(o.bytes_, 0)) {}

Reservation& Reservation::operator=(Reservation&& o) noexcept {
  if (this != &o) {
    release();
    fd_ = std::exchange(o.fd_, -1);
    path_ = std::move(o.path_);
    bytes_ = std::exchange(o.bytes_, 0);
  }
  return *this;
}

Reservation::~Reservation() { release(); }

void Reservation::release() {
  if (fd_ < 0) return;
  ::unlink(path_.c_str());  // (a pruner racing with this finds it gone or unlocked: both fine)
  ::close(fd_);
  fd_ = -1;
  bytes_ = 0;
}

// ---- Ledger ----------------------------------------------------------------------------------------

std::string Ledger::default_directory() {
  if (const char* env = std::getenv("MEDUSA_LEDGER_DIR"); env != nullptr && *env != '\0') return env;
  struct stat st {};
  if (::stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode)) return "/dev/shm/medusa-ledger";
  const char* tmp = std::getenv("TMPDIR");
  return std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/medusa-ledger";
}

Ledger::Ledger(std::string directory)
    : directory_(directory.empty() ? default_directory() : std::move(directory)) {
  make_shared_folder(directory_);
}

std::string Ledger::device_folder(const std::string& device_key) const {
  const std::string folder = directory_ + "/" + folder_name(device_key);
  make_shared_folder(folder);
  return folder;
}

std::vector<Holding> Ledger::holdings(const std::string& device_key) const {
  const std::string folder = device_folder(device_key);
  const FolderLock lock(folder);
  return holdings_of(scan(folder));
}

Reservation Ledger::reserve(const Request& r) const {
  if (r.bytes > r.capacity)
    MEDUSA_THROW("the GPU memory ledger cannot admit this: it needs " + bytes_text(r.bytes) + " but " +
                 r.device_label + " has only " + bytes_text(r.capacity) +
                 " for all programs together, so waiting would never help (use a larger GPU, more "
                 "GPUs with Config::gpuCount, or a smaller graph)");
  const std::string folder = device_folder(r.device_key);
  const std::string label = r.owner.empty() ? "a Medusa program" : r.owner;
  int fd = -1;
  std::string path;          // this request's ".wait" entry once it queues
  std::uint64_t sequence = 0;
  struct WaitEntry {         // removed on every way out but admission
    int& fd;
    std::string& path;
    ~WaitEntry() {
      if (fd >= 0) Reservation(fd, path, 0).release();
    }
  } wait_entry{fd, path};
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(r.timeout);
  bool announced = false;
  for (;;) {
    {
      const FolderLock lock(folder);
      const std::vector<Entry> entries = scan(folder);
      const std::size_t ahead = waiting_before(entries, sequence);
      if (held_bytes(entries) + r.bytes <= r.capacity && ahead == 0) {
        if (fd < 0) {
          int new_fd = -1;
          std::string new_path;
          create_entry(folder, entries, false, r.bytes, label, new_fd, new_path);
          return Reservation(new_fd, new_path, r.bytes);
        }
        std::string held_path = path.substr(0, path.size() - 4) + "held";
        if (::rename(path.c_str(), held_path.c_str()) != 0)
          MEDUSA_THROW("cannot admit the GPU memory ledger entry " + path + ": " + errno_text());
        Reservation admitted(std::exchange(fd, -1), held_path, r.bytes);
        if (announced && r.notice != nullptr)
          std::fprintf(r.notice, "medusa: admitted %s on %s\n", common::format_bytes(r.bytes).c_str(),
                       r.device_label.c_str());
        return admitted;
      }
      if (r.wait == WaitPolicy::FailAtOnce)
        MEDUSA_THROW("not enough GPU memory now: " + label + " " + situation(r, entries, ahead) +
                     ". Config::sharing.admission = GpuAdmission::Wait (MEDUSA_GPU_ADMISSION=wait) queues "
                     "until they are released");
      if (Clock::now() >= deadline)
        MEDUSA_THROW("gave up waiting for GPU memory after " + std::to_string(r.timeout.count()) + " s: " +
                     label + " " + situation(r, entries, ahead) +
                     ". Raise Config::sharing.waitSeconds (MEDUSA_GPU_WAIT_SECONDS), or see what holds "
                     "the GPU with `medusa-ledger list`");
      if (fd < 0) {
        create_entry(folder, entries, true, r.bytes, label, fd, path);
        Holding h;
        parse_name(fs::path(path).filename().string(), h);
        sequence = h.sequence;
      }
      if (!announced && r.notice != nullptr) {
        std::fprintf(r.notice, "medusa: waiting for GPU memory (up to %g s): %s %s\n", r.timeout.count(),
                     label.c_str(), situation(r, entries, ahead).c_str());
        std::fflush(r.notice);
        announced = true;
      }
    }
    std::this_thread::sleep_for(std::min<Clock::duration>(r.poll, deadline - Clock::now()));
  }
}

std::string describe_holdings(const std::vector<Holding>& holdings) {
  std::string s;
  for (const Holding& h : holdings) {
    if (!s.empty()) s += ", ";
    s += "pid " + std::to_string(h.pid) + " (" + (h.owner.empty() ? "?" : h.owner) + ": " +
         common::format_bytes(h.bytes) + (h.waiting ? ", waiting" : "") + ")";
  }
  return s.empty() ? "nobody" : s;
}

}  // namespace medusa::ledger
