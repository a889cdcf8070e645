// Stage 1: finds the parts of a Medusa program in the AST: the vertex, edge and message types,
// every functor passed to EMV<K>::Run with its API kind, user combiner operators passed to
// Combiner(op), the iteration functions, conf.combinerOpType assignments and the domains used.
// Reports the program-shape diagnostics (wrong kind, bad signature, misplaced declarations).
#pragma once

#include "medusa-cc/AstQueries.h"
#include "medusa-cc/MedusaDiagnostics.h"
#include "medusa-cc/ProgramModel.h"

#include <clang/AST/ASTContext.h>

#include <set>
#include <string>
#include <vector>

namespace medusa::cc {

struct RunCallAst {
  const clang::CallExpr* call = nullptr;
  const clang::CXXRecordDecl* functor = nullptr;
  RunCallInfo info;
};

struct FunctorAst {
  const clang::CXXRecordDecl* record = nullptr;
  const clang::CXXMethodDecl* call_operator = nullptr;
  std::vector<const RunCallAst*> runs;
  FunctorInfo info;
};

struct CombinerAst {
  const clang::CXXRecordDecl* record = nullptr;
  const clang::CXXMethodDecl* call_operator = nullptr;
  const clang::CallExpr* call = nullptr;  // the first Combiner(op) call
  CombinerInfo info;
};

// The Clang-side view of the program; the matching ProgramModel holds the plain facts.
struct ProgramAst {
  GraphTypes types;
  std::vector<RunCallAst> runs;
  std::vector<FunctorAst> functors;    // source order
  std::vector<CombinerAst> combiners;  // source order
};

class ProgramMatcher {
 public:
  ProgramMatcher(clang::ASTContext& context, MedusaDiagnostics& diags)
      : context_(context), diags_(diags) {}

  // Fills `ast` and the type/functor/run parts of `model`. Returns false when the program's
  // shape is wrong (diagnostics were reported) and later stages cannot run.
  bool match(ProgramAst& ast, ProgramModel& model);

 private:
  bool resolveGraphTypes(ProgramAst& ast, ProgramModel& model);
  bool collectFunctors(ProgramAst& ast, ProgramModel& model);
  bool collectCombiners(ProgramAst& ast, ProgramModel& model);
  void checkCombinerOpTypes(const ProgramAst& ast);
  bool checkUserRecord(const clang::CXXRecordDecl* record, const char* what);
  bool checkNames(const clang::CXXRecordDecl* record, bool is_vertex);
  bool checkTriviallyCopyableMembers(const clang::CXXRecordDecl* record, const char* what);
  void addHdInsertions(const clang::FunctionDecl* f, ProgramModel& model);
  RecordInfo describeRecord(const clang::CXXRecordDecl* record);
  SourceRegion wholeLineRegion(const clang::CXXRecordDecl* record);
  const clang::CXXMethodDecl* findCallOperator(const clang::CXXRecordDecl* record,
                                               const clang::CallExpr* use, ApiKind requested);

  clang::ASTContext& context_;
  MedusaDiagnostics& diags_;
  // Collected by the AST walk.
  std::vector<const clang::CXXRecordDecl*> vertex_records_, edge_records_;
  std::vector<std::pair<const clang::CallExpr*, const clang::CXXRecordDecl*>> combiner_calls_;
  std::vector<const clang::CallExpr*> builtin_combiner_calls_;
  std::set<std::string> halting_functions_;  // functions that call medusa::Halt() themselves
  // conf.combinerOpType = <a medusa::CombinerOp enumerator>, checked against the message type.
  std::vector<std::pair<const clang::Expr*, const clang::EnumConstantDecl*>> combiner_op_assignments_;
  friend class ProgramCollector;
};

}  // namespace medusa::cc
