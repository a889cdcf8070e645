// The table of schedule variables: each MEDUSA_* name, its values and the Config field it sets.
#include <medusa/config.h>
#include <medusa/error.h>
#include <medusa/schedule.h>
#include <medusa/tuning.h>

#include <cstdlib>
#include <exception>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace medusa {
namespace {

struct Setting {
  const char* variable;
  std::vector<std::string> values;  // the first is what Auto (or the default) prints as
  std::function<int(const Config&)> get;
  std::function<void(Config&, int)> set;
  // The value a source schedule asks for (schedule.h), or -1: the settings a schedule names.
  std::function<int(const Schedule&)> scheduled = [](const Schedule&) { return -1; };
};

template <class T>
using FieldOf = std::function<T&(Config&)>;
template <class T>
FieldOf<T> of_config(T Config::*f) { return [f](Config& c) -> T& { return c.*f; }; }
template <class T>
FieldOf<T> of_tuning(T Tuning::*f) { return [f](Config& c) -> T& { return c.tuning.*f; }; }

template <class T>
Setting setting(const char* variable, FieldOf<T> field, std::vector<std::pair<const char*, T>> values) {
  Setting s{variable, {}, {}, {}};
  for (const auto& v : values) s.values.emplace_back(v.first);
  s.get = [field, values](const Config& c) {
    const T current = field(const_cast<Config&>(c));
    for (std::size_t i = 0; i < values.size(); ++i)
      if (values[i].second == current) return static_cast<int>(i);
    return -1;
  };
  s.set = [field, values](Config& c, int i) { field(c) = values[static_cast<std::size_t>(i)].second; };
  return s;
}
Setting toggle(const char* variable, Toggle Tuning::*field, const char* on = "on", const char* off = "off") {
  return setting<Toggle>(variable, of_tuning(field), {{"auto", Toggle::Auto}, {on, Toggle::On}, {off, Toggle::Off}});
}
// `s` with the schedule's `field` as its source: its enumerators are in the order of s's values.
template <class T>
Setting from_schedule(Setting s, T Schedule::*field) {
  s.scheduled = [field](const Schedule& schedule) {
    const int i = static_cast<int>(schedule.*field);
    return i == 0 ? -1 : i;
  };
  return s;
}

// Config::pullFusion is on unless asked (so "on" counts as auto); a schedule may only switch it off.
Setting pull_fusion_setting() {
  Setting s = setting<bool>("MEDUSA_PULL_FUSION", of_config(&Config::pullFusion), {{"on", true}, {"off", false}});
  s.scheduled = [](const Schedule& schedule) { return schedule.gatherFusion == Toggle::Off ? 1 : -1; };
  return s;
}

const std::vector<Setting>& settings() {
  static const std::vector<Setting> table = {
      setting<VertexOrder>("MEDUSA_VERTEX_ORDER", of_config(&Config::vertexOrder),
                           {{"auto", VertexOrder::Auto}, {"input", VertexOrder::Input}, {"degree", VertexOrder::Degree}}),
      pull_fusion_setting(),
      from_schedule(setting<FrontierPull>("MEDUSA_FRONTIER_PULL", of_tuning(&Tuning::frontierPull),
                                          {{"auto", FrontierPull::Auto},
                                           {"always", FrontierPull::Always},
                                           {"never", FrontierPull::Never}}),
                    &Schedule::frontierPull),
      from_schedule(setting<SuperstepBatching>("MEDUSA_SUPERSTEP_BATCH", of_tuning(&Tuning::superstepBatch),
                                               {{"auto", SuperstepBatching::Auto},
                                                {"always", SuperstepBatching::Always},
                                                {"off", SuperstepBatching::Off}}),
                    &Schedule::superstepBatch),
      toggle("MEDUSA_BATCH_REPLAY", &Tuning::batchReplay),
      setting<QueueExpand>("MEDUSA_QUEUE_EXPAND", of_tuning(&Tuning::queueExpand),
                          {{"auto", QueueExpand::Auto}, {"groups", QueueExpand::Groups}, {"balanced", QueueExpand::Balanced}}),
      from_schedule(toggle("MEDUSA_PUSH_COMBINE", &Tuning::pushCombine), &Schedule::pushCombine),
      from_schedule(toggle("MEDUSA_SOURCE_PREFETCH", &Tuning::sourcePrefetch), &Schedule::sourcePrefetch),
      from_schedule(toggle("MEDUSA_VERTEX_FUSION", &Tuning::vertexFusion), &Schedule::vertexFusion),
      from_schedule(toggle("MEDUSA_END_FUSION", &Tuning::endFusion), &Schedule::endFusion),
      setting<CombinerStrategy>("MEDUSA_COMBINER", of_tuning(&Tuning::combiner),
                               {{"auto", CombinerStrategy::Auto}, {"group4", CombinerStrategy::Group4},
                                {"warp", CombinerStrategy::Warp}, {"cub", CombinerStrategy::Cub}}),
      toggle("MEDUSA_GATHER_LAUNCHES", &Tuning::gatherOneLaunch, "one", "bins"),
      toggle("MEDUSA_GATHER_LOADS", &Tuning::gatherLoadsAhead, "ahead", "plain"),
      toggle("MEDUSA_SPARSE_REFRESH", &Tuning::sparseRefresh),
      toggle("MEDUSA_BY_ID_ON_DEVICES", &Tuning::byIdOnDevices),
  };
  return table;
}

// The environment's value of `variable`, or -1 when unset (or empty); throws on an unknown value.
int env_value(const char* variable, const std::vector<std::string>& values) {
  const char* env = std::getenv(variable);
  if (env == nullptr || *env == '\0') return -1;
  std::string allowed;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (values[i] == env) return static_cast<int>(i);
    allowed += (i == 0 ? "" : ", ") + values[i];
  }
  MEDUSA_THROW(std::string(variable) + "=" + env + " is not a value Medusa knows; use one of: " + allowed +
               " (or unset it); docs/tuning.md lists the settings");
}

