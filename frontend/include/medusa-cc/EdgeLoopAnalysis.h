// Decides whether an ELIST functor's edge loop can run edge-parallel: one work item per
// (vertex, edge i) pair that re-evaluates the prologue and runs iteration i. Conservative: any
// shape it cannot prove independent keeps the one-thread-per-vertex path.
//
// Accepted shape (operator()(Vertex& v, EdgeList<Edge>& el) const):
//   <local declarations with side-effect-free initialisers from v / el.size() / earlier locals>
//   for (T i = 0; i < el.size() | i < L; ++i | i++) <body>
// where v is read-only, L is a never-written prologue local initialised from v.edge_count() or
// el.size(), the body uses i only as el[i], writes no variable declared outside itself, and has
// no break/continue/return/goto/labels/lambdas/static locals; el appears elsewhere only as el.size().
// The functor is neither `final` nor has private members: the emitted element derives from it.
// A body that is only `el[i].sendMsg(E)`, E side-effect free and free of i and el, is also
// recorded as a uniform message (EdgeLoopInfo::uniform_message).
#pragma once

#include "medusa-cc/FieldAccessAnalysis.h"
#include "medusa-cc/ProgramModel.h"

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclCXX.h>

#include <optional>

namespace medusa::cc {

class EdgeLoopAnalysis {
 public:
  EdgeLoopAnalysis(clang::ASTContext& context, FieldAccessAnalysis& uses)
      : context_(context), uses_(uses) {}

  // `info` must already carry the field uses (FieldAccessAnalysis). nullopt: not edge-parallel.
  std::optional<EdgeLoopInfo> analyze(const clang::CXXMethodDecl& call_operator,
                                      const FunctorInfo& info);

 private:
  clang::ASTContext& context_;
  FieldAccessAnalysis& uses_;  // read/write classification of variable references
};

}  // namespace medusa::cc
