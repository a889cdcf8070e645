// The plain-C++ description of one Medusa program that the later stages (emitter, --emit-model)
// work from. Nothing here refers to Clang: the analysis fills it, the emitter only reads it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace medusa::cc {

// The five EMV API kinds of the paper's Table 1 (mirrors medusa::ApiKind).
enum class ApiKind { Elist, Edge, Mlist, Message, Vertex };
const char* apiKindName(ApiKind kind);  // "ELIST", ...
std::optional<ApiKind> apiKindFromRuntimeValue(int64_t value);  // medusa::ApiKind enumerator value

// The domain argument of one EMV<K>::Run call; Dynamic when it is not a constant.
enum class DomainUse { All, Active, Received, Dynamic };
const char* domainName(DomainUse domain);

// A text region [begin, end) of the main file, in bytes, with its first and last line (1-based).
struct SourceRegion {
  unsigned begin_offset = 0;
  unsigned end_offset = 0;
  unsigned begin_line = 0;
  unsigned end_line = 0;
};

struct FieldInfo {
  std::string name;
  std::string type;     // fully qualified, as the emitted code spells it ("float[4]" for arrays)
  uint64_t offset = 0;  // bytes, offsetof(record, name)
  unsigned line = 0;
  // For fixed-size arrays: the element type and the extents ("float", "[4]"); else type, "".
  std::string element_type;
  std::string array_suffix;

  // "float* x" / "float (*x)[4]"; "const float& x" / "const float (&x)[4]".
  std::string declarator(const char* pointer_or_reference, bool is_const) const;
  // "float*" / "float (*)[4]".
  std::string pointerType() const;
};

struct RecordInfo {
  std::string name;        // the user's spelling ("Vertex"), also the proxy name
  std::string qualified;   // "::Vertex"
  std::vector<FieldInfo> fields;
  unsigned line = 0;
  SourceRegion region;     // whole lines of the definition
  std::vector<std::string> namespaces;  // enclosing named namespaces, outermost first
  const FieldInfo* field(const std::string& field_name) const;
};

struct FieldUse {
  bool read = false;
  bool written = false;
  // Written by a statement that runs on every element (top level of operator()), so the field
  // need not be uploaded when nothing reads it.
  bool written_unconditionally = false;
};

enum class ParamRole { Vertex, Edge, EdgeList, MessageList, Message, InEdgeList };
const char* paramRoleName(ParamRole role);

struct ParamInfo {
  ParamRole role;
  std::string name;
};

// The named namespaces around a declaration, outermost first ("inline ns" for inline ones).
using NamespacePath = std::vector<std::string>;

// An ELIST functor whose edge loop has independent iterations (EdgeLoopAnalysis): the emitter
// turns each (vertex, edge) pair into one work item that re-runs the prologue and one iteration.
struct EdgeLoopInfo {
  std::string index_name;  // the loop variable ("i")
  std::string index_type;  // its type as spelled by clang ("int", "unsigned int")
  SourceRegion prologue;   // the statements before the loop (empty when begin == end)
  SourceRegion body;       // the loop body statement, without a trailing ';'
  // When the body is just `el[i].sendMsg(E)` with E free of i, of el and of side effects: E's
  // text. Every out-edge of a vertex then gets the same message, which a pull pass computes once
  // per source vertex.
  std::optional<SourceRegion> uniform_message;
};

