// One Device::Run of an iteration function with a source schedule (schedule.h): the session runs
// it with the schedule applied to the settings that its Config and the environment left at auto,
// and with its own Config again after it (also when the Run throws).
#pragma once

#include <medusa/config.h>
#include <medusa/schedule.h>
#include <medusa/tuning.h>

#include <cstdio>

namespace medusa::common {

// Session: has `Config conf_` and `void use_config(const Config&)` (it befriends this class).
template <class Session>
class ScheduledRun {
 public:
  ScheduledRun(Session& session, const medusa::detail::RegisteredSchedule* schedule)
      : session_(session), session_conf_(session.conf_), applied_(schedule != nullptr) {
    if (!applied_) return;
    session_.use_config(apply_schedule(session_conf_, schedule->schedule));
    if (session_.conf_.verbose)
      std::fprintf(stderr, "%s (this Run)\n", describe_tuning(session_.conf_, &session_conf_, schedule->where).c_str());
  }
  ~ScheduledRun() {
    if (applied_) session_.use_config(session_conf_);
  }
  ScheduledRun(const ScheduledRun&) = delete;
  ScheduledRun& operator=(const ScheduledRun&) = delete;

 private:
  Session& session_;
  const Config session_conf_;
  const bool applied_;
};

}  // namespace medusa::common
