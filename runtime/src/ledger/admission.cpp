// Config::sharing and the MEDUSA_GPU_* environment variables (docs/tuning.md).
#include <medusa/error.h>
#include <medusa/ledger/admission.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>

namespace medusa::ledger {
namespace {

void require_valid_timeout(double seconds, const std::string& where) {
  if (!(std::isfinite(seconds) && seconds > 0))
    MEDUSA_THROW(where + " = " + std::to_string(seconds) +
                 " is not a timeout: give the seconds to wait for GPU memory (> 0), or "
                 "GpuAdmission::FailAtOnce (MEDUSA_GPU_ADMISSION=fail) not to wait");
}

}  // namespace

Sharing resolve_sharing(Sharing s) {
  if (const char* env = std::getenv("MEDUSA_GPU_ADMISSION"); env != nullptr && *env != '\0') {
    const std::string v = env;
    if (v == "wait") s.admission = GpuAdmission::Wait;
    else if (v == "fail") s.admission = GpuAdmission::FailAtOnce;
    else if (v == "off") s.admission = GpuAdmission::Off;
    else
      MEDUSA_THROW("MEDUSA_GPU_ADMISSION=" + v +
                   " is not a value Medusa knows; use one of: wait, fail, off (or unset it); "
                   "docs/tuning.md lists the settings");
  }
  if (const char* env = std::getenv("MEDUSA_GPU_WAIT_SECONDS"); env != nullptr && *env != '\0') {
    char* end = nullptr;
    errno = 0;
    const double seconds = std::strtod(env, &end);
    if (end == env || *end != '\0' || errno != 0)
      MEDUSA_THROW(std::string("MEDUSA_GPU_WAIT_SECONDS=") + env +
                   " is not a number of seconds; give one > 0 (or unset it)");
    require_valid_timeout(seconds, "MEDUSA_GPU_WAIT_SECONDS");
    s.waitSeconds = seconds;
  }
  if (const char* env = std::getenv("MEDUSA_GPU_CAPACITY"); env != nullptr && *env != '\0') {
    char* end = nullptr;
    errno = 0;
    const unsigned long long number = std::strtoull(env, &end, 10);
    int shift = 0;
    if (*end != '\0' && end[1] == '\0') {
      const std::string units = "KMGT";
      const std::size_t unit = units.find(static_cast<char>(std::toupper(static_cast<unsigned char>(*end))));
      if (unit != std::string::npos) shift = 10 * static_cast<int>(unit + 1), ++end;
    }
    if (end == env || *end != '\0' || errno != 0 || env[0] == '-' || number == 0 || (number >> (63 - shift)) != 0)
      MEDUSA_THROW(std::string("MEDUSA_GPU_CAPACITY=") + env +
                   " is not a capacity: give the bytes the ledger may hand out per GPU, > 0 (40G, 512M, "
                   "1073741824), or unset it for the GPU's memory");
    s.capacityBytes = static_cast<std::uint64_t>(number) << shift;
  }
  if (s.admission == GpuAdmission::Wait) require_valid_timeout(s.waitSeconds, "Config::sharing.waitSeconds");
  if (s.ledgerDir.empty()) s.ledgerDir = Ledger::default_directory();
  return s;
}

std::string describe_sharing(const Sharing& s) {
  switch (s.admission) {
    case GpuAdmission::Wait: {
      char buf[64];
      std::snprintf(buf, sizeof buf, "wait up to %g s", s.waitSeconds);
      return buf + std::string(" (ledger ") + s.ledgerDir + ")";
    }
    case GpuAdmission::FailAtOnce: return "fail at once (ledger " + s.ledgerDir + ")";
    case GpuAdmission::Off: return "off";
  }
  return "?";
}

Request make_request(const Sharing& s, std::string device_key, std::string device_label, std::uint64_t bytes,
                     std::uint64_t capacity, std::string owner) {
  Request r;
  r.device_key = std::move(device_key);
  r.device_label = std::move(device_label);
  r.bytes = bytes;
  r.capacity = capacity;
  r.wait = s.admission == GpuAdmission::FailAtOnce ? WaitPolicy::FailAtOnce : WaitPolicy::Wait;
  r.timeout = std::chrono::duration<double>(s.waitSeconds);
  r.owner = std::move(owner);
  return r;
}

std::string process_name() {
  std::ifstream comm("/proc/self/comm");
  std::string name;
  if (!std::getline(comm, name) || name.empty()) name = "medusa";
  return name;
}

}  // namespace medusa::ledger
