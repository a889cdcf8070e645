// Several queries at once in one process: BFS-Q from --sources N sources and --pagerank P PageRank
// runs on one graph, each job in its own thread and Session (its own stream on the GPU, admitted
// through the GPU memory ledger). The jobs run one after another, then --threads T at a time; every
// result is validated against the CPU reference, and the two throughputs are compared.
//   concurrent [graph] --sources N [--pagerank P] [--iterations I] [--threads T] [--validate] ...
#include <medusa/print_error.h>

#include "../common/sample_cli.h"
#include "jobs.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

using medusa::samples::concurrent::Job;
using Clock = std::chrono::steady_clock;

struct JobOptions {
  std::uint32_t pagerank = 1;  // --pagerank P
  std::uint32_t threads = 0;   // --threads T; 0: one per job
};

// Takes this sample's own options out of argv (the rest are every sample's, sample_cli.h).
JobOptions take_job_options(int& argc, char** argv) {
  JobOptions o;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if ((a == "--pagerank" || a == "--threads") && i + 1 < argc) {
      char* end = nullptr;
      const long v = std::strtol(argv[i + 1], &end, 10);
      if (end == argv[i + 1] || *end != '\0' || v < 0 || (a == "--threads" && v == 0)) {
        std::fprintf(stderr, "concurrent: %s needs a whole number%s, got '%s'\n", a.c_str(),
                     a == "--threads" ? " >= 1" : " >= 0", argv[i + 1]);
        std::exit(2);
      }
      (a == "--pagerank" ? o.pagerank : o.threads) = static_cast<std::uint32_t>(v);
      ++i;
    } else {
      argv[kept++] = argv[i];
    }
  }
  argc = kept;
  return o;
}

// Runs every job on `threads` threads (each takes the next job until none is left); the seconds
// from the first start to the last finish. The first error a job throws is rethrown here.
double run_all(std::vector<std::unique_ptr<Job>>& jobs, const medusa::Config& conf, std::uint32_t threads,
               std::vector<medusa::RunStats>& stats) {
  for (auto& job : jobs) job->prepare();
  stats.assign(jobs.size(), {});
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  const auto work = [&] {
    for (std::size_t k; (k = next++) < jobs.size();) {
      try {
        stats[k] = jobs[k]->run(conf);
      } catch (...) {
        const std::lock_guard<std::mutex> lock(failure_mutex);
        if (!failure) failure = std::current_exception();
      }
    }
  };
  const auto start = Clock::now();
  std::vector<std::thread> pool;
  for (std::uint32_t t = 0; t < threads; ++t) pool.emplace_back(work);
  for (auto& t : pool) t.join();
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (failure) std::rethrow_exception(failure);
  return seconds;
}

int validate_all(const std::vector<std::unique_ptr<Job>>& jobs) {
  int failed = 0;
  for (const auto& job : jobs) failed |= job->validate();
  return failed;
}

}  // namespace

int main(int argc, char** argv) try {
  namespace concurrent = medusa::samples::concurrent;
  const JobOptions jo = take_job_options(argc, argv);
  medusa::samples::Options opt = medusa::samples::parse_options_for(
      argc, argv, "concurrent: BFS-Q from --sources N sources and --pagerank P PageRank runs, at once",
      concurrent::jobs_backend());
  const medusa::samples::EdgeList edges = medusa::samples::load_edges(opt);
  if (!medusa::samples::source_in_graph(opt, edges)) return 2;
  const std::vector<medusa::VertexId> sources = medusa::samples::search_sources(opt, edges);
  std::printf("%s\n", edges.description.c_str());

  std::vector<std::unique_ptr<Job>> jobs = concurrent::make_bfs_jobs(edges, sources);
  for (auto& job : concurrent::make_pagerank_jobs(edges, jo.pagerank, opt.iterations ? opt.iterations : 30))
    jobs.push_back(std::move(job));
  const auto n = static_cast<std::uint32_t>(jobs.size());
  const std::uint32_t threads = jo.threads != 0 ? std::min(jo.threads, n) : n;
  medusa::Config conf;
  medusa::samples::configure(conf, opt);  // --gpus, partitions, --verbose

  std::vector<medusa::RunStats> stats;
  int failed = 0;
  // Untimed, one job of each program: the first launches load the GPU code.
  for (std::size_t k : {std::size_t{0}, sources.size()}) {
    if (k >= jobs.size()) continue;
    jobs[k]->prepare();
    jobs[k]->run(conf);
  }
  const double one_by_one = run_all(jobs, conf, 1, stats);
  if (opt.validate) failed |= validate_all(jobs);
  const double at_once = run_all(jobs, conf, threads, stats);
  for (std::size_t k = 0; k < jobs.size(); ++k)
    std::printf("concurrent: %s: %u supersteps, %.3f ms\n", jobs[k]->name().c_str(), stats[k].supersteps,
                stats[k].seconds * 1e3);
  if (opt.validate) failed |= validate_all(jobs);
  std::printf("concurrent: %u jobs (%zu bfs_q, %u pagerank): one after another %.3f s (%.2f jobs/s), "
              "%u at a time %.3f s (%.2f jobs/s): %.2fx\n",
              n, sources.size(), jo.pagerank, one_by_one, n / one_by_one, threads, at_once, n / at_once,
              one_by_one / at_once);
  return failed;
} catch (const std::exception& e) {  // a bad graph file, too little device memory, ...
  return medusa::print_error(e);
}
