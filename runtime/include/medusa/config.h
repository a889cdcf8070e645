// Run configuration: the paper's `conf` object, without the global.
#pragma once

#include <cstdint>
#include <string>

namespace medusa {

// Built-in combiner operators (paper: conf.combinerOpType). The data type is inferred from the
// program's message type; a user-defined operator is passed to Combiner(op) instead.
enum CombinerOp { MEDUSA_SUM, MEDUSA_MIN, MEDUSA_MAX, MEDUSA_PRODUCT, MEDUSA_AND, MEDUSA_OR };

// Edge layout on the device (paper section 4 / appendix A).
enum class Layout { Auto, CSR, ColumnMajor, Hybrid };

struct Config {
  CombinerOp combinerOpType = MEDUSA_SUM;
  int gpuCount = 1;
  std::uint32_t maxIteration = 2147483647u;  // 2^31 - 1, as in the paper
  std::uint32_t messagesPerEdge = 1;         // the paper's m: slots per edge in the message buffer
  Layout layout = Layout::Auto;
  bool verbose = false;                      // print layout choice, memory use, per-superstep stats
};

// What a finished Run reports.
struct RunStats {
  std::uint32_t supersteps = 0;
  double seconds = 0.0;
  std::uint64_t edges_visited = 0;  // edges traversed by EDGE/ELIST calls, summed over supersteps
  std::string stop_reason;          // "maxIteration", "halt vote", "no continue vote"
};

}  // namespace medusa
