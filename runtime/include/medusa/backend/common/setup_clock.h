// Wall time of the phases of Init_Device_DS (topology, partitioning, layouts, engines, ...), for the
// --verbose report: on big graphs set-up takes far longer than the run, and this says where.
#pragma once

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

namespace medusa::common {

class SetupClock {
 public:
  SetupClock() : start_(Clock::now()), lap_(start_) {}

  // Ends the phase that began at the last lap (or at construction) and names it.
  void lap(const char* phase) {
    const Clock::time_point now = Clock::now();
    phases_.emplace_back(phase, seconds(lap_, now));
    lap_ = now;
  }

  // "set-up 12.300 s: topology 1.200 s, ...; 20.1 s after the process started".
  std::string describe() const {
    std::string out = "set-up " + format(seconds(start_, lap_)) + ":";
    for (std::size_t i = 0; i < phases_.size(); ++i)
      out += (i ? ", " : " ") + phases_[i].first + " " + format(phases_[i].second);
    if (const double age = process_age(); age >= 0.0) out += "; " + format(age) + " after the process started";
    return out;
  }

 private:
  using Clock = std::chrono::steady_clock;
  static double seconds(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
  }
  static std::string format(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f s", s);
    return buf;
  }
  // Seconds since this process started (Linux /proc, clock-tick resolution); -1 where unknown.
  static double process_age() {
    std::ifstream stat("/proc/self/stat"), uptime("/proc/uptime");
    std::string line;
    double up = 0.0;
    if (!std::getline(stat, line) || !(uptime >> up)) return -1.0;
    // Field 22 (starttime) counts from the ')' closing the command name, which may hold spaces.
    std::size_t at = line.rfind(')');
    for (int field = 2; at != std::string::npos && field < 22; ++field) at = line.find(' ', at + 1);
    if (at == std::string::npos) return -1.0;
    const long ticks = sysconf(_SC_CLK_TCK);
    if (ticks <= 0) return -1.0;
    return up - std::stod(line.substr(at + 1)) / static_cast<double>(ticks);
  }

  Clock::time_point start_, lap_;
  std::vector<std::pair<std::string, double>> phases_;
};

}  // namespace medusa::common
