#include "medusa-cc/SlotLifetimeAnalysis.h"

#include "medusa-cc/AstQueries.h"

#include <clang/AST/ASTTypeTraits.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>

#include <map>
#include <optional>
#include <vector>

namespace medusa::cc {
namespace {

enum class SlotCall { Init, Combine, Send };

// The slot calls of each function of the main file, in source order; `nested` when one of them is
// not a statement of its function's top-level block.
class SlotCallCollector : public clang::RecursiveASTVisitor<SlotCallCollector> {
 public:
  SlotCallCollector(clang::ASTContext& context, const std::map<const clang::CallExpr*, ApiKind>& runs)
      : context_(context), runs_(runs) {}

  bool VisitCallExpr(clang::CallExpr* call) {
    if (!isInMainFile(context_.getSourceManager(), call->getBeginLoc())) return true;
    if (unresolvedSlotCall(call)) {  // in a template: which call it is is not known yet
      nested = true;
      return true;
    }
    std::optional<SlotCall> kind = classify(call);
    if (!kind) return true;
    const clang::FunctionDecl* function = topLevelFunction(call);
    if (function == nullptr) {
      nested = true;
      return true;
    }
    calls[function].push_back(*kind);
    return true;
  }

  std::map<const clang::FunctionDecl*, std::vector<SlotCall>> calls;
  bool nested = false;

 private:
  std::optional<SlotCall> classify(const clang::CallExpr* call) const {
    if (auto run = runs_.find(call); run != runs_.end()) {
      if (run->second == ApiKind::Elist || run->second == ApiKind::Edge) return SlotCall::Send;
      return std::nullopt;  // VERTEX touches no slot; MLIST / MESSAGE are refused before this
    }
    if (callsMedusaFunction(call, "InitMessageBuffer")) return SlotCall::Init;
    if (callsMedusaFunction(call, "Combiner")) return SlotCall::Combine;
    return std::nullopt;
  }

  // A call in a template that names InitMessageBuffer, Combiner or Run but is resolved only when
  // the template is instantiated.
  static bool unresolvedSlotCall(const clang::CallExpr* call) {
    if (call->getDirectCallee() != nullptr) return false;
    const clang::Expr* callee = call->getCallee()->IgnoreParenImpCasts();
    clang::DeclarationName name;
    if (const auto* overload = llvm::dyn_cast<clang::OverloadExpr>(callee))
      name = overload->getName();
    else if (const auto* member = llvm::dyn_cast<clang::CXXDependentScopeMemberExpr>(callee))
      name = member->getMember();
    else if (const auto* scoped = llvm::dyn_cast<clang::DependentScopeDeclRefExpr>(callee))
      name = scoped->getDeclName();
    const clang::IdentifierInfo* identifier = name.getAsIdentifierInfo();  // (null if no name)
    if (identifier == nullptr) return false;
    const llvm::StringRef id = identifier->getName();
    return id == "InitMessageBuffer" || id == "Combiner" || id == "Run";
  }

  // The function whose top-level block holds `call` as a statement (through implicit nodes), or
  // null when the call sits under a branch, a loop, a lambda or inside a larger expression.
  const clang::FunctionDecl* topLevelFunction(const clang::CallExpr* call) const {
    clang::DynTypedNode node = clang::DynTypedNode::create(*call);
    for (;;) {
      const auto parents = context_.getParents(node);
      if (parents.size() != 1) return nullptr;
      node = parents[0];
      if (isImplicitWrapper(node.get<clang::Stmt>())) continue;
      const auto* block = node.get<clang::CompoundStmt>();
      if (block == nullptr) return nullptr;
      const auto block_parents = context_.getParents(*block);
      if (block_parents.size() != 1) return nullptr;
      const auto* function = block_parents[0].get<clang::FunctionDecl>();
      return function != nullptr && function->getBody() == block ? function : nullptr;
    }
  }

  clang::ASTContext& context_;
  const std::map<const clang::CallExpr*, ApiKind>& runs_;
};

bool consumes(const std::vector<SlotCall>& calls) {
  if (calls.empty()) return true;
  if (calls.front() != SlotCall::Init) return false;
  for (size_t i = 0; i + 1 < calls.size(); ++i)
    if (calls[i] == SlotCall::Combine && calls[i + 1] != SlotCall::Init) return false;
  return true;
}

}  // namespace

bool SlotLifetimeAnalysis::combinerConsumesSlots(const ProgramAst& ast) {
  std::map<const clang::CallExpr*, ApiKind> runs;
  for (const RunCallAst& r : ast.runs) {
    if (r.info.requested == ApiKind::Mlist || r.info.requested == ApiKind::Message) return false;
    runs[r.call] = r.info.requested;
  }
  for (const FunctorAst& f : ast.functors)
    if (f.info.kind == ApiKind::Mlist || f.info.kind == ApiKind::Message) return false;
  SlotCallCollector collector(context_, runs);
  collector.TraverseAST(context_);
  if (collector.nested) return false;
  for (const auto& [function, calls] : collector.calls)
    if (!consumes(calls)) return false;
  return true;
}

}  // namespace medusa::cc