struct FunctorInfo {
  std::string name;
  NamespacePath namespaces;
  ApiKind kind = ApiKind::Vertex;
  std::vector<ParamInfo> params;  // in declaration order
  SourceRegion region;            // whole lines of the struct definition, including `};`
  unsigned operator_line = 0;
  // Field name -> use. `head_fields` are the head vertex's fields read through e.head().
  std::map<std::string, FieldUse> vertex_fields, edge_fields, head_fields;
  // Fields of other vertices read by id through vertex_at(element, id) (medusa/by_id.h).
  std::map<std::string, FieldUse> by_id_fields;
  bool reads_by_id = false;
  bool sends_by_id = false;  // x.sendMsgTo(id, msg)
  bool sends_messages = false;
  bool sets_vertex_active = false;
  bool sets_vertex_priority = false;  // calls v.SetActive(priority)
  bool sets_edge_active = false;
  bool continue_vote = false;
  bool halt_vote = false;
  bool uses_superstep = false;
  bool uses_head = false;
  bool reads_combined = false;  // calls combined_msg() on its vertex or a head vertex
  bool reads_neighbor_sets = false;  // neighbors(), head_neighbors(), tail_neighbors()
  std::vector<DomainUse> domains;  // of every Run call that launches it
  std::optional<EdgeLoopInfo> edge_loop;  // ELIST only, when proven edge-parallel
  // VERTEX only: the ELIST functor whose pass over every vertex precedes each of its launches over
  // every vertex, or empty (SourcePrefetchAnalysis).
  std::string next_source_functor;
  // ELIST only: the list is an InEdgeList (messages go to each in-edge's head).
  bool in_edges = false;
  // Global aggregates (AggregateAnalysis), by ProgramModel::aggregates index.
  std::vector<int> aggregates_added, aggregates_read;
  bool uses_aggregate(int index) const;
};

// A global aggregate (medusa/aggregate.h): a namespace-scope Aggregate<T, op> or
// CustomAggregate<T, Op> of the main file, numbered in declaration order.
struct AggregateInfo {
  std::string name;        // "removed"
  std::string qualified;   // "::removed", "::app::removed"
  std::string value_type;  // "int"
  std::string op;          // "MEDUSA_SUM", or the user's operator ("::AbsMax")
  unsigned line = 0;
};

// A user-defined combiner operator passed to medusa::Combiner(op).
struct CombinerInfo {
  std::string name;
  NamespacePath namespaces;
  SourceRegion region;
};

// A function defined in the main file that a functor or combiner calls; emitted with MEDUSA_HD.
struct HelperInfo {
  std::string name;
  unsigned line = 0;
};

struct RunCallInfo {
  std::string functor;
  ApiKind requested = ApiKind::Vertex;
  DomainUse domain = DomainUse::All;
  std::string iteration_function;
  unsigned line = 0;
};

// One Medusa operation of an iteration function, in source order (SuperstepPlanAnalysis).
struct PlanOp {
  enum class Kind { InitMessageBuffer, Run, Combiner, UserCombiner };
  Kind kind = Kind::Run;
  ApiKind run_kind = ApiKind::Vertex;  // Run only
  std::string functor;                 // Run: the functor; UserCombiner: the operator
  DomainUse domain = DomainUse::All;   // Run only
  unsigned line = 0;
};

struct IterationOps {
  std::string function;
  bool straight_line = true;  // every Medusa operation is a statement of the function's body
  // A `void F()` outside anonymous namespaces and classes: Device::Run can be given it, and the
  // generated code can name it to register its plan.
  bool plain_function = false;
  std::vector<PlanOp> ops;
};

// What the runtime does with a step's operations: medusa::plan::Form (runtime/include/medusa/plan.h),
// enumerator for enumerator, in the emitted constexpr plan.
enum class StepForm {
  Fill, Launch, Combine, CombineWith, PullGather, FrontierPass, PushCombine, Unfused, InEdgePull,
  JoinedVertex, ReceiverVertex, AsCalled, AggregateFold
};
const char* stepFormName(StepForm form);  // "PullGather": the runtime enumerator

// A step of the superstep plan: the operations it covers, the form the runtime gives them, and
// why medusa-cc expects that form (SuperstepPlan.h).
struct PlanStep {
  std::string operations;  // "InitMessageBuffer + EMV<ELIST>::Run(SendRank) + Combiner()"
  std::string form;        // "pull gather"
  std::string why;
  StepForm runs_as = StepForm::Launch;
  ApiKind run_kind = ApiKind::Vertex;  // of the step's EMV<K>::Run (VERTEX for steps without one)
  DomainUse domain = DomainUse::All;   // of that Run
};

