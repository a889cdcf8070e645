#include "medusa-cc/SuperstepPlanAnalysis.h"

#include "medusa-cc/AstQueries.h"

#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <map>
#include <optional>

namespace medusa::cc {
namespace {

class OperationCollector : public clang::RecursiveASTVisitor<OperationCollector> {
 public:
  OperationCollector(clang::ASTContext& context, const std::map<const clang::CallExpr*, const RunCallAst*>& runs)
      : context_(context), runs_(runs) {}

  bool VisitCallExpr(clang::CallExpr* call) {
    const clang::SourceManager& sm = context_.getSourceManager();
    if (!isInMainFile(sm, call->getBeginLoc())) return true;
    std::optional<PlanOp> op = classify(call);
    if (!op) return true;
    op->line = sm.getExpansionLineNumber(call->getBeginLoc());
    bool top_level = false;
    const clang::FunctionDecl* function = enclosingFunction(call, top_level);
    if (function == nullptr) return true;  // in a lambda
    auto [at, inserted] = index_.emplace(function, ops.size());
    if (inserted) ops.push_back({function->getQualifiedNameAsString(), true, plainFunction(*function), {}});
    IterationOps& it = ops[at->second];
    it.straight_line = it.straight_line && top_level;
    it.ops.push_back(*op);
    return true;
  }

  std::vector<IterationOps> ops;

 private:
  std::optional<PlanOp> classify(const clang::CallExpr* call) const {
    PlanOp op;
    if (const auto run = runs_.find(call); run != runs_.end()) {
      op.kind = PlanOp::Kind::Run;
      op.run_kind = run->second->info.requested;
      op.functor = run->second->info.functor;
      op.domain = run->second->info.domain;
      return op;
    }
    if (callsMedusaFunction(call, "InitMessageBuffer")) {
      op.kind = PlanOp::Kind::InitMessageBuffer;
      return op;
    }
    if (!callsMedusaFunction(call, "Combiner")) return std::nullopt;
    op.kind = call->getNumArgs() == 0 ? PlanOp::Kind::Combiner : PlanOp::Kind::UserCombiner;
    if (op.kind == PlanOp::Kind::UserCombiner) {
      const clang::CXXRecordDecl* record = recordOf(call->getArg(0)->getType());
      op.functor = record != nullptr ? record->getNameAsString() : "op";
    }
    return op;
  }

  // `void F()`, a namespace member outside anonymous namespaces, not a template: `&::F` names it.
  static bool plainFunction(const clang::FunctionDecl& f) {
    if (f.getNumParams() != 0 || !f.getReturnType()->isVoidType() || f.isTemplated()) return false;
    if (llvm::isa<clang::CXXMethodDecl>(f) || f.isInAnonymousNamespace()) return false;
    return f.getDeclContext()->getRedeclContext()->isFileContext();
  }

  // The function around `call`; `top_level` when the call is a statement of its body.
  const clang::FunctionDecl* enclosingFunction(const clang::CallExpr* call, bool& top_level) const {
    clang::DynTypedNode node = clang::DynTypedNode::create(*call);
    const clang::Stmt* child = call;
    bool direct = true;  // only implicit wrappers between the call and `child`
    for (;;) {
      const auto parents = context_.getParents(node);
      if (parents.empty()) return nullptr;
      node = parents[0];
      if (node.get<clang::LambdaExpr>() != nullptr) return nullptr;
      if (const auto* function = node.get<clang::FunctionDecl>()) {
        top_level = false;
        if (const auto* body = llvm::dyn_cast_or_null<clang::CompoundStmt>(function->getBody()))
          for (const clang::Stmt* s : body->body()) top_level = top_level || (direct && s == child);
        return function;
      }
      if (const auto* stmt = node.get<clang::Stmt>()) {
        if (!isImplicitWrapper(stmt) && !llvm::isa<clang::CompoundStmt>(stmt)) direct = false;
        if (!llvm::isa<clang::CompoundStmt>(stmt)) child = stmt;
      }
    }
  }

  clang::ASTContext& context_;
  const std::map<const clang::CallExpr*, const RunCallAst*>& runs_;
  std::map<const clang::FunctionDecl*, std::size_t> index_;
};

}  // namespace

std::vector<IterationOps> SuperstepPlanAnalysis::iterations(const ProgramAst& ast) {
  std::map<const clang::CallExpr*, const RunCallAst*> runs;
  for (const RunCallAst& r : ast.runs) runs[r.call] = &r;
  OperationCollector collector(context_, runs);
  collector.TraverseAST(context_);
  return collector.ops;
}

}  // namespace medusa::cc
