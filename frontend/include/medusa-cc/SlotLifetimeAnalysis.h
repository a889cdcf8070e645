// Decides whether every Combiner() consumes its message slots: nothing reads a slot after the
// Combiner that folded it until InitMessageBuffer rewrites them all. The runtime may then fold a
// pushed frontier straight into the combined values without writing the slots
// (ProgramUses::combiner_consumes_slots; docs/design/pull-fusion.md).
//
// Conservative. Yes only when no functor is an MLIST or MESSAGE (they read slots) and, in every
// function of the main file, each call that touches the slots (InitMessageBuffer, Combiner,
// EMV<ELIST|EDGE>::Run) is a statement of the function's top-level block, the first of them is
// InitMessageBuffer (a Run starts with a rewrite, whatever ran before), and the next one after each
// Combiner is InitMessageBuffer or none (the next superstep starts with the first). Such a call
// that a template leaves unresolved also makes the answer no.
#pragma once

#include "medusa-cc/ProgramMatcher.h"

#include <clang/AST/ASTContext.h>

namespace medusa::cc {

class SlotLifetimeAnalysis {
 public:
  explicit SlotLifetimeAnalysis(clang::ASTContext& context) : context_(context) {}

  bool combinerConsumesSlots(const ProgramAst& ast);

 private:
  clang::ASTContext& context_;
};

}  // namespace medusa::cc
