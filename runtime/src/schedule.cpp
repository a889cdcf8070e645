// The schedules generated code registered (schedule.h), by iteration function.
#include <medusa/schedule.h>

#include <map>
#include <mutex>

namespace medusa::detail {
namespace {

struct Registry {
  std::mutex mutex;
  std::map<ScheduledFunction, RegisteredSchedule> schedules;
};
Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

bool register_schedule(ScheduledFunction function, const Schedule& schedule, const char* where) {
  if (function == nullptr) return false;
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  r.schedules[function] = RegisteredSchedule{schedule, where != nullptr ? where : ""};
  return true;
}

const RegisteredSchedule* schedule_of(ScheduledFunction function) {
  Registry& r = registry();
  const std::lock_guard<std::mutex> lock(r.mutex);
  const auto at = r.schedules.find(function);
  return at == r.schedules.end() ? nullptr : &at->second;  // (entries are never erased)
}

}  // namespace medusa::detail
