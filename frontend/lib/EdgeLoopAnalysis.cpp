#include "medusa-cc/EdgeLoopAnalysis.h"

#include <clang/AST/Attr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <set>

namespace medusa::cc {
namespace {

const clang::VarDecl* referencedVar(const clang::Expr* expr) {
  const auto* ref = llvm::dyn_cast_or_null<clang::DeclRefExpr>(expr ? expr->IgnoreParenImpCasts() : nullptr);
  return ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
}

// `object.name()` with no arguments, object a reference to `var`.
bool isNullaryCallOn(const clang::Expr* expr, const clang::VarDecl* var, llvm::StringRef name) {
  const auto* call = llvm::dyn_cast_or_null<clang::CXXMemberCallExpr>(expr ? expr->IgnoreParenImpCasts() : nullptr);
  if (call == nullptr || call->getNumArgs() != 0 || call->getMethodDecl() == nullptr) return false;
  return call->getMethodDecl()->getName() == name &&
         referencedVar(call->getImplicitObjectArgument()) == var;
}

bool isAggregateValue(const clang::CXXMemberCallExpr* call) {
  const clang::CXXMethodDecl* method = call->getMethodDecl();
  return method != nullptr && method->getName() == "value" && call->getNumArgs() == 0 &&
         isSpecializationOf(method->getParent(), "medusa::AggregateBase");
}

bool isZero(const clang::Expr* expr) {
  const auto* literal = llvm::dyn_cast_or_null<clang::IntegerLiteral>(expr ? expr->IgnoreParenImpCasts() : nullptr);
  return literal != nullptr && literal->getValue() == 0;
}

// Walks one region of operator() and records anything that makes the edge-parallel rewrite wrong.
class RegionChecker : public clang::RecursiveASTVisitor<RegionChecker> {
 public:
  RegionChecker(FieldAccessAnalysis& uses, const clang::VarDecl* vertex, const clang::VarDecl* list,
                const clang::VarDecl* index, bool prologue)
      : uses_(uses), vertex_(vertex), list_(list), index_(index), prologue_(prologue) {}

  bool ok = true;

  // Statements that leave the iteration early or jump: the iterations would no longer be
  // independent (or the rewrite would change where control goes).
  bool VisitBreakStmt(clang::BreakStmt*) { return ok = false; }
  bool VisitContinueStmt(clang::ContinueStmt*) { return ok = false; }
  bool VisitReturnStmt(clang::ReturnStmt*) { return ok = false; }
  bool VisitGotoStmt(clang::GotoStmt*) { return ok = false; }
  bool VisitIndirectGotoStmt(clang::IndirectGotoStmt*) { return ok = false; }
  bool VisitLabelStmt(clang::LabelStmt*) { return ok = false; }
  bool VisitLambdaExpr(clang::LambdaExpr*) { return ok = false; }  // captures hide writes
  bool VisitCXXThisExpr(clang::CXXThisExpr*) { return true; }        // const operator(): read-only

  bool VisitVarDecl(clang::VarDecl* var) {
    if (!var->hasLocalStorage()) ok = false;  // static locals are shared across work items
    declared_.insert(var);
    return ok;
  }

  // el[i]: the one allowed use of the loop variable and of el in the body.
  bool VisitCXXOperatorCallExpr(clang::CXXOperatorCallExpr* call) {
    if (call->getOperator() == clang::OO_Subscript && call->getNumArgs() == 2 &&
        referencedVar(call->getArg(0)) == list_ && index_ != nullptr &&
        referencedVar(call->getArg(1)) == index_) {
      allowed_.insert(call->getArg(0)->IgnoreParenImpCasts());
      allowed_.insert(call->getArg(1)->IgnoreParenImpCasts());
    }
    return true;
  }
  bool VisitCXXMemberCallExpr(clang::CXXMemberCallExpr* call) {
    if (isNullaryCallOn(call, list_, "size"))
      allowed_.insert(call->getImplicitObjectArgument()->IgnoreParenImpCasts());
    // The prologue is re-run for every edge: only side-effect-free built-ins there (an aggregate's
    // value() is the previous superstep's, the same for every edge).
    if (prologue_ && !isNullaryCallOn(call, list_, "size") && !isAggregateValue(call) &&
        !isNullaryCallOn(call, vertex_, "edge_count") && !isNullaryCallOn(call, vertex_, "in_edge_count") &&
        !isNullaryCallOn(call, vertex_, "id") && !isNullaryCallOn(call, vertex_, "neighbors"))
      ok = false;
    return ok;
  }
  bool VisitCallExpr(clang::CallExpr* call) {
    if (prologue_ && !llvm::isa<clang::CXXMemberCallExpr>(call)) ok = false;
    return ok;
  }
  bool VisitCXXConstructExpr(clang::CXXConstructExpr* construct) {
    // A user-written constructor is a call like any other.
    if (prologue_ && construct->getConstructor()->isUserProvided()) ok = false;
    return ok;
  }
  bool VisitUnaryOperator(clang::UnaryOperator* op) {
    if (prologue_ && op->isIncrementDecrementOp()) ok = false;
    return ok;
  }
  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    if (prologue_ && op->isAssignmentOp()) ok = false;
    return ok;
  }

