// What PartitionedSession (partitioned_session.h) calls on a backend's PartitionEngine: each
// backend's session header checks its engine with static_assert(is_partition_engine<...>::value).
// The members a batching or gather-fusing engine (kBatchesSupersteps, kFusesVertexIntoGather) adds
// are checked only for an engine that declares them, and so are those of an engine that exchanges
// reads and sends by id on its devices (set_up_by_id_on_devices, by_id_exchange.h).
#pragma once

#include <medusa/backend/common/partition_view.h>
#include <medusa/backend/common/partitioned_session.h>
#include <medusa/config.h>
#include <medusa/graph.h>
#include <medusa/types.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace medusa::common {

namespace engine_probe {
// Stand-ins for the session's arguments: an operator and an element functor (only the members'
// declarations are looked at, so neither is ever called).
struct Op {
  template <class M>
  M operator()(const M& a, const M&) const {
    return a;
  }
};
struct Element {};

template <class E>
E& engine();
template <class E>
using GraphOf = Graph<typename E::Vertex, typename E::Edge>;
template <class E>
const typename E::Message& message();
}  // namespace engine_probe

namespace engine_requirements {
using namespace engine_probe;

// Init_Device_DS for one partition: (view, graph, seeds, conf, slot).
template <class E>
using construct = decltype(E(std::declval<const PartitionView&>(), std::declval<const GraphOf<E>&>(),
                             std::declval<const std::vector<VertexId>&>(), std::declval<const Config&>(),
                             std::uint32_t{0}));
template <class E>
using flags = decltype(std::integral_constant<bool, E::kBatchesSupersteps>{},
                       std::integral_constant<bool, E::kFusesVertexIntoGather>{});
template <class E>
using pull_fusion = decltype(bool{engine<E>().pull_fusion()});
template <class E>
using download = decltype(engine<E>().download(std::declval<GraphOf<E>&>()));
template <class E>
using combine = decltype(engine<E>().combine(Op{}));
template <class E>
using init_message_buffer = decltype(engine<E>().init_message_buffer(message<E>()));
template <class E>
using launch = decltype(engine<E>().template launch<VERTEX>(Domain::All, Element{}, LaunchRange{}));
template <class E>
using launch_elist_edges = decltype(engine<E>().launch_elist_edges(Domain::All, Element{}, LaunchRange{}));
template <class E>
using push_fold_edges = decltype(engine<E>().push_fold_edges(Element{}, Op{}, message<E>()));
template <class E>
using fused_combine = decltype(engine<E>().fused_combine(Element{}, Op{}, message<E>(), Domain::All));
template <class E>
using frontier_pull_preferred = decltype(bool{engine<E>().frontier_pull_preferred()});
template <class E>
using report = decltype(std::string{std::as_const(engine<E>()).report()});
template <class E>
using begin_superstep = decltype(engine<E>().begin_superstep(std::uint32_t{0}));
template <class E>
using finish_superstep = decltype(engine<E>().finish_superstep());
template <class E>
using collect = std::enable_if_t<std::is_same_v<decltype(engine<E>().collect()), StepCounts>>;
template <class E>
using abandon = decltype(engine<E>().abandon());
template <class E>
using take_edges_visited = decltype(std::uint64_t{engine<E>().take_edges_visited()});

// kFusesVertexIntoGather: the gather of a fused pass waits for the next operation.
template <class E>
using gather_pending = decltype(bool{engine<E>().gather_pending()});
template <class E>
using issue_pending_gather = decltype(engine<E>().issue_pending_gather(Op{}));
template <class E>
using issue_pending_gather_with_vertex = decltype(engine<E>().issue_pending_gather(Op{}, Element{}));
template <class E>
using take_source_prefetches = decltype(std::uint32_t{engine<E>().take_source_prefetches()});

// kBatchesSupersteps: batches of supersteps with one read-back, their replays, a held VERTEX launch.
template <class E>
using hold_receiver_vertex = decltype(bool{engine<E>().hold_receiver_vertex(Element{})});
template <class E>
using vertex_held = decltype(bool{engine<E>().vertex_held()});
template <class E>
using issue_held_vertex = decltype(engine<E>().issue_held_vertex());
template <class E>
using join_held_vertex_before_exchange = decltype(engine<E>().join_held_vertex_before_exchange());
template <class E>
using begin_run = decltype(engine<E>().begin_run(true));
template <class E>
using replay_length = decltype(std::uint32_t{engine<E>().replay_length(std::uint32_t{0}, std::uint32_t{0})});
template <class E>
using replay_batch = decltype(engine<E>().replay_batch(std::uint32_t{0}).stopped);
template <class E>
using record_together = decltype(E::record_together(std::declval<std::vector<std::unique_ptr<E>>&>()));
template <class E>
using replay_together = decltype(E::replay_together(std::declval<std::vector<std::unique_ptr<E>>&>()));
template <class E>
using forget_replay = decltype(engine<E>().forget_replay());
template <class E>
using batching = decltype(bool{engine<E>().batching()});
template <class E>
using end_batched_superstep_here =
    decltype(engine<E>().end_batched_superstep_here(std::declval<const std::array<int, kVoteSlots>&>()));
template <class E>
using end_batched_supersteps_together = decltype(E::end_batched_supersteps_together(
    std::declval<std::vector<std::unique_ptr<E>>&>(), std::declval<const std::array<int, kVoteSlots>&>()));
template <class E>
using batched_superstep_outcome = decltype(engine<E>().batched_superstep_outcome(true)->stopped);
template <class E>
using wants_batch = decltype(bool{engine<E>().wants_batch()});
template <class E>
using start_batch = decltype(engine<E>().start_batch());
template <class E>
using batch_active = decltype(bool{std::as_const(engine<E>()).batch_active()});
template <class E>
using leave_batch = decltype(engine<E>().leave_batch());

// exchanges_by_id_on_devices: reads and sends by id among the engines of one process, on their devices.
template <class E>
using refresh_by_id_mirrors_on_devices =
    decltype(E::refresh_by_id_mirrors_on_devices(std::declval<std::vector<std::unique_ptr<E>>&>()));
template <class E>
using deliver_sends_by_id_on_devices =
    decltype(E::deliver_sends_by_id_on_devices(std::declval<std::vector<std::unique_ptr<E>>&>()));
}  // namespace engine_requirements

