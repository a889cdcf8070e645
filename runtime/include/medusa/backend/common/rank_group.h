// The processes a session runs on: this one alone (every partition here), or the ranks of an MPI
// job (Config::distributed), each running the partitions it owns (transport/ownership.h). What
// PartitionedSession does differently over several ranks is here: how many partitions, the
// end-of-superstep reduction and aggregates, the run's totals and per-rank times, what each rank
// holds, and ending the job when one rank fails. Rank 0 sending each rank its partitions:
// partition_transfer.h.
#pragma once

#include <medusa/config.h>
#include <medusa/device_api.h>
#include <medusa/error.h>
#include <medusa/partition/assignment.h>
#include <medusa/partition/plan.h>
#include <medusa/transport/in_process.h>
#include <medusa/transport/mpi_job.h>
#include <medusa/transport/transport.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <vector>

namespace medusa::common {

class RankGroup {
 public:
  explicit RankGroup(const Config& conf)
      : transport_(conf.distributed ? transport::job_transport()
                                    : std::make_unique<transport::InProcessTransport>()),
        own_(transport_->ownership()) {}

  transport::Transport& transport() { return *transport_; }
  const transport::PartitionOwnership& ownership() const { return own_; }
  // More than one process: the exchange, reductions and results cross ranks.
  bool distributed() const { return own_.ranks > 1; }
  // Only rank 0 prints the runtime's reports.
  bool reports() const { return own_.rank == 0; }

  // Config::gpuCount, or one partition per rank in a distributed run that leaves it at 1.
  std::uint32_t partition_count(const Config& conf) const {
    if (conf.distributed && conf.gpuCount == 1) return own_.ranks;
    MEDUSA_REQUIRE(conf.gpuCount >= 1 && static_cast<std::uint32_t>(conf.gpuCount) >= own_.ranks,
                   "Config::gpuCount = " + std::to_string(conf.gpuCount) + " partitions over " +
                       std::to_string(own_.ranks) +
                       " MPI ranks: every rank needs a partition (gpuCount = 1 gives one per rank)");
    return static_cast<std::uint32_t>(conf.gpuCount);
  }

  // Runs f; when it throws in a distributed run the transport ends every rank of the job (the
  // others would wait forever in the next exchange), else the exception goes on.
  template <class F>
  decltype(auto) ending_job_on_failure(const F& f) {
    try {
      return f();
    } catch (const std::exception& e) {
      transport_->fail_job(e.what());
      throw;
    }
  }

  void reset_timing() { reduce_seconds_ = 0.0; }

