// Global aggregates (runtime: medusa/aggregate.h): finds the namespace-scope Aggregate<T, op> and
// CustomAggregate<T, Op> variables of the main file and numbers them, records which functors add
// to or read which, and reports every other use: a qualified or indirect use in a functor, a use
// in a helper (GpuSafetyChecker), add() in host code, too many aggregates, a bad operator.
#pragma once

#include "medusa-cc/GpuSafetyChecker.h"
#include "medusa-cc/MedusaDiagnostics.h"
#include "medusa-cc/ProgramMatcher.h"
#include "medusa-cc/ProgramModel.h"

#include <clang/AST/ASTContext.h>

#include <map>
#include <vector>

namespace medusa::cc {

// The medusa::AggregateBase<T, Op> a type (or a reference to it) derives from, or null.
const clang::ClassTemplateSpecializationDecl* aggregateBase(clang::QualType type);
inline bool isAggregateType(clang::QualType type) { return aggregateBase(type) != nullptr; }

class AggregateAnalysis {
 public:
  AggregateAnalysis(clang::ASTContext& context, MedusaDiagnostics& diags) : context_(context), diags_(diags) {}

  // Fills model.aggregates and checks each declaration and user operator (whose operator() gets
  // MEDUSA_HD and the GPU-safety checks).
  void collect(ProgramModel& model, GpuSafetyChecker& checker);
  // Records the aggregates `functor` adds to and reads; reports any other use of one.
  void analyzeFunctor(const clang::CXXMethodDecl& call_operator, FunctorInfo& functor);
  // Reports add() outside the functors' call operators.
  void checkHostAdds(const ProgramAst& ast);

 private:
  clang::ASTContext& context_;
  MedusaDiagnostics& diags_;
  std::map<const clang::VarDecl*, int> index_;
};

}  // namespace medusa::cc
