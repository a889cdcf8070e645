// common::is_partition_engine (backend/common/engine_interface.h): what a backend's engine must
// provide for PartitionedSession. The backends' session headers assert it for their engines; here
// engines that lack a member are shown to fail it.
#include <medusa/backend/common/engine_interface.h>

#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace {

using namespace medusa;

struct V {};
struct E {};

// Every member PartitionedSession calls on an engine that neither batches nor fuses gathers.
struct PlainEngine {
  using Vertex = V;
  using Edge = E;
  using Message = float;
  static constexpr bool kBatchesSupersteps = false;
  static constexpr bool kFusesVertexIntoGather = false;
  PlainEngine(const common::PartitionView&, const Graph<V, E>&, const std::vector<VertexId>&, const Config&,
              std::uint32_t);
  bool pull_fusion() const;
  void download(Graph<V, E>&);
  template <class Op>
  void combine(const Op&);
  void init_message_buffer(const float&);
  template <ApiKind K, class Element>
  void launch(Domain, const Element&, const common::LaunchRange&);
  template <class Element>
  void launch_elist_edges(Domain, const Element&, const common::LaunchRange&);
  template <class Element, class Op>
  void push_fold_edges(const Element&, const Op&, const float&);
  template <class Work, class Op>
  void fused_combine(const Work&, const Op&, const float&, Domain);
  bool frontier_pull_preferred() const;
  std::string report() const;
  void begin_superstep(std::uint32_t);
  void finish_superstep();
  common::StepCounts collect();
  void abandon();
  std::uint64_t take_edges_visited();
};

struct NoCollect : PlainEngine {
  using PlainEngine::PlainEngine;
  void collect() = delete;
};

struct Outcome {
  bool stopped = false;
};
// Says it batches supersteps but has no replays.
struct BatchingWithoutReplays : PlainEngine {
  using PlainEngine::PlainEngine;
  static constexpr bool kBatchesSupersteps = true;
  template <class Element>
  bool hold_receiver_vertex(const Element&);
  bool vertex_held() const;
  void issue_held_vertex();
  void join_held_vertex_before_exchange();
  void begin_run(bool);
  bool batching() const;
  void end_batched_superstep_here(const std::array<int, kVoteSlots>&);
  template <class Engines>
  static void end_batched_supersteps_together(Engines&, const std::array<int, kVoteSlots>&);
  const Outcome* batched_superstep_outcome(bool);
  bool wants_batch();
  void start_batch();
  bool batch_active() const;
  void leave_batch();
};
struct Batching : BatchingWithoutReplays {
  using BatchingWithoutReplays::BatchingWithoutReplays;
  std::uint32_t replay_length(std::uint32_t, std::uint32_t) const;
  const Outcome& replay_batch(std::uint32_t);
  template <class Engines>
  static void record_together(Engines&);
  template <class Engines>
  static void replay_together(Engines&);
  void forget_replay();
};

static_assert(common::is_partition_engine<PlainEngine>::value);
static_assert(!common::is_partition_engine<NoCollect>::value);
static_assert(!common::is_partition_engine<BatchingWithoutReplays>::value);
static_assert(common::is_partition_engine<Batching>::value);
// A fusing engine must provide the pending gather.
struct FusingWithoutGather : PlainEngine {
  using PlainEngine::PlainEngine;
  static constexpr bool kFusesVertexIntoGather = true;
};
static_assert(!common::is_partition_engine<FusingWithoutGather>::value);
// An engine that exchanges reads and sends by id on its devices must also refresh and deliver there.
struct ByIdOnDevicesWithoutDelivery : PlainEngine {
  using PlainEngine::PlainEngine;
  static std::string set_up_by_id_on_devices(std::vector<std::unique_ptr<ByIdOnDevicesWithoutDelivery>>&);
  static void refresh_by_id_mirrors_on_devices(std::vector<std::unique_ptr<ByIdOnDevicesWithoutDelivery>>&);
};
struct ByIdOnDevices : PlainEngine {
  using PlainEngine::PlainEngine;
  static std::string set_up_by_id_on_devices(std::vector<std::unique_ptr<ByIdOnDevices>>&);
  static void refresh_by_id_mirrors_on_devices(std::vector<std::unique_ptr<ByIdOnDevices>>&);
  static void deliver_sends_by_id_on_devices(std::vector<std::unique_ptr<ByIdOnDevices>>&);
};
static_assert(!common::exchanges_by_id_on_devices<PlainEngine>::value);
static_assert(!common::is_partition_engine<ByIdOnDevicesWithoutDelivery>::value);
static_assert(common::is_partition_engine<ByIdOnDevices>::value);

}  // namespace

TEST_CASE("is_partition_engine lists what PartitionedSession calls", "[runtime][engine]") {
  // (the checks are the static_asserts above; this case only makes them part of the suite)
  CHECK(common::is_partition_engine<PlainEngine>::value);
  CHECK_FALSE(common::is_partition_engine<NoCollect>::value);
}
