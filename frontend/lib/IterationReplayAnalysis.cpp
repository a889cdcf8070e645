#include "medusa-cc/IterationReplayAnalysis.h"

#include "medusa-cc/AstQueries.h"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/IgnoreExpr.h>
#include <clang/Basic/SourceManager.h>

#include <algorithm>

namespace medusa::cc {
namespace {

// "::ns::F" when every scope around `function` is a named namespace (or a linkage specification),
// so the generated registration can name it from global scope; empty otherwise.
std::string globalSpelling(const clang::FunctionDecl& function) {
  std::string name = "::" + function.getNameAsString();
  for (const clang::DeclContext* dc = function.getDeclContext(); !dc->isTranslationUnit();
       dc = dc->getParent()) {
    if (llvm::isa<clang::LinkageSpecDecl>(dc)) continue;
    const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(dc);
    if (ns == nullptr || ns->isAnonymousNamespace()) return "";
    name = "::" + ns->getNameAsString() + name;
  }
  return name;
}

// The constant an argument stands for, without the nodes that only bind, convert or default it.
const clang::Expr* argumentValue(const clang::Expr* expr) {
  const auto skip_defaults = [](clang::Expr* e) -> clang::Expr* {
    if (auto* arg = llvm::dyn_cast<clang::CXXDefaultArgExpr>(e)) return arg->getExpr();
    if (auto* init = llvm::dyn_cast<clang::CXXDefaultInitExpr>(e)) return init->getExpr();
    return e;
  };
  return clang::IgnoreExprNodes(expr, clang::IgnoreImplicitSingleStep, clang::IgnoreParensOnlySingleStep,
                                skip_defaults);
}

// A constructor the implicit constructors of an enclosing class may call unseen: none of a
// nested class (base or member) may be user-provided.
bool hasUserProvidedConstructor(const clang::CXXRecordDecl* record) {
  return std::any_of(record->ctor_begin(), record->ctor_end(),
                     [](const clang::CXXConstructorDecl* c) { return c->isUserProvided(); });
}

}  // namespace

std::vector<std::string> IterationReplayAnalysis::replayableIterations(const ProgramAst& ast) {
  runs_.clear();
  for (const RunCallAst& run : ast.runs) runs_.insert(run.call);
  std::vector<std::string> names;
  collect(context_.getTranslationUnitDecl(), names);
  return names;
}

// Namespace scope only: functions in classes, anonymous namespaces or blocks are skipped.
void IterationReplayAnalysis::collect(const clang::DeclContext* scope,
                                      std::vector<std::string>& out) {
  for (const clang::Decl* decl : scope->decls()) {
    if (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(decl)) {
      if (!ns->isAnonymousNamespace()) collect(ns, out);
    } else if (const auto* linkage = llvm::dyn_cast<clang::LinkageSpecDecl>(decl)) {
      collect(linkage, out);
    } else if (const auto* function = llvm::dyn_cast<clang::FunctionDecl>(decl)) {
      if (!isReplayable(*function)) continue;
      const std::string name = globalSpelling(*function);
      if (!name.empty() && std::find(out.begin(), out.end(), name) == out.end())
        out.push_back(name);
    }
  }
}

bool IterationReplayAnalysis::isReplayable(const clang::FunctionDecl& function) const {
  // The registration takes `void (*)()` of a plain function defined here.
  if (llvm::isa<clang::CXXMethodDecl>(function) ||
      function.getTemplatedKind() != clang::FunctionDecl::TK_NonTemplate ||
      !function.doesThisDeclarationHaveABody() || function.isDeleted() || function.isConsteval() ||
      !function.getDeclName().isIdentifier() ||
      !isInMainFile(context_.getSourceManager(), function.getLocation()) ||
      !function.getReturnType()->isVoidType() || function.getNumParams() != 0 ||
      function.isVariadic())
    return false;
  const auto* body = llvm::dyn_cast_or_null<clang::CompoundStmt>(function.getBody());
  if (body == nullptr) return false;
  // A straight line of Medusa operations: nothing else can differ from one call to the next.
  bool iterates = false;
  for (const clang::Stmt* stmt : body->body()) {
    if (llvm::isa<clang::NullStmt>(stmt)) continue;
    const auto* expr = llvm::dyn_cast<clang::Expr>(stmt);
    const auto* call =
        llvm::dyn_cast_or_null<clang::CallExpr>(expr ? expr->IgnoreImplicit() : nullptr);
    if (call == nullptr) return false;
    const bool step = runs_.count(call) != 0 || callsMedusaFunction(call, "InitMessageBuffer") ||
                      callsMedusaFunction(call, "Combiner");
    if (!step && !callsMedusaFunction(call, "Continue") && !callsMedusaFunction(call, "Halt"))
      return false;
    iterates |= step;
    for (const clang::Expr* arg : call->arguments())
      if (!isConstant(arg)) return false;
  }
  return iterates;  // only Continue/Halt: not an iteration function
}

bool IterationReplayAnalysis::isConstant(const clang::Expr* expr) const {
  expr = argumentValue(expr);
  if (const auto* list = llvm::dyn_cast<clang::InitListExpr>(expr)) {
    const clang::CXXRecordDecl* record = recordOf(list->getType());
    if (record != nullptr && !hasConstantDefaults(record)) return false;
    for (unsigned i = 0; i < list->getNumInits(); ++i)
      if (!isConstant(list->getInit(i))) return false;
    return !list->hasArrayFiller() || isConstant(list->getArrayFiller());
  }
  if (llvm::isa<clang::ImplicitValueInitExpr>(expr)) {  // zero, or an implicit default constructor
    const clang::CXXRecordDecl* record = recordOf(context_.getBaseElementType(expr->getType()));
    return record == nullptr || (!hasUserProvidedConstructor(record) && hasConstantDefaults(record));
  }
  if (expr->getType()->isRecordType()) return isConstantTemporary(expr);
  // Values clang folds without reading anything that can change (no non-const variables, no
  // calls of non-constexpr functions).
  if (!expr->getType()->isScalarType() || expr->isValueDependent()) return false;
  clang::Expr::EvalResult result;
  return expr->EvaluateAsRValue(result, context_) && !result.HasSideEffects;
}

// A class temporary (Expand{}, Relax{2.0f}, MinOp()) whose value depends only on constants.
bool IterationReplayAnalysis::isConstantTemporary(const clang::Expr* expr) const {
  if (const auto* cast = llvm::dyn_cast<clang::CXXFunctionalCastExpr>(expr))
    return isConstant(cast->getSubExpr());
  const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(expr);  // and temporary objects
  if (construct == nullptr) return false;  // a variable, a call, a lambda, ...
  const clang::CXXConstructorDecl* constructor = construct->getConstructor();
  // A user-provided constructor may compute anything; an implicit or defaulted one copies its
  // arguments and runs the default member initializers.
  if (constructor->isUserProvided() || constructor->isInheritingConstructor() ||
      !hasConstantDefaults(constructor->getParent()))
    return false;
  for (const clang::Expr* arg : construct->arguments())
    if (!isConstant(arg)) return false;
  return true;
}

// What building `record` runs besides its visible arguments: the default member initializers and
// the implicit construction of bases and members (and the destructor, at the end of the call).
bool IterationReplayAnalysis::hasConstantDefaults(const clang::CXXRecordDecl* record) const {
  record = record->getDefinition();
  if (record == nullptr || !record->hasTrivialDestructor() || record->getNumVBases() != 0)
    return false;
  for (const clang::CXXBaseSpecifier& base : record->bases()) {
    const clang::CXXRecordDecl* base_record = recordOf(base.getType());
    if (base_record == nullptr || hasUserProvidedConstructor(base_record) ||
        !hasConstantDefaults(base_record))
      return false;
  }
  for (const clang::FieldDecl* field : record->fields()) {
    if (field->hasInClassInitializer() &&
        (field->getInClassInitializer() == nullptr || !isConstant(field->getInClassInitializer())))
      return false;
    const clang::CXXRecordDecl* member = recordOf(context_.getBaseElementType(field->getType()));
    if (member != nullptr && (hasUserProvidedConstructor(member) || !hasConstantDefaults(member)))
      return false;
  }
  return true;
}

}  // namespace medusa::cc
