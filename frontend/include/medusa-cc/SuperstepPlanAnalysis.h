// Lists the Medusa operations of each function of the main file, in source order: InitMessageBuffer,
// EMV<K>::Run, Combiner() and Combiner(op), and whether each is a statement of the function's body
// (a straight line) or sits under a branch, a loop or a larger expression. SuperstepPlan.h turns
// the lists into superstep plans. Lambdas are not listed: their operations belong to no plan.
#pragma once

#include "medusa-cc/ProgramMatcher.h"
#include "medusa-cc/ProgramModel.h"

#include <clang/AST/ASTContext.h>

#include <vector>

namespace medusa::cc {

class SuperstepPlanAnalysis {
 public:
  explicit SuperstepPlanAnalysis(clang::ASTContext& context) : context_(context) {}

  std::vector<IterationOps> iterations(const ProgramAst& ast);

 private:
  clang::ASTContext& context_;
};

}  // namespace medusa::cc
