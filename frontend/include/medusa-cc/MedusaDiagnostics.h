// medusa-cc's own diagnostics, reported through clang's DiagnosticsEngine so they look (and are
// verified, with --verify) exactly like compiler errors. Every message says what to do instead.
#pragma once

#include <clang/Basic/Diagnostic.h>

#include <array>

namespace medusa::cc {

enum class Diag {
  // Program shape
  NoVertexType,
  NoEdgeType,
  SeveralGraphTypes,
  EdgeOfOtherVertex,
  NotInMainFile,
  NotAtGlobalScope,
  DeclaredHere,
  TemplateNotSupported,
  MacroDefinitionNotSupported,
  BuiltinNameClash,
  UnsupportedFieldType,
  NoCallOperator,
  SeveralCallOperators,
  CallOperatorNotConst,
  SignatureMatchesNoKind,
  PassedToRunHere,
  RunKindMismatch,
  FunctorDeclaredHere,
  FunctorUsedWithTwoKinds,
  DomainNotAllowed,
  NonTriviallyCopyableMember,
  HostAddressMember,
  MessageTypeNotTrivial,
  BuiltinCombinerOnStruct,
  CombinerSignature,
  LogicalCombinerOnInteger,
  BitwiseCombinerOnFloat,
  HeadInElist,
  // GPU safety (inside functors and everything they call)
  VirtualCall,
  ExceptionUse,
  HeapAllocation,
  HeapFunction,
  Recursion,
  RecursionCycle,
  StdType,
  StdFunction,
  IoUse,
  NonConstGlobal,
  NoVisibleBody,
  IndirectCall,
  HostMedusaApi,
  RttiUse,
  EdgeWritesVertex,
  HelperTakesGraphType,
  MethodOfGraphType,
  GraphValueCopy,
  EdgeListReference,
  ElementAddress,
  CalledFromFunctor,
  // Schedules set in the source (MEDUSA_SCHEDULE)
  ScheduleNotIteration,
  ScheduleTwice,
  ScheduleRejected,
  ScheduleNoEffect,
  // Global aggregates and in-edge messages
  AggregateMisuse,
  AggregateQualified,
  AggregateOutsideFunctor,
  AggregateAddOnHost,
  TooManyAggregates,
  AggregateOperatorSignature,
  InEdgeLoopNotParallel,
  InEdgeWritesVertex,
  InEdgeNeedsCombiner,
  NeighborSetOutsideElist,
  // Reads and sends by vertex id
  ByIdWrite,
  ByIdReadOfWrittenField,
  ByIdNotIntegral,
  ByIdElement,
  ByIdViewMethod,
  // SetActive(priority)
  PriorityNotInteger,
  PriorityNegative,
  PrioritySigned,
  Count
};

class MedusaDiagnostics {
 public:
  explicit MedusaDiagnostics(clang::DiagnosticsEngine& engine);
  clang::DiagnosticBuilder report(clang::SourceLocation loc, Diag diag);
  bool hasErrors() const { return engine_.hasErrorOccurred(); }
  clang::DiagnosticsEngine& engine() { return engine_; }

 private:
  clang::DiagnosticsEngine& engine_;
  std::array<unsigned, static_cast<size_t>(Diag::Count)> ids_{};
};

}  // namespace medusa::cc
