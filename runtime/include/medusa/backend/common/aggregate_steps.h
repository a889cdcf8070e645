// The session's part of global aggregates (medusa/aggregate.h): before a superstep every engine's
// slots start from the published values and the identities; after it every partition's
// accumulators (over MPI ranks too) are folded in partition order and published. Each backend
// supplies, found by argument-dependent lookup on its engine type:
//   void upload_aggregates(Engine&, const detail::AggregateCells&, bool shared_gpu);
//   void request_aggregates(Engine&, bool shared_gpu);  // queues the read-back, before the last sync
//   void download_aggregates(Engine&, detail::AggregateCells&, bool shared_gpu);
// shared_gpu: several partitions on one GPU (partitionsPerGpu > 1), which share its slots.
// (A Run that ends by a throw leaves each value() as the last superstep that ended folded it.)
#pragma once

#include <medusa/aggregate.h>
#include <medusa/backend/common/rank_group.h>
#include <medusa/config.h>
#include <medusa/error.h>
#include <medusa/types.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace medusa::common {

template <class Element>
struct adds_to_aggregates : std::bool_constant<medusa::detail::adds_aggregates<Element>> {};

// (Superstep 0: every value() restarts from its start value.)
inline bool shares_gpu(const Config& conf) { return conf.gpuCount > 1 && conf.partitionsPerGpu > 1; }

template <class Program, class Engine>
void begin_aggregates(std::vector<std::unique_ptr<Engine>>& engines, std::uint32_t superstep, const Config& conf) {
  if (medusa::detail::aggregate_count<Program>() == 0) return;
  if (superstep == 0)
    for (const medusa::detail::AggregateEntry& e : medusa::detail::aggregate_registry<Program>())
      if (e.object != nullptr) e.restart(e.object);
  const medusa::detail::AggregateCells cells = medusa::detail::starting_cells<Program>();
  for (auto& e : engines) upload_aggregates(*e, cells, shares_gpu(conf));
}

template <class Program, class Engine>
void request_aggregates(std::vector<std::unique_ptr<Engine>>& engines, const Config& conf) {
  if (medusa::detail::aggregate_count<Program>() == 0) return;
  for (auto& e : engines) request_aggregates(*e, shares_gpu(conf));
}

// Every partition's accumulators, this rank's partitions from its engines and the others' from
// their ranks, folded in partition order 0, 1, ..., P-1 on every rank: the same value everywhere,
// and the one a single process with the same partitions folds (floating-point sums included).
template <class Program, class Engine>
void end_aggregates(std::vector<std::unique_ptr<Engine>>& engines, const Config& conf, RankGroup& ranks) {
  const auto& entries = medusa::detail::aggregate_registry<Program>();
  if (entries.empty()) return;
  const std::size_t n = entries.size();
  std::vector<std::uint64_t> mine(engines.size() * n);
  for (std::size_t i = 0; i < engines.size(); ++i) {
    medusa::detail::AggregateCells cells{};
    download_aggregates(*engines[i], cells, shares_gpu(conf));
    std::copy(cells.acc, cells.acc + n, mine.begin() + static_cast<std::ptrdiff_t>(i * n));
  }
  const std::vector<std::uint64_t> partials = ranks.in_partition_order(mine, n);
  std::vector<std::uint64_t> folded(n);
  for (std::size_t p = 0; p * n < partials.size(); ++p)
    for (std::size_t a = 0; a < n; ++a)
      if (entries[a].object != nullptr)
        folded[a] = p == 0 ? partials[a] : entries[a].fold(folded[a], partials[p * n + a]);
  for (std::size_t a = 0; a < n; ++a)
    if (entries[a].object != nullptr) entries[a].publish(entries[a].object, folded[a]);
}

// Partitioned runs: a vertex adds from its owner only (VERTEX and MLIST launches skip replicas),
// and the replicas of a program with aggregates are refreshed every superstep (one hop).
template <class Program>
bool aggregates_owned_only() { return medusa::detail::aggregate_count<Program>() != 0; }
template <class Program>
const char* with_aggregates(const char* multi_hop_obstacle) {
  if (multi_hop_obstacle != nullptr || !aggregates_owned_only<Program>()) return multi_hop_obstacle;
  return "the program uses global aggregates (each vertex adds from its owner only)";
}

// How an ELIST launch runs its functor (session_exec.h, in_edge_pull.h).
enum class ElistForm {
  PerVertex,  // one thread runs a head's whole loop: in every partition that holds some of its out-edges
  PerEdge,    // edge-parallel: each edge in the one partition that holds it (no adds outside the loop)
  InEdges,    // each owned vertex's whole row, at its owner only
};

// A partitioned run gives each vertex's copies and slots to several partitions: adds from a
// thread-per-vertex ELIST functor and from MESSAGE functors would count more than once. Every
// launch path asks; the other ELIST forms add once per edge or per owned vertex.
template <ApiKind K, class Element>
void check_partitioned_adds(std::size_t partitions, ElistForm form = ElistForm::PerVertex) {
  if constexpr (adds_to_aggregates<Element>::value && (K == ELIST || K == MESSAGE)) {
    if (K == ELIST && form != ElistForm::PerVertex) return;
    MEDUSA_REQUIRE(partitions == 1,
                   std::string("a partitioned run (gpuCount > 1, or MPI ranks): an ") +
                       (K == ELIST ? "ELIST functor whose edge loop runs one thread per vertex" : "MESSAGE functor") +
                       " adds to a global aggregate, which partitioned runs would count once per partition; "
                       "add from a VERTEX, MLIST or EDGE functor (or an edge-parallel ELIST loop body), "
                       "or run one partition");
  }
}

}  // namespace medusa::common
