#include "medusa-cc/AggregateAnalysis.h"

#include "medusa-cc/AstQueries.h"
#include "medusa-cc/KindClassifier.h"

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <set>

#include <medusa/aggregate.h>  // detail::kMaxAggregates: the runtime's slot count

namespace medusa::cc {

const clang::ClassTemplateSpecializationDecl* aggregateBase(clang::QualType type) {
  const clang::CXXRecordDecl* record = recordOf(type);
  if (record == nullptr || !record->hasDefinition()) return nullptr;
  if (isSpecializationOf(record, "medusa::AggregateBase"))
    return llvm::cast<clang::ClassTemplateSpecializationDecl>(record);
  return baseSpecialization(record, "medusa::AggregateBase");
}

namespace {

const clang::VarDecl* aggregateVar(const clang::DeclRefExpr* ref) {
  const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
  return var != nullptr && var->hasGlobalStorage() && isAggregateType(var->getType()) ? var : nullptr;
}

// The function a declaration context belongs to, through lambdas to the function around them.
const clang::FunctionDecl* ownerFunction(const clang::FunctionDecl* f) {
  while (f != nullptr) {
    const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(f);
    if (method == nullptr || !method->getParent()->isLambda()) return f;
    f = llvm::dyn_cast<clang::FunctionDecl>(method->getParent()->getDeclContext());
  }
  return f;
}

class DeclCollector : public clang::RecursiveASTVisitor<DeclCollector> {
 public:
  std::vector<const clang::VarDecl*> vars;
  bool VisitVarDecl(clang::VarDecl* var) {
    if (!llvm::isa<clang::ParmVarDecl>(var) && isAggregateType(var->getType()) &&
        !var->getType()->isReferenceType() && var->isThisDeclarationADefinition() != clang::VarDecl::DeclarationOnly)
      vars.push_back(var);
    return true;
  }
};

class HostAddFinder : public clang::RecursiveASTVisitor<HostAddFinder> {
 public:
  std::vector<std::pair<const clang::CXXMemberCallExpr*, const clang::FunctionDecl*>> adds;
  bool TraverseFunctionDecl(clang::FunctionDecl* f) { return within(f, [&] { return RecursiveASTVisitor::TraverseFunctionDecl(f); }); }
  bool TraverseCXXMethodDecl(clang::CXXMethodDecl* f) { return within(f, [&] { return RecursiveASTVisitor::TraverseCXXMethodDecl(f); }); }
  bool VisitCXXMemberCallExpr(clang::CXXMemberCallExpr* call) {
    const clang::CXXMethodDecl* method = call->getMethodDecl();
    if (method != nullptr && method->getName() == "add" && isSpecializationOf(method->getParent(), "medusa::AggregateBase"))
      adds.push_back({call, ownerFunction(current_)});
    return true;
  }

 private:
  template <class F>
  bool within(clang::FunctionDecl* f, F traverse) {
    const clang::FunctionDecl* saved = current_;
    current_ = f;
    const bool result = traverse();
    current_ = saved;
    return result;
  }
  const clang::FunctionDecl* current_ = nullptr;
};

class UseFinder : public clang::RecursiveASTVisitor<UseFinder> {
 public:
  std::vector<const clang::DeclRefExpr*> refs;
  bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
    if (aggregateVar(ref) != nullptr) refs.push_back(ref);
    return true;
  }
};

}  // namespace

void AggregateAnalysis::collect(ProgramModel& model, GpuSafetyChecker& checker) {
  const clang::SourceManager& sm = context_.getSourceManager();
  DeclCollector collector;
  collector.TraverseAST(context_);
  std::set<const clang::CXXRecordDecl*> checked_ops;
  for (const clang::VarDecl* var : collector.vars) {
    const std::string name = var->getNameAsString();
    if (!isInMainFile(sm, var->getLocation())) continue;  // (a header's own, never used here)
    const clang::DeclContext* dc = var->getDeclContext()->getRedeclContext();
    bool namespace_scope = dc->isFileContext() && !var->isStaticLocal();
    for (const clang::DeclContext* c = dc; namespace_scope && !c->isTranslationUnit(); c = c->getParent())
      if (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(c); ns != nullptr && ns->isAnonymousNamespace())
        namespace_scope = false;
    if (!namespace_scope) {
      diags_.report(var->getLocation(), Diag::NotAtGlobalScope) << "aggregate" << name;
      continue;
    }
    const auto* base = aggregateBase(var->getType());
    const clang::TemplateArgumentList& args = base->getTemplateArgs();
    AggregateInfo info;
    info.name = name;
    info.qualified = "::" + var->getQualifiedNameAsString();
    info.value_type = spellType(args[0].getAsType(), context_);
    info.line = sm.getExpansionLineNumber(var->getLocation());
    const clang::CXXRecordDecl* op = recordOf(args[1].getAsType());
    if (isSpecializationOf(op, "medusa::detail::AggregateOp")) {
      const auto* spec = llvm::cast<clang::ClassTemplateSpecializationDecl>(op);
      const clang::TemplateArgument& which = spec->getTemplateArgs()[1];
      info.op = "op " + llvm::toString(which.getAsIntegral(), 10);
      const auto* e = llvm::dyn_cast<clang::EnumDecl>(which.getIntegralType()->getAsTagDecl());
      if (e != nullptr)
        for (const clang::EnumConstantDecl* c : e->enumerators())
          if (c->getInitVal() == which.getAsIntegral()) {
            info.op = c->getNameAsString();
            break;
          }
    } else if (op != nullptr) {
      info.op = "::" + op->getQualifiedNameAsString();
      if (checked_ops.insert(op->getCanonicalDecl()).second) {
        const clang::CXXMethodDecl* call = nullptr;
        if (op->hasDefinition())
          for (const clang::CXXMethodDecl* m : op->getDefinition()->methods())
            if (m->getOverloadedOperator() == clang::OO_Call && !m->isImplicit()) call = m;
        const clang::QualType t = args[0].getAsType().getCanonicalType();
        auto same = [&](clang::QualType q) {
          return q.getNonReferenceType().getCanonicalType().getUnqualifiedType() == t;
        };
        const bool ok = call != nullptr && call->isConst() && call->getNumParams() == 2 &&
                        same(call->getParamDecl(0)->getType()) && same(call->getParamDecl(1)->getType()) &&
                        same(call->getReturnType()) && isInMainFile(sm, call->getLocation());
        if (!ok) {
          diags_.report(call ? call->getLocation() : var->getLocation(), Diag::AggregateOperatorSignature)
              << op->getName() << name << args[0].getAsType();
        } else {
          checker.checkOperatorRoot(*call);
          for (const clang::FunctionDecl* redecl : call->redecls()) {
            const clang::SourceLocation at = sm.getExpansionLoc(redecl->getInnerLocStart());
            if (sm.isInMainFile(at)) model.hd_insertions.push_back(sm.getFileOffset(at));
          }
        }
      }
    }
    if (model.aggregates.size() >= static_cast<size_t>(medusa::detail::kMaxAggregates)) {
      diags_.report(var->getLocation(), Diag::TooManyAggregates)
          << name << static_cast<unsigned>(model.aggregates.size() + 1) << medusa::detail::kMaxAggregates;
      continue;
    }
    index_[var->getCanonicalDecl()] = static_cast<int>(model.aggregates.size());
    model.aggregates.push_back(info);
  }
}