// A MEDUSA_SCHEDULE of the main file (ScheduleAnalysis): each setting is the value of its
// enumerator in medusa::Schedule (runtime/include/medusa/schedule.h); 0 is auto.
struct ScheduleInfo {
  std::string function;  // qualified, as IterationOps::function ("ns::F")
  std::string where;     // "bfs.cpp:42": the file's name and the MEDUSA_SCHEDULE line
  int frontier_pull = 0;    // FrontierPull: 1 pull(), 2 push()
  int gather_fusion = 0;    // Toggle (1 on, 2 off): no_gather_fusion()
  int push_combine = 0;     // push_combine() / no_push_combine()
  int vertex_fusion = 0;    // vertex_fusion() / no_vertex_fusion()
  int source_prefetch = 0;  // source_prefetch() / no_source_prefetch()
  int superstep_batch = 0;  // SuperstepBatching: 1 batching(), 2 no_batching()
  int end_fusion = 0;       // no_end_fusion()
};

struct SuperstepPlan {
  std::string function;
  std::string schedule;  // the source schedule folded in ("set in the source (bfs.cpp:42): push()"), or empty
  std::vector<PlanStep> steps;
  std::string superstep_end;             // votes, frontier, read-back
  std::string replay;                    // replayable or not, and why
  std::vector<std::string> run_time;     // choices that depend on the data
};

// What ProgramTraits::uses reports to the runtime.
struct ProgramUsesInfo {
  bool continue_vote = false;
  bool halt_vote = false;
  bool vertex_frontier = false;
  bool edge_frontier = false;
  bool received = false;
  bool messages = false;
  bool edge_reads_combined = false;  // an ELIST/EDGE functor calls combined_msg()
  bool combiner_consumes_slots = false;  // SlotLifetimeAnalysis
  bool neighbor_sets = false;  // a functor reads neighbour sets: sorted CSR rows
  bool reads_by_id = false;   // vertex_at(element, id)
  bool sends_by_id = false;   // sendMsgTo(id, msg)
  bool in_edges = false;      // an ELIST functor takes an InEdgeList
  bool priorities = false;               // v.SetActive(priority)
};

struct ProgramModel {
  std::string source_path;  // as given on the command line
  RecordInfo vertex;
  RecordInfo edge;
  std::string message_type;  // fully qualified
  bool message_is_arithmetic = true;
  std::vector<FunctorInfo> functors;    // in source order
  std::vector<AggregateInfo> aggregates;  // in declaration order: the index is the runtime slot
  std::vector<CombinerInfo> combiners;  // in source order
  std::vector<HelperInfo> helpers;
  std::vector<RunCallInfo> runs;
  std::vector<std::string> iteration_functions;
  // Iteration functions the CUDA runtime may replay without calling them, spelled from global
  // scope ("::BFS", "::ns::Step"); the emitter registers them (IterationReplayAnalysis).
  std::vector<std::string> replayable_iterations;
  std::vector<std::string> combiner_op_types;  // right-hand sides of conf.combinerOpType = ...
  std::vector<IterationOps> iterations;  // Medusa operations per function (SuperstepPlanAnalysis)
  std::vector<ScheduleInfo> schedules;   // MEDUSA_SCHEDULE settings, in source order (ScheduleAnalysis)
  bool uses_builtin_combiner = false;
  bool iteration_halts = false;  // an iteration function calls Halt() itself (host code)
  bool combiner_consumes_slots = false;  // no slot is read after its Combiner (SlotLifetimeAnalysis)
  // Byte offsets in the main file where "MEDUSA_HD " is inserted (helpers, operator()s).
  std::vector<unsigned> hd_insertions;

  ProgramUsesInfo uses() const;
  const FunctorInfo* functor(const std::string& name) const;
};

}  // namespace medusa::cc
