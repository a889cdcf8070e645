// The table of schedule variables: each MEDUSA_* name, its values and the Config field it sets.
#include <medusa/config.h>
#include <medusa/error.h>
#include <medusa/tuning.h>

#include <cstdlib>
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

const std::vector<Setting>& settings() {
  static const std::vector<Setting> table = {
      setting<VertexOrder>("MEDUSA_VERTEX_ORDER", of_config(&Config::vertexOrder),
                           {{"auto", VertexOrder::Auto}, {"input", VertexOrder::Input}, {"degree", VertexOrder::Degree}}),
      setting<bool>("MEDUSA_PULL_FUSION", of_config(&Config::pullFusion), {{"on", true}, {"off", false}}),
      setting<FrontierPull>("MEDUSA_FRONTIER_PULL", of_tuning(&Tuning::frontierPull),
                           {{"auto", FrontierPull::Auto}, {"always", FrontierPull::Always}, {"never", FrontierPull::Never}}),
      setting<SuperstepBatching>("MEDUSA_SUPERSTEP_BATCH", of_tuning(&Tuning::superstepBatch),
                             {{"auto", SuperstepBatching::Auto}, {"always", SuperstepBatching::Always}, {"off", SuperstepBatching::Off}}),
      toggle("MEDUSA_BATCH_REPLAY", &Tuning::batchReplay),
      setting<QueueExpand>("MEDUSA_QUEUE_EXPAND", of_tuning(&Tuning::queueExpand),
                          {{"auto", QueueExpand::Auto}, {"groups", QueueExpand::Groups}, {"balanced", QueueExpand::Balanced}}),
      toggle("MEDUSA_SOURCE_PREFETCH", &Tuning::sourcePrefetch),
      toggle("MEDUSA_VERTEX_FUSION", &Tuning::vertexFusion),
      toggle("MEDUSA_END_FUSION", &Tuning::endFusion),
      setting<CombinerStrategy>("MEDUSA_COMBINER", of_tuning(&Tuning::combiner),
                               {{"auto", CombinerStrategy::Auto}, {"group4", CombinerStrategy::Group4},
                                {"warp", CombinerStrategy::Warp}, {"cub", CombinerStrategy::Cub}}),
      toggle("MEDUSA_GATHER_LAUNCHES", &Tuning::gatherOneLaunch, "one", "bins"),
      toggle("MEDUSA_GATHER_LOADS", &Tuning::gatherLoadsAhead, "ahead", "plain"),
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

}  // namespace

Config resolve_tuning(Config conf) {
  for (const Setting& s : settings())
    if (const int i = env_value(s.variable, s.values); i >= 0) s.set(conf, i);
  dependent_launch_from_env();  // (process-wide, but checked with the rest)
  return conf;
}

std::string describe_tuning(const Config& conf) {
  std::string r = "medusa: tuning:";
  for (const Setting& s : settings()) {
    const int i = s.get(conf);
    r += std::string(" ") + s.variable + "=" + (i >= 0 ? s.values[static_cast<std::size_t>(i)] : "?");
    if (env_value(s.variable, s.values) >= 0) r += " (environment)";
  }
  r += std::string(" MEDUSA_DEPENDENT_LAUNCH=") + (dependent_launch_from_env() ? "on" : "off");
  return r;
}

bool dependent_launch_from_env() {
  return env_value("MEDUSA_DEPENDENT_LAUNCH", {"on", "off"}) != 1;
}

}  // namespace medusa
