// The queries of the concurrent sample: each a BFS-Q search or a PageRank run on one shared graph,
// in its own Session. Each program lives in its own translated file (one vertex type per program);
// this header is plain C++ for the driver.
#pragma once

#include <medusa/config.h>

#include "../common/sample_cli.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace medusa::samples::concurrent {

class Job {
 public:
  virtual ~Job() = default;
  // "bfs_q from 17", "pagerank, 30 iterations".
  virtual std::string name() const = 0;
  // Before the clock: the job's own copy of the graph, with its initial values.
  virtual void prepare() = 0;
  // Init_Device_DS, Run and Dump_Result: one query, as a service would answer it. Thread-safe
  // against the other jobs' runs.
  virtual RunStats run(const Config& base) = 0;
  // Compares the last run's results with the CPU reference: 0 when they agree (prints the verdict).
  virtual int validate() const = 0;
};

// BFS-Q from each source (one job each), sharing one copy of the graph to start from.
std::vector<std::unique_ptr<Job>> make_bfs_jobs(const EdgeList& edges, const std::vector<VertexId>& sources);
// `count` PageRank runs of `iterations` supersteps.
std::vector<std::unique_ptr<Job>> make_pagerank_jobs(const EdgeList& edges, std::uint32_t count,
                                                     std::uint32_t iterations);
// "cuda" or "host": the backend the jobs' programs were translated for.
std::string jobs_backend();

}  // namespace medusa::samples::concurrent
