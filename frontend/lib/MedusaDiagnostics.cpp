#include "medusa-cc/MedusaDiagnostics.h"

namespace medusa::cc {
namespace {

struct DiagText {
  Diag diag;
  clang::DiagnosticsEngine::Level level;
  const char* format;
};

using L = clang::DiagnosticsEngine::Level;

// The catalogue; docs/medusa-cc.md lists the same messages.
constexpr DiagText kDiagnostics[] = {
    {Diag::NoVertexType, L::Error,
     "no vertex type: declare a struct deriving from medusa::VertexBase<Message>"},
    {Diag::NoEdgeType, L::Error,
     "no edge type: declare a struct deriving from medusa::EdgeBase<%0> (it may be empty)"},
    {Diag::SeveralGraphTypes, L::Error,
     "a second %0 type '%1': a Medusa program has exactly one type deriving from "
     "medusa::%select{VertexBase|EdgeBase}2"},
    {Diag::EdgeOfOtherVertex, L::Error,
     "edge type '%0' derives from medusa::EdgeBase<%1>, but the vertex type is '%2'"},
    {Diag::NotInMainFile, L::Error,
     "%0 '%1' must be defined in the translated file, not in a header, so that medusa-cc can "
     "generate device code for it"},
    {Diag::NotAtGlobalScope, L::Error,
     "%0 '%1' must be declared at namespace scope (not inside a function, a class or an "
     "anonymous namespace)"},
    {Diag::DeclaredHere, L::Note, "'%0' declared here"},
    {Diag::TemplateNotSupported, L::Error,
     "%0 '%1' is a template; medusa-cc translates only non-template functors, combiners and "
     "graph types"},
    {Diag::MacroDefinitionNotSupported, L::Error,
     "%0 '%1' is produced by a macro; write its definition out so medusa-cc can rewrite it"},
    {Diag::BuiltinNameClash, L::Error,
     "%0 '%1' of %2 type '%3' %select{clashes with the Medusa built-in '%1'|uses the prefix "
     "'medusa_', which is reserved for generated code}4; rename it"},
    {Diag::UnsupportedFieldType, L::Error,
     "field '%0' of type %1 cannot live on the device: %2"},
    {Diag::NoCallOperator, L::Error,
     "functor '%0' passed to EMV<%1>::Run has no operator(); give it "
     "'void operator()(...) const'"},
    {Diag::SeveralCallOperators, L::Error,
     "functor '%0' must have exactly one operator(), and not a template; the parameter types "
     "decide its API kind"},
    {Diag::CallOperatorNotConst, L::Error,
     "operator() of functor '%0' must be const: the runtime copies functors to the device and "
     "calls them from many threads; keep per-element state in the vertex or edge"},
    {Diag::SignatureMatchesNoKind, L::Error,
     "operator() of '%0' matches no EMV API kind; allowed parameter lists (in either order, "
     "by value or reference) are: (%1, EdgeList<%2>) for ELIST, (%2) for EDGE, "
     "(%1, MessageList<%3>) for MLIST, (%3) for MESSAGE, (%1) for VERTEX"},
    {Diag::PassedToRunHere, L::Note, "'%0' is passed to EMV<%1>::Run here"},
    {Diag::RunKindMismatch, L::Error,
     "EMV<%0>::Run is given '%1', which is a %2 functor; call EMV<%2>::Run or change its "
     "operator() parameters"},
    {Diag::FunctorDeclaredHere, L::Note, "operator() of '%0' declared here"},
    {Diag::FunctorUsedWithTwoKinds, L::Error,
     "functor '%0' is launched as both %1 and %2; one functor has one API kind"},
    {Diag::DomainNotAllowed, L::Error,
     "Domain::%0 cannot be used with EMV<%1>::Run; %2"},
    {Diag::NonTriviallyCopyableMember, L::Error,
     "member '%0' of %1 '%2' has type %3, which is not trivially copyable; the functor is copied "
     "byte-wise to the device, so use plain values (numbers, plain structs)"},
    {Diag::HostAddressMember, L::Error,
     "member '%0' of %1 '%2' %select{is|holds}3 a %select{pointer|reference}4%select{| ('%5')}3; "
     "the %1 is copied to the GPU, where a host address cannot be dereferenced: store the values "
     "in a vertex or edge field, or pass them as value members"},
    {Diag::MessageTypeNotTrivial, L::Error,
     "message type %0 must be arithmetic or a trivially copyable struct"},
    {Diag::BuiltinCombinerOnStruct, L::Error,
     "Combiner() with a built-in operator needs an arithmetic message type, but messages are %0; "
     "pass a combiner operator: Combiner(MyOp{})"},
    {Diag::CombinerSignature, L::Error,
     "combiner operator '%0' must have 'M operator()(const M&, const M&) const' with M the "
     "message type %1"},
    {Diag::LogicalCombinerOnInteger, L::Warning,
     "%0 is a logical operator: it folds %1 messages to 0 or 1, not bit by bit; use %2 to "
     "combine bitmasks (or a bool message type for a logical result)"},
    {Diag::BitwiseCombinerOnFloat, L::Error,
     "%0 is a bitwise operator and needs an integer message type, but messages are %1; use an "
     "integer message type, MEDUSA_LOGICAL_OR / MEDUSA_LOGICAL_AND for 0/1 results, or "
     "Combiner(MyOp{})"},
    {Diag::HeadInElist, L::Error,
     "e.head() in ELIST functor '%0': the head of every edge in the list is the functor's "
     "vertex parameter; use it instead"},
    {Diag::VirtualCall, L::Error,
     "virtual call to '%0' cannot run on the GPU; call a non-virtual function"},
    {Diag::ExceptionUse, L::Error,
     "%0 cannot run on the GPU; report errors through a vertex field or Halt()"},
    {Diag::HeapAllocation, L::Error,
     "'%0' cannot run on the GPU (no heap in device code); use fixed-size local variables or "
     "vertex/edge fields"},
    {Diag::HeapFunction, L::Error,
     "call to '%0' cannot run on the GPU (no heap in device code); use fixed-size local "
     "variables or vertex/edge fields"},
    {Diag::Recursion, L::Error,
     "recursive call to '%0' cannot run on the GPU; rewrite it as a loop"},
    {Diag::RecursionCycle, L::Note, "call cycle: %0"},
    {Diag::StdType, L::Error,
     "%0 of type %1 cannot be used on the GPU: only the <cmath>, <cstdint>, <limits> and "
     "<utility> vocabulary of the standard library is available in device code"},
    {Diag::StdFunction, L::Error,
     "call to '%0' cannot run on the GPU: only <cmath> functions, std::min/max/abs/swap and "
     "std::numeric_limits are available in device code"},
    {Diag::IoUse, L::Error,
     "'%0' performs I/O, which cannot run on the GPU; store results in vertex fields and print "
     "them on the host after Dump_Result"},
    {Diag::NonConstGlobal, L::Error,
     "%0 '%1' is a non-const %2 variable in host memory and cannot be %3 on the GPU; pass the "
     "value as a functor member, or make it const"},
    {Diag::NoVisibleBody, L::Error,
     "call to '%0', whose body medusa-cc cannot see or translate; define it in this file (it "
     "is then compiled for the GPU) or use a <cmath> function"},
    {Diag::IndirectCall, L::Error,
     "call through a function pointer cannot be translated for the GPU; call the function "
     "directly"},
    {Diag::HostMedusaApi, L::Error,
     "'%0' is a host-side Medusa API; call it from the iteration function, not from device "
     "code"},
    {Diag::RttiUse, L::Error, "%0 cannot run on the GPU (no run-time type information)"},
    {Diag::EdgeWritesVertex, L::Error,
     "EDGE functor '%0' writes field '%1' of a vertex; an edge owns no vertex, so send a "
     "message with e.sendMsg(...) and update the vertex in a VERTEX or MLIST functor"},
    {Diag::HelperTakesGraphType, L::Error,
     "function '%0' called from device code takes a %1 (parameter '%2'); on the device "
     "vertices and edges are proxies, so pass the field values instead"},
    {Diag::MethodOfGraphType, L::Error,
     "member function '%0' of %1 type '%2' cannot be called in a functor: on the device the "
     "functor sees a proxy with the fields and built-ins only; make it a free function taking "
     "field values"},
    {Diag::GraphValueCopy, L::Error,
     "variable '%0' %select{is a new %select{vertex|edge}1 value|writes field '%3' of a copy of "
     "%select{a vertex|an edge}1}2; on the device vertices and edges are views of the graph's "
     "arrays (a copy still refers to the same element), so bind a reference ('auto&& %0 = ...') "
     "or use a struct of your own"},
    {Diag::EdgeListReference, L::Error,
     "'%0' binds el[i] to a non-const reference; on the device el[i] is a temporary view of the "
     "edge, so write 'auto&& %0 = el[i];' (or 'auto %0 = el[i];')"},
    {Diag::ElementAddress, L::Error,
     "address of '%0' taken in device code; on the GPU vertices, edges, edge and message lists, "
     "their fields and messages are views of the graph's arrays, so the pointer would not point "
     "into the element: use '%0' directly or bind a reference to it ('auto&& x = %0;')"},
    {Diag::CalledFromFunctor, L::Note, "'%0' is called from device code here"},
    {Diag::ScheduleNotIteration, L::Error,
     "MEDUSA_SCHEDULE names '%0', which is not an iteration function: it issues no Medusa "
     "operation (InitMessageBuffer, EMV<K>::Run, Combiner); name the function passed to Device::Run"},
    {Diag::ScheduleTwice, L::Error,
     "a second MEDUSA_SCHEDULE for '%0' (the first is on line %1); give each iteration function one "
     "schedule"},
    {Diag::ScheduleRejected, L::Error, "schedule of '%0': %1"},
    {Diag::ScheduleNoEffect, L::Warning, "schedule of '%0': %1"},
    {Diag::AggregateMisuse, L::Error,
     "aggregate '%0' can only be used as '%0.add(x)' or '%0.value()' in a functor: it is folded "
     "once per superstep, and functors contribute to it only through add()"},
    {Diag::AggregateQualified, L::Error,
     "write the aggregate as plain '%0' inside a functor (not '%1'): medusa-cc binds that name to "
     "the aggregate's device slot"},
    {Diag::AggregateOutsideFunctor, L::Error,
     "aggregate '%0' is used in '%1', which device code calls; use it directly in a functor's "
     "operator() (pass the value in, or return what to add)"},
    {Diag::AggregateAddOnHost, L::Error,
     "'%0.add()' in host code: an aggregate folds what functors add during a superstep; call add() "
     "in a functor, and read the result with '%0.value()'"},
    {Diag::TooManyAggregates, L::Error,
     "aggregate '%0' is number %1: a program may declare at most %2 aggregates"},
    {Diag::AggregateOperatorSignature, L::Error,
     "operator '%0' of aggregate '%1' must be a struct with 'T operator()(const T&, const T&) const' "
     "for T = %2, associative and commutative"},
    {Diag::InEdgeLoopNotParallel, L::Error,
     "ELIST functor '%0' takes an InEdgeList: its body must be local declarations followed by one "
     "loop 'for (i = 0; i < %1.size(); ++i)' whose iterations use '%1' only as '%1[i]' and do not "
     "stop early or write anything outside the iteration (the runtime runs each in-edge in the "
     "thread of the vertex it sends to)"},
    {Diag::InEdgeWritesVertex, L::Error,
     "ELIST functor '%0' over in-edges writes field '%1' of its vertex: each in-edge runs in the "
     "thread of its head, so several threads would write it; send a message and write it in a "
     "VERTEX functor"},
    {Diag::InEdgeNeedsCombiner, L::Error,
     "EMV<ELIST>::Run(%0) sends against the edges' direction: the next Medusa operation of '%1' "
     "must be the built-in Combiner(), which folds those messages"},
    {Diag::NeighborSetOutsideElist, L::Error,
     "functor '%0' reads neighbour sets (neighbors(), head_neighbors() or tail_neighbors()), which "
     "only ELIST functors over out-edges (EdgeList) may, but it is %1; move the intersection into an "
     "ELIST functor"},
    {Diag::ByIdWrite, L::Error,
     "functor '%0' writes field '%1' of a vertex read by id: vertex_at gives a read-only view, and a "
     "functor writes only its own vertex; send the value with sendMsgTo(id, msg) and write it in a "
     "VERTEX functor"},
    {Diag::ByIdReadOfWrittenField, L::Error,
     "functor '%0' reads field '%1' of other vertices by id and writes its own '%1' in the same launch, "
     "so a read could see another element's write; write the new value to a second field and copy it "
     "in a later VERTEX launch"},
    {Diag::ByIdNotIntegral, L::Error,
     "the vertex id passed to %0 has type %1; pass an integral vertex id (medusa::VertexId)"},
    {Diag::ByIdElement, L::Error,
     "the first argument of vertex_at must be the functor's %select{vertex|edge}0 parameter, which "
     "gives the launch's context"},
    {Diag::ByIdViewMethod, L::Error,
     "functor '%0' calls %1() on a vertex read by id: vertex_at gives only that vertex's fields; "
     "keep what you need in a field of it, or send it a message with sendMsgTo(id, msg)"},
    {Diag::PriorityNotInteger, L::Error,
     "the priority '%0' given to SetActive has type '%1'; a priority is an unsigned integer (its "
     "bucket is priority / delta, lowest first): scale or round it into one, e.g. a distance in "
     "whole units"},
    {Diag::PriorityNegative, L::Error,
     "the priority '%0' given to SetActive is %1; a priority is an unsigned integer (its bucket is "
     "priority / delta, lowest first): give 0 or more"},
    {Diag::PrioritySigned, L::Error,
     "the priority '%0' given to SetActive has signed type '%1' and might be negative, which would "
     "wrap to the last bucket; a priority is an unsigned integer: cast a value you know is not "
     "negative ('static_cast<unsigned>(...)'), or compute it in an unsigned type"},
};
static_assert(sizeof(kDiagnostics) / sizeof(kDiagnostics[0]) == static_cast<size_t>(Diag::Count),
              "every Diag has a text");

}  // namespace

MedusaDiagnostics::MedusaDiagnostics(clang::DiagnosticsEngine& engine) : engine_(engine) {
  for (const DiagText& d : kDiagnostics)
    ids_[static_cast<size_t>(d.diag)] = engine_.getDiagnosticIDs()->getCustomDiagID(
        static_cast<clang::DiagnosticIDs::Level>(d.level), d.format);
}

clang::DiagnosticBuilder MedusaDiagnostics::report(clang::SourceLocation loc, Diag diag) {
  return engine_.Report(loc, ids_[static_cast<size_t>(diag)]);
}

}  // namespace medusa::cc