  // Parents are visited before children, so allowed_ is filled before the references are seen.
  bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
    const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (var == nullptr) return true;
    if (var == list_ || (index_ != nullptr && var == index_)) {
      if (!allowed_.count(ref)) ok = false;
      return ok;
    }
    // The vertex's fields are checked by FieldAccessAnalysis (v read-only); v.SetActive() is
    // idempotent. Any other variable from outside this region must only be read.
    if (var != vertex_ && !declared_.count(var) && uses_.classifyUse(*ref).written) ok = false;
    return ok;
  }

 private:
  FieldAccessAnalysis& uses_;
  const clang::VarDecl* vertex_;
  const clang::VarDecl* list_;
  const clang::VarDecl* index_;
  bool prologue_;
  std::set<const clang::Expr*> allowed_;
  std::set<const clang::VarDecl*> declared_;
};

// Whether `stmt` names `var` anywhere.
class ReferenceFinder : public clang::RecursiveASTVisitor<ReferenceFinder> {
 public:
  explicit ReferenceFinder(const clang::VarDecl* var) : var_(var) {}
  bool found = false;
  bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
    if (ref->getDecl() == var_) found = true;
    return !found;
  }

 private:
  const clang::VarDecl* var_;
};
bool mentions(const clang::Stmt* stmt, const clang::VarDecl* var) {
  ReferenceFinder finder(var);
  finder.TraverseStmt(const_cast<clang::Stmt*>(stmt));
  return finder.found;
}

// E of a loop body that is exactly `el[i].sendMsg(E)` (or `{ el[i].sendMsg(E); }`), E side-effect
// free and naming neither i nor el; null otherwise.
const clang::Expr* uniformMessage(const clang::Stmt* body, FieldAccessAnalysis& uses,
                                  const clang::VarDecl* vertex, const clang::VarDecl* list,
                                  const clang::VarDecl* index) {
  if (const auto* block = llvm::dyn_cast<clang::CompoundStmt>(body)) {
    if (block->size() != 1) return nullptr;
    body = block->body_front();
  }
  const auto* call = llvm::dyn_cast_or_null<clang::CXXMemberCallExpr>(
      llvm::dyn_cast<clang::Expr>(body) ? llvm::cast<clang::Expr>(body)->IgnoreParenImpCasts() : nullptr);
  if (call == nullptr || call->getNumArgs() != 1 || call->getMethodDecl() == nullptr ||
      call->getMethodDecl()->getName() != "sendMsg")
    return nullptr;
  const auto* edge = llvm::dyn_cast_or_null<clang::CXXOperatorCallExpr>(
      call->getImplicitObjectArgument()->IgnoreImplicit()->IgnoreParens());
  if (edge == nullptr || edge->getOperator() != clang::OO_Subscript || edge->getNumArgs() != 2 ||
      referencedVar(edge->getArg(0)) != list || referencedVar(edge->getArg(1)) != index)
    return nullptr;
  const clang::Expr* message = call->getArg(0);
  if (mentions(message, index) || mentions(message, list)) return nullptr;
  RegionChecker pure(uses, vertex, list, nullptr, /*prologue=*/true);
  pure.TraverseStmt(const_cast<clang::Expr*>(message));
  return pure.ok ? message : nullptr;
}

}  // namespace

