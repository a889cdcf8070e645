// Finds the VERTEX launches that follow a pass of one ELIST functor: a block whose statements run
// `EMV<ELIST>::Run(S)` over every vertex, then `Combiner()`, then `EMV<VERTEX>::Run(G)` over every
// vertex (PageRank). The CUDA runtime runs G in the pass's gather; when S's message is uniform
// and steady, G's thread may also compute the message of the next superstep's pass of S there
// (docs/design/pull-fusion.md). The emitter names S in G's element (`medusa_next_source_work`).
//
// A hint, not a proof: the runtime uses those messages only when the next pass is of the same S
// object and nothing ran in between. A VERTEX functor launched after passes of different
// functors gets none.
#pragma once

#include "medusa-cc/ProgramMatcher.h"

#include <clang/AST/ASTContext.h>

#include <map>
#include <string>

namespace medusa::cc {

class SourcePrefetchAnalysis {
 public:
  explicit SourcePrefetchAnalysis(clang::ASTContext& context) : context_(context) {}

  // VERTEX functor name -> the ELIST functor whose pass precedes each of its launches over all.
  std::map<std::string, std::string> nextSourceFunctors(const ProgramAst& ast);

 private:
  clang::ASTContext& context_;
};

}  // namespace medusa::cc
