// Finds the replayable iteration functions: every call issues the same Medusa operations with the
// same arguments and does nothing else, so the CUDA runtime may record one batch of supersteps as
// a graph and launch it again without calling the function (docs/design/superstep-batches.md).
// Generated code registers them (medusa::detail::register_replayable_iteration).
//
// Conservative. Yes only for a function defined in the main file at namespace scope (no member,
// template, or anonymous namespace) of type void() whose body is a block of nothing but calls of
// InitMessageBuffer, Combiner, EMV<K>::Run, Continue and Halt, at least one of the first three,
// with constant arguments: what clang evaluates to a constant, or a class temporary built from
// constants by an implicit constructor or aggregate initialization whose default member
// initializers are constant too.
#pragma once

#include "medusa-cc/ProgramMatcher.h"

#include <clang/AST/ASTContext.h>

#include <set>
#include <string>
#include <vector>

namespace medusa::cc {

class IterationReplayAnalysis {
 public:
  explicit IterationReplayAnalysis(clang::ASTContext& context) : context_(context) {}

  // The replayable functions, in source order, spelled from global scope ("::BFS", "::ns::Step").
  std::vector<std::string> replayableIterations(const ProgramAst& ast);

 private:
  void collect(const clang::DeclContext* scope, std::vector<std::string>& out);
  bool isReplayable(const clang::FunctionDecl& function) const;
  bool isConstant(const clang::Expr* expr) const;
  bool isConstantTemporary(const clang::Expr* expr) const;
  bool hasConstantDefaults(const clang::CXXRecordDecl* record) const;

  clang::ASTContext& context_;
  std::set<const clang::CallExpr*> runs_;
};

}  // namespace medusa::cc