void AggregateAnalysis::analyzeFunctor(const clang::CXXMethodDecl& call_operator, FunctorInfo& functor) {
  UseFinder finder;
  finder.TraverseDecl(const_cast<clang::CXXMethodDecl*>(&call_operator));
  for (const clang::DeclRefExpr* ref : finder.refs) {
    const clang::VarDecl* var = aggregateVar(ref);
    const std::string name = var->getNameAsString();
    // name.add(x) / name.value(): DeclRefExpr <- MemberExpr <- CXXMemberCallExpr.
    // (Through the derived-to-base cast to AggregateBase and parentheses.)
    const clang::CXXMemberCallExpr* call = nullptr;
    clang::DynTypedNodeList member_parents = context_.getParents(*ref);
    while (member_parents.size() == 1 &&
           (member_parents[0].get<clang::ImplicitCastExpr>() || member_parents[0].get<clang::ParenExpr>()))
      member_parents = context_.getParents(member_parents[0]);
    if (member_parents.size() == 1)
      if (const auto* member = member_parents[0].get<clang::MemberExpr>()) {
        const auto call_parents = context_.getParents(*member);
        if (call_parents.size() == 1) call = call_parents[0].get<clang::CXXMemberCallExpr>();
        if (call != nullptr && call->getCallee()->IgnoreParens() != member) call = nullptr;
      }
    const llvm::StringRef method = call && call->getMethodDecl() ? call->getMethodDecl()->getName() : "";
    if (method != "add" && method != "value") {
      diags_.report(ref->getLocation(), Diag::AggregateMisuse) << name;
      continue;
    }
    if (ref->hasQualifier()) {
      const clang::SourceManager& sm = context_.getSourceManager();
      const std::string written = clang::Lexer::getSourceText(
          clang::CharSourceRange::getTokenRange(ref->getSourceRange()), sm, context_.getLangOpts()).str();
      diags_.report(ref->getBeginLoc(), Diag::AggregateQualified) << name << written;
      continue;
    }
    const auto it = index_.find(var->getCanonicalDecl());
    if (it == index_.end()) continue;  // reported by collect()
    std::vector<int>& uses = method == "add" ? functor.aggregates_added : functor.aggregates_read;
    if (std::find(uses.begin(), uses.end(), it->second) == uses.end()) uses.push_back(it->second);
  }
  std::sort(functor.aggregates_added.begin(), functor.aggregates_added.end());
  std::sort(functor.aggregates_read.begin(), functor.aggregates_read.end());
}

void AggregateAnalysis::checkHostAdds(const ProgramAst& ast) {
  std::set<const clang::FunctionDecl*> functors;
  for (const FunctorAst& f : ast.functors) functors.insert(f.call_operator);
  HostAddFinder finder;
  finder.TraverseAST(context_);
  const clang::SourceManager& sm = context_.getSourceManager();
  for (const auto& [call, owner] : finder.adds) {
    if (!isInMainFile(sm, call->getBeginLoc()) || (owner != nullptr && functors.count(owner))) continue;
    const auto* member = llvm::dyn_cast<clang::MemberExpr>(call->getCallee()->IgnoreParens());
    const auto* ref = member ? llvm::dyn_cast<clang::DeclRefExpr>(member->getBase()->IgnoreParenImpCasts()) : nullptr;
    diags_.report(call->getBeginLoc(), Diag::AggregateAddOnHost)
        << (ref ? ref->getDecl()->getNameAsString() : std::string("aggregate"));
  }
}

}  // namespace medusa::cc