  // The end of superstep `step` over the ranks: votes OR-ed, frontier counts summed.
  void reduce_step(std::array<int, kVoteSlots>& votes, std::uint64_t& active_vertices,
                   std::uint64_t& active_edges, std::uint32_t step) {
    if (!distributed()) return;
    const auto start = std::chrono::steady_clock::now();
    std::array<std::uint64_t, 2> counts{active_vertices, active_edges};
    transport_->reduce_step(votes.data(), votes.size(), counts.data(), counts.size(), step);
    active_vertices = counts[0];
    active_edges = counts[1];
    reduce_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  // Every partition's `words` words in partition order, from each rank's words of its own
  // partitions in local order (`mine`; the whole answer in one process). The aggregates'
  // partials: a fixed fold order whatever the ranks.
  std::vector<std::uint64_t> in_partition_order(const std::vector<std::uint64_t>& mine, std::size_t words) {
    if (!distributed() || words == 0) return mine;
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::byte> bytes(mine.size() * sizeof(std::uint64_t));
    if (!mine.empty()) std::memcpy(bytes.data(), mine.data(), bytes.size());
    const std::vector<std::vector<std::byte>> blocks = transport_->all_gather(bytes);
    std::size_t parts = 0;
    for (const auto& b : blocks) parts += b.size() / (words * sizeof(std::uint64_t));
    std::vector<std::uint64_t> all(parts * words);
    for (std::uint32_t r = 0; r < blocks.size(); ++r) {
      const transport::PartitionOwnership theirs{r, own_.ranks};
      const std::size_t held = blocks[r].size() / (words * sizeof(std::uint64_t));
      for (std::uint32_t i = 0; i < held; ++i)
        std::memcpy(all.data() + theirs.partition(i) * words, blocks[r].data() + i * words * sizeof(std::uint64_t),
                    words * sizeof(std::uint64_t));
    }
    reduce_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return all;
  }

  // At the end of a run: edges visited and bytes exchanged summed over the ranks, the run and
  // exchange times of the slowest rank, and each rank's compute and exchange time
  // (RunStats::rank_times).
  void combine_stats(RunStats& stats) {
    if (!distributed()) return;
    std::array<std::uint64_t, 3> sums{stats.edges_visited, stats.exchange_bytes, stats.exchange_sparse_bytes};
    transport_->sum(sums.data(), sums.size());
    stats.edges_visited = sums[0];
    stats.exchange_bytes = sums[1];
    stats.exchange_sparse_bytes = sums[2];
    const double exchange = stats.exchange_seconds + reduce_seconds_;
    const std::vector<double> all = transport::gather_doubles(*transport_, {stats.seconds, exchange});
    stats.rank_times.clear();
    for (std::size_t r = 0; r + 1 < all.size(); r += 2) {
      stats.rank_times.push_back({all[r] - all[r + 1], all[r + 1]});
      stats.seconds = std::max(stats.seconds, all[r]);
      stats.exchange_seconds = std::max(stats.exchange_seconds, all[r + 1]);
    }
  }

  // What each rank holds, in rank order: its host bytes of partition layouts, the bytes of the
  // layouts of its own partitions alone (their sum over the ranks is every partition's layout, what
  // one process holds), and its bytes of the graph (`graph_bytes` of each rank: the user's graph
  // and what it received of it). `whole_graph`: what one process holds of the graph, when no rank
  // does (partition files; 0: rank 0's graph is the whole graph).
  struct Holdings {
    std::vector<std::uint64_t> resident, own, graph;
    std::uint64_t whole_graph = 0;
  };
  Holdings share_holdings(const PartitionPlan& plan, std::uint64_t graph_bytes, std::uint64_t whole_graph = 0) {
    const std::uint64_t resident = plan.resident_bytes();
    std::uint64_t own = 0;
    for (const PartitionLayout& l : plan.partitions) own += own_.owns(l.index) ? l.resident_bytes() : 0;
    const std::vector<double> mine{static_cast<double>(resident), static_cast<double>(own),
                                   static_cast<double>(graph_bytes)};
    const std::vector<double> all = distributed() ? transport::gather_doubles(*transport_, mine) : mine;
    Holdings h;
    h.whole_graph = whole_graph;
    for (std::size_t r = 0; r + 2 < all.size(); r += 3) {
      h.resident.push_back(static_cast<std::uint64_t>(all[r]));
      h.own.push_back(static_cast<std::uint64_t>(all[r + 1]));
      h.graph.push_back(static_cast<std::uint64_t>(all[r + 2]));
    }
    return h;
  }

  // A line per rank: the partitions it holds, its share of all partitions' layouts and its share
  // of the graph (rank 0's, which holds the whole graph, or Holdings::whole_graph).
  std::string describe_holdings(const Holdings& h, std::uint32_t parts) const {
    if (!distributed()) return "";
    std::uint64_t all = 0;
    for (std::uint64_t b : h.own) all += b;
    const double whole = h.whole_graph != 0 ? static_cast<double>(h.whole_graph)
                         : h.graph.empty()  ? 0.0
                                            : static_cast<double>(h.graph.front());
    const auto percent = [](double part, double of) { return of == 0 ? 0.0 : 100.0 * part / of; };
    std::string out;
    char line[320];
    for (std::uint32_t r = 0; r < h.resident.size(); ++r) {
      std::string held;
      for (std::uint32_t p = r; p < parts; p += own_.ranks) held += (held.empty() ? "" : ", ") + std::to_string(p);
      std::snprintf(line, sizeof line,
                    "medusa: rank %u holds partition%s %s: %.3f MB of layouts (%.1f%% of all partitions' %.3f MB), "
                    "%.3f MB of the graph (%.1f%% of the whole graph's %.3f MB)\n",
                    r, held.find(',') == std::string::npos ? "" : "s", held.c_str(),
                    static_cast<double>(h.resident[r]) / 1e6,
                    percent(static_cast<double>(h.resident[r]), static_cast<double>(all)),
                    static_cast<double>(all) / 1e6, static_cast<double>(h.graph[r]) / 1e6,
                    percent(static_cast<double>(h.graph[r]), whole), whole / 1e6);
      out += line;
    }
    return out;
  }

  // "medusa: distributed over MPI, 2 ranks, ...", or nothing in one process.
  std::string describe() const {
    if (!distributed()) return "";
    return "medusa: distributed over " + transport_->describe() + ": partition p runs on rank p % " +
           std::to_string(own_.ranks) + " (this report: rank " + std::to_string(own_.rank) + ")\n";
  }

 private:
  std::unique_ptr<transport::Transport> transport_;
  transport::PartitionOwnership own_;
  double reduce_seconds_ = 0.0;  // in the end-of-superstep reductions
};

}  // namespace medusa::common