// MEDUSA_PRIORITY_DELTA=auto|N (Config::priorityDelta, a number rather than one of a few values).
void apply_priority_delta_env(Config& conf) {
  const char* env = std::getenv("MEDUSA_PRIORITY_DELTA");
  if (env == nullptr || *env == '\0') return;
  const std::string value = env;
  if (value == "auto") {
    conf.priorityDelta = 0;
    return;
  }
  std::size_t used = 0;
  unsigned long long delta = 0;
  try {
    delta = std::stoull(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  MEDUSA_REQUIRE(used == value.size() && value.find_first_not_of("0123456789") == std::string::npos && delta > 0,
                 "MEDUSA_PRIORITY_DELTA=" + value +
                     " is not a value Medusa knows; use auto or a positive integer (the width of a priority "
                     "bucket), or unset it; docs/tuning.md lists the settings");
  conf.priorityDelta = delta;
}

}  // namespace

Config resolve_tuning(Config conf) {
  for (const Setting& s : settings())
    if (const int i = env_value(s.variable, s.values); i >= 0) s.set(conf, i);
  apply_priority_delta_env(conf);
  dependent_launch_from_env();  // (process-wide, but checked with the rest)
  return conf;
}

Config apply_schedule(const Config& conf, const Schedule& schedule) {
  Config run = conf;
  for (const Setting& s : settings()) {
    const int wanted = s.scheduled(schedule);
    if (wanted >= 0 && s.get(conf) == 0 && env_value(s.variable, s.values) < 0) s.set(run, wanted);
  }
  return run;
}

std::string describe_tuning(const Config& conf, const Config* before_schedule, const std::string& schedule_at) {
  std::string r = "medusa: tuning:";
  for (const Setting& s : settings()) {
    const int i = s.get(conf);
    r += std::string(" ") + s.variable + "=" + (i >= 0 ? s.values[static_cast<std::size_t>(i)] : "?");
    if (env_value(s.variable, s.values) >= 0) r += " (environment)";
    else if (before_schedule != nullptr && s.get(*before_schedule) != i) r += " (source " + schedule_at + ")";
    else if (i > 0) r += " (Config)";
  }
  const char* delta_env = std::getenv("MEDUSA_PRIORITY_DELTA");
  r += " MEDUSA_PRIORITY_DELTA=" + (conf.priorityDelta == 0 ? std::string("auto") : std::to_string(conf.priorityDelta));
  if (delta_env != nullptr && *delta_env != '\0') r += " (environment)";
  else if (conf.priorityDelta != 0) r += " (Config)";
  r += std::string(" MEDUSA_DEPENDENT_LAUNCH=") + (dependent_launch_from_env() ? "on" : "off");
  return r;
}

bool dependent_launch_from_env() {
  return env_value("MEDUSA_DEPENDENT_LAUNCH", {"on", "off"}) != 1;
}

}  // namespace medusa
