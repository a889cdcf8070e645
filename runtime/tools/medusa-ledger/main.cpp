// medusa-ledger: shows what holds each GPU in the machine-wide GPU memory ledger, and holds a
// reservation itself (for tests and for trying the queue by hand).
#include <medusa/error.h>
#include <medusa/ledger/memory_ledger.h>

#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <thread>

namespace {

void print_help(std::FILE* out) {
  std::fprintf(out,
               "usage: medusa-ledger list [--dir D]\n"
               "       medusa-ledger hold --device KEY --bytes N --capacity N [options]\n"
               "list: every GPU folder of the ledger and its live reservations and waiting requests.\n"
               "hold: reserves N bytes of KEY's capacity, prints `admitted <pid> <monotonic ns>`,\n"
               "holds them, then prints `released <pid> <monotonic ns>` and exits 0 (3 if not admitted).\n"
               "  --dir D         the ledger folder (default $MEDUSA_LEDGER_DIR, else /dev/shm/medusa-ledger)\n"
               "  --fail          fail at once when the room is not free (default: wait)\n"
               "  --timeout S     seconds to wait (default 60)\n"
               "  --hold-ms MS    how long to hold (default 0; -1: until killed)\n"
               "  --owner TEXT    what the reservation is for (shown to others)\n");
}

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "medusa-ledger: %s\n(run medusa-ledger --help for usage)\n", message.c_str());
  std::exit(2);
}

long long parse_number(const std::string& option, const char* text) {
  char* end = nullptr;
  const long long v = std::strtoll(text, &end, 10);
  if (end == text || *end != '\0') usage_error(option + " needs a whole number, not '" + text + "'");
  return v;
}

long long monotonic_ns() {  // CLOCK_MONOTONIC: one clock for every process of the machine
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<long long>(t.tv_sec) * 1000000000LL + t.tv_nsec;
}

int list(const medusa::ledger::Ledger& ledger) {
  std::error_code ec;
  for (const auto& folder : std::filesystem::directory_iterator(ledger.directory(), ec)) {
    if (!folder.is_directory()) continue;
    const std::string key = folder.path().filename().string();
    std::printf("%s:\n", key.c_str());
    for (const auto& h : ledger.holdings(key))
      std::printf("  #%llu pid %ld %s %llu bytes  %s\n", static_cast<unsigned long long>(h.sequence), h.pid,
                  h.waiting ? "waits for" : "holds", static_cast<unsigned long long>(h.bytes), h.owner.c_str());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) try {
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
    print_help(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  const std::string command = argv[1];
  std::string dir, owner = "medusa-ledger hold";
  medusa::ledger::Request r;
  r.timeout = std::chrono::duration<double>(60.0);
  long long hold_ms = 0;
  bool have_bytes = false, have_capacity = false;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) usage_error(a + " needs a value");
      return argv[++i];
    };
    if (a == "--dir") dir = value();
    else if (a == "--device") r.device_key = value();
    else if (a == "--bytes") r.bytes = static_cast<std::uint64_t>(parse_number(a, value())), have_bytes = true;
    else if (a == "--capacity") r.capacity = static_cast<std::uint64_t>(parse_number(a, value())), have_capacity = true;
    else if (a == "--fail") r.wait = medusa::ledger::WaitPolicy::FailAtOnce;
    else if (a == "--timeout") r.timeout = std::chrono::duration<double>(std::atof(value()));
    else if (a == "--hold-ms") hold_ms = parse_number(a, value());
    else if (a == "--owner") owner = value();
    else usage_error("unknown option " + a);
  }
  const medusa::ledger::Ledger ledger(dir);
  if (command == "list") return list(ledger);
  if (command != "hold") usage_error("unknown command " + command);
  if (r.device_key.empty() || !have_bytes || !have_capacity) usage_error("hold needs --device, --bytes and --capacity");
  r.device_label = "device " + r.device_key;
  r.owner = owner;
  medusa::ledger::Reservation held;
  try {
    held = ledger.reserve(r);
  } catch (const medusa::Error& e) {
    std::fprintf(stderr, "not admitted: %s\n", e.message().c_str());
    return 3;
  }
  std::printf("admitted %ld %lld\n", static_cast<long>(getpid()), monotonic_ns());
  std::fflush(stdout);
  if (hold_ms < 0)
    for (;;) pause();
  std::this_thread::sleep_for(std::chrono::milliseconds(hold_ms));
  const long long released_at = monotonic_ns();
  held.release();
  std::printf("released %ld %lld\n", static_cast<long>(getpid()), released_at);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "medusa-ledger: %s\n", e.what());
  return 1;
}
