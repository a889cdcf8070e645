// Schedule settings: every choice the runtime makes on its own that a user may force, in one typed
// place (docs/tuning.md lists them). Config::tuning starts at Auto; a Session resolves it once,
// from Config, then from the MEDUSA_* environment variables (for benchmarks and tests), which
// override. Each Run then applies the iteration function's source schedule (schedule.h) to the
// settings both left at auto. A value the runtime does not know is an error that names the allowed ones.
#pragma once

#include <string>

namespace medusa {

struct Config;

// A switch that Medusa sets unless asked.
enum class Toggle { Auto, On, Off };

// A pass over the frontier (Domain::Active) after InitMessageBuffer: pulled over every in-edge,
// or pushed over the frontier's out-edges. Auto pulls a frontier of at least E/8 out-edges.
enum class FrontierPull { Auto, Always, Never };

// Sparse supersteps issued in batches with one read-back each (docs/design/superstep-batches.md).
// Always batches every superstep that can be, from the second (for tests on small graphs).
enum class SuperstepBatching { Auto, Always, Off };

// How a pushed frontier's out-edges are spread over threads: Auto picks by the frontier's size.
enum class QueueExpand { Auto, Groups, Balanced };

// The Combiner's segmented reduction. Auto bins vertices by degree; the others are for
// benchmarking and for tests that force every path.
enum class CombinerStrategy { Auto, Group4, Warp, Cub };

struct Tuning {
  FrontierPull frontierPull = FrontierPull::Auto;
  SuperstepBatching superstepBatch = SuperstepBatching::Auto;
  Toggle batchReplay = Toggle::Auto;     // replay recorded batches as CUDA graphs where allowed
  QueueExpand queueExpand = QueueExpand::Auto;
  Toggle pushCombine = Toggle::Auto;     // InitMessageBuffer + EDGE + Combiner() as one pass (min/max)
  Toggle sourcePrefetch = Toggle::Auto;  // next superstep's source messages in the VERTEX step
  Toggle vertexFusion = Toggle::Auto;    // a VERTEX launch inside the gather before it
  Toggle endFusion = Toggle::Auto;       // a VERTEX launch over receivers in the superstep's end
  CombinerStrategy combiner = CombinerStrategy::Auto;
  Toggle gatherOneLaunch = Toggle::Auto;   // every degree bin of the gather in one launch
  Toggle gatherLoadsAhead = Toggle::Auto;  // four loads in flight per gather lane
  Toggle sparseRefresh = Toggle::Off;      // replica refresh copies only the changed replicas (off: slower on one GPU)
  Toggle byIdOnDevices = Toggle::Auto;     // reads and sends by id among one process's partitions stay on the GPUs
};

// `conf` with every MEDUSA_* schedule variable of the environment applied (Config::vertexOrder,
// Config::pullFusion and Config::tuning); throws medusa::Error on a value it does not know.
Config resolve_tuning(Config conf);

// One line per setting, `MEDUSA_NAME=value`, marked with where a value other than auto came from:
// the environment, a source schedule (where `conf` differs from `before_schedule`: schedule.h)
// or the Config (--verbose).
std::string describe_tuning(const Config& conf, const Config* before_schedule = nullptr,
                            const std::string& schedule_at = "");

// MEDUSA_DEPENDENT_LAUNCH=on|off: whether per-superstep kernels start while the kernel before
// them runs. Process-wide (read once per kernel), so not a Config field.
bool dependent_launch_from_env();

}  // namespace medusa
