#include "medusa-cc/SourcePrefetchAnalysis.h"

#include "medusa-cc/AstQueries.h"

#include <clang/AST/RecursiveASTVisitor.h>

#include <set>
#include <vector>

namespace medusa::cc {
namespace {

// Scans every block of the main file for ELIST Run; Combiner(); VERTEX Run, statement after statement.
class PassSequenceCollector : public clang::RecursiveASTVisitor<PassSequenceCollector> {
 public:
  PassSequenceCollector(clang::ASTContext& context, const std::map<const clang::CallExpr*, const RunCallAst*>& runs)
      : context_(context), runs_(runs) {}

  bool VisitCompoundStmt(clang::CompoundStmt* block) {
    if (!isInMainFile(context_.getSourceManager(), block->getBeginLoc())) return true;
    std::vector<const clang::CallExpr*> calls;
    for (const clang::Stmt* s : block->body()) {
      const auto* expr = llvm::dyn_cast<clang::Expr>(s);
      calls.push_back(llvm::dyn_cast_or_null<clang::CallExpr>(expr ? expr->IgnoreImplicit() : nullptr));
    }
    for (size_t i = 0; i + 2 < calls.size(); ++i) {
      const RunCallAst* pass = run(calls[i], ApiKind::Elist);
      const RunCallAst* step = run(calls[i + 2], ApiKind::Vertex);
      if (pass == nullptr || step == nullptr || calls[i + 1] == nullptr ||
          !callsMedusaFunction(calls[i + 1], "Combiner"))
        continue;
      note(step->info.functor, pass->info.functor);
    }
    return true;
  }

  std::map<std::string, std::string> hints;

 private:
  const RunCallAst* run(const clang::CallExpr* call, ApiKind kind) const {
    if (call == nullptr) return nullptr;
    const auto found = runs_.find(call);
    if (found == runs_.end() || found->second->info.requested != kind ||
        found->second->info.domain != DomainUse::All)
      return nullptr;
    return found->second;
  }
  void note(const std::string& step, const std::string& pass) {
    if (conflicting_.count(step)) return;
    const auto [at, inserted] = hints.emplace(step, pass);
    if (!inserted && at->second != pass) {
      hints.erase(at);
      conflicting_.insert(step);
    }
  }

  clang::ASTContext& context_;
  const std::map<const clang::CallExpr*, const RunCallAst*>& runs_;
  std::set<std::string> conflicting_;
};

}  // namespace

std::map<std::string, std::string> SourcePrefetchAnalysis::nextSourceFunctors(const ProgramAst& ast) {
  std::map<const clang::CallExpr*, const RunCallAst*> runs;
  for (const RunCallAst& r : ast.runs) runs[r.call] = &r;
  PassSequenceCollector collector(context_, runs);
  collector.TraverseAST(context_);
  return collector.hints;
}

}  // namespace medusa::cc