std::optional<EdgeLoopInfo> EdgeLoopAnalysis::analyze(const clang::CXXMethodDecl& call_operator,
                                                      const FunctorInfo& info) {
  // The edge-parallel element derives from the functor: it must be derivable, and the copied
  // text must not name private members.
  const clang::CXXRecordDecl* record = call_operator.getParent();
  if (info.kind != ApiKind::Elist || record->hasAttr<clang::FinalAttr>()) return std::nullopt;
  for (const clang::Decl* member : record->decls())
    if (!member->isImplicit() && member->getAccess() == clang::AS_private) return std::nullopt;
  for (const auto& [name, use] : info.vertex_fields)
    if (use.written) return std::nullopt;
  const clang::VarDecl* vertex = nullptr;
  const clang::VarDecl* list = nullptr;
  for (const ParamInfo& p : info.params)
    for (const clang::ParmVarDecl* param : call_operator.parameters())
      if (param->getName() == p.name) {
        if (p.role == ParamRole::Vertex) vertex = param;
        if (p.role == ParamRole::EdgeList || p.role == ParamRole::InEdgeList) list = param;
      }
  const auto* body = llvm::dyn_cast_or_null<clang::CompoundStmt>(call_operator.getBody());
  if (vertex == nullptr || list == nullptr || body == nullptr || body->body_empty()) return std::nullopt;

  // The loop is the last statement; everything before it declares locals.
  const auto* loop = llvm::dyn_cast<clang::ForStmt>(body->body_back());
  if (loop == nullptr || loop->getBody() == nullptr) return std::nullopt;
  RegionChecker prologue(uses_, vertex, list, nullptr, /*prologue=*/true);
  std::set<const clang::VarDecl*> prologue_locals;
  for (const clang::Stmt* s : body->body()) {
    if (s == loop) break;
    const auto* decls = llvm::dyn_cast<clang::DeclStmt>(s);
    if (decls == nullptr) return std::nullopt;
    for (const clang::Decl* d : decls->decls()) {
      const auto* var = llvm::dyn_cast<clang::VarDecl>(d);
      if (var == nullptr) return std::nullopt;
      prologue_locals.insert(var);
    }
    prologue.TraverseStmt(const_cast<clang::Stmt*>(s));
    if (!prologue.ok) return std::nullopt;
  }

  // for (T i = 0; ...; ...)
  const auto* init = llvm::dyn_cast_or_null<clang::DeclStmt>(loop->getInit());
  if (init == nullptr || !init->isSingleDecl()) return std::nullopt;
  const auto* index = llvm::dyn_cast<clang::VarDecl>(init->getSingleDecl());
  if (index == nullptr || !index->getType()->isIntegerType() || !isZero(index->getInit()))
    return std::nullopt;
  // ++i / i++
  const auto* inc = llvm::dyn_cast_or_null<clang::UnaryOperator>(loop->getInc());
  if (inc == nullptr || !inc->isIncrementOp() || referencedVar(inc->getSubExpr()) != index)
    return std::nullopt;
  // i < el.size() / i < L, L a never-written prologue local initialised from the degree.
  const auto* cond = llvm::dyn_cast_or_null<clang::BinaryOperator>(
      loop->getCond() ? loop->getCond()->IgnoreParenImpCasts() : nullptr);
  if (cond == nullptr || cond->getOpcode() != clang::BO_LT || referencedVar(cond->getLHS()) != index)
    return std::nullopt;
  if (!isNullaryCallOn(cond->getRHS(), list, "size")) {
    const clang::VarDecl* bound = referencedVar(cond->getRHS());
    if (bound == nullptr || !prologue_locals.count(bound) || !bound->getInit() ||
        !(isNullaryCallOn(bound->getInit(), vertex, info.in_edges ? "in_edge_count" : "edge_count") ||
          isNullaryCallOn(bound->getInit(), list, "size")))
      return std::nullopt;
    // The body check below rejects writes to L; the prologue check rejects assignments there.
  }

  RegionChecker iteration(uses_, vertex, list, index, /*prologue=*/false);
  iteration.TraverseStmt(const_cast<clang::Stmt*>(loop->getBody()));
  if (!iteration.ok) return std::nullopt;

  // The text is copied: every location involved must be plain text of the main file.
  const clang::SourceManager& sm = context_.getSourceManager();
  const clang::Stmt* first = body->body_front();
  const clang::Stmt* loop_body = loop->getBody();
  const clang::SourceLocation body_end = clang::Lexer::getLocForEndOfToken(
      loop_body->getEndLoc(), 0, sm, context_.getLangOpts());
  for (clang::SourceLocation at : {first->getBeginLoc(), loop->getBeginLoc(), loop_body->getBeginLoc(),
                                   loop_body->getEndLoc(), body_end})
    if (at.isInvalid() || at.isMacroID() || !sm.isInMainFile(at)) return std::nullopt;
  auto region = [&](clang::SourceLocation begin, clang::SourceLocation end) {
    SourceRegion r;
    r.begin_offset = sm.getFileOffset(begin);
    r.end_offset = sm.getFileOffset(end);
    r.begin_line = sm.getSpellingLineNumber(begin);
    r.end_line = sm.getSpellingLineNumber(end);
    return r;
  };
  EdgeLoopInfo out;
  out.index_name = index->getNameAsString();
  out.index_type = index->getType().getUnqualifiedType().getAsString(context_.getPrintingPolicy());
  out.prologue = region(first->getBeginLoc(), loop->getBeginLoc());
  out.body = region(loop_body->getBeginLoc(), body_end);
  if (const clang::Expr* message = uniformMessage(loop_body, uses_, vertex, list, index)) {
    const clang::SourceLocation begin = message->getBeginLoc();
    const clang::SourceLocation end =
        clang::Lexer::getLocForEndOfToken(message->getEndLoc(), 0, sm, context_.getLangOpts());
    if (begin.isValid() && end.isValid() && !begin.isMacroID() && !end.isMacroID() &&
        sm.isInMainFile(begin) && sm.isInMainFile(end))
      out.uniform_message = region(begin, end);
  }
  return out;
}

}  // namespace medusa::cc