template <class E, template <class> class Requirement, class = void>
struct meets : std::false_type {};
template <class E, template <class> class Requirement>
struct meets<E, Requirement, std::void_t<Requirement<E>>> : std::true_type {};

template <class E, bool kFuses>
struct meets_gather_fusion : std::true_type {};
template <class E>
struct meets_gather_fusion<E, true>
    : std::conjunction<meets<E, engine_requirements::gather_pending>,
                       meets<E, engine_requirements::issue_pending_gather>,
                       meets<E, engine_requirements::issue_pending_gather_with_vertex>,
                       meets<E, engine_requirements::take_source_prefetches>> {};

template <class E, bool kBatches>
struct meets_batching : std::true_type {};
template <class E>
struct meets_batching<E, true>
    : std::conjunction<meets<E, engine_requirements::hold_receiver_vertex>,
                       meets<E, engine_requirements::vertex_held>, meets<E, engine_requirements::issue_held_vertex>,
                       meets<E, engine_requirements::join_held_vertex_before_exchange>,
                       meets<E, engine_requirements::begin_run>, meets<E, engine_requirements::replay_length>,
                       meets<E, engine_requirements::replay_batch>, meets<E, engine_requirements::record_together>,
                       meets<E, engine_requirements::replay_together>, meets<E, engine_requirements::forget_replay>,
                       meets<E, engine_requirements::batching>,
                       meets<E, engine_requirements::end_batched_superstep_here>,
                       meets<E, engine_requirements::end_batched_supersteps_together>,
                       meets<E, engine_requirements::batched_superstep_outcome>,
                       meets<E, engine_requirements::wants_batch>, meets<E, engine_requirements::start_batch>,
                       meets<E, engine_requirements::batch_active>, meets<E, engine_requirements::leave_batch>> {};

template <class E, bool kOnDevices>
struct meets_by_id_on_devices : std::true_type {};
template <class E>
struct meets_by_id_on_devices<E, true>
    : std::conjunction<meets<E, engine_requirements::refresh_by_id_mirrors_on_devices>,
                       meets<E, engine_requirements::deliver_sends_by_id_on_devices>> {};

template <class E, class = void>
struct meets_optional : std::false_type {};
template <class E>
struct meets_optional<E, std::void_t<engine_requirements::flags<E>>>
    : std::conjunction<meets_gather_fusion<E, E::kFusesVertexIntoGather>, meets_batching<E, E::kBatchesSupersteps>,
                       meets_by_id_on_devices<E, exchanges_by_id_on_devices<E>::value>> {};

// Whether E provides every member PartitionedSession<Program, E, Exchange> calls.
template <class E>
struct is_partition_engine
    : std::conjunction<
          meets<E, engine_requirements::construct>, meets<E, engine_requirements::flags>,
          meets<E, engine_requirements::pull_fusion>, meets<E, engine_requirements::download>,
          meets<E, engine_requirements::combine>, meets<E, engine_requirements::init_message_buffer>,
          meets<E, engine_requirements::launch>, meets<E, engine_requirements::launch_elist_edges>,
          meets<E, engine_requirements::push_fold_edges>, meets<E, engine_requirements::fused_combine>,
          meets<E, engine_requirements::frontier_pull_preferred>, meets<E, engine_requirements::report>,
          meets<E, engine_requirements::begin_superstep>, meets<E, engine_requirements::finish_superstep>,
          meets<E, engine_requirements::collect>, meets<E, engine_requirements::abandon>,
          meets<E, engine_requirements::take_edges_visited>, meets_optional<E>> {};

}  // namespace medusa::common
