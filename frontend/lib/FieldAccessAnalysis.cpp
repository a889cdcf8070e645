#include "medusa-cc/FieldAccessAnalysis.h"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/RecursiveASTVisitor.h>

namespace medusa::cc {
namespace {

bool isBuiltinMethod(const clang::CXXMethodDecl* method, llvm::StringRef base,
                     llvm::StringRef name) {
  return method != nullptr && method->getName() == name &&
         isSpecializationOf(method->getParent(), base);
}

// A call to e.head() on an edge (possibly behind casts such as a const_cast).
bool isHeadCall(const clang::Expr* expr) {
  const auto* call = llvm::dyn_cast<clang::CXXMemberCallExpr>(expr->IgnoreParenCasts());
  return call != nullptr && isBuiltinMethod(call->getMethodDecl(), "medusa::EdgeBase", "head");
}

// A call to medusa::vertex_at (through casts, a temporary or a copy of its result).
const clang::CallExpr* vertexAtCall(const clang::Expr* expr) {
  if (expr == nullptr) return nullptr;
  expr = expr->IgnoreParenCasts();
  if (const auto* temporary = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(expr))
    expr = temporary->getSubExpr()->IgnoreParenCasts();
  if (const auto* copy = llvm::dyn_cast<clang::CXXConstructExpr>(expr))
    if (copy->getNumArgs() == 1) return vertexAtCall(copy->getArg(0));
  const auto* call = llvm::dyn_cast<clang::CallExpr>(expr);
  const clang::FunctionDecl* callee = call != nullptr ? call->getDirectCallee() : nullptr;
  return callee != nullptr && callee->getQualifiedNameAsString() == "medusa::vertex_at" ? call : nullptr;
}

// The object of a field access is another vertex, read by id: vertex_at(...) itself, or a
// variable initialised from it (`const Vertex& u = vertex_at(v, id);`).
bool isReadById(const clang::Expr* base) {
  if (vertexAtCall(base) != nullptr) return true;
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(base->IgnoreParenCasts());
  const auto* var = ref != nullptr ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  return var != nullptr && vertexAtCall(var->getInit()) != nullptr;
}

class AccessCollector : public clang::RecursiveASTVisitor<AccessCollector> {
 public:
  AccessCollector(FieldAccessAnalysis& analysis, const GraphTypes& types, FunctorInfo& info,
                  std::vector<FieldAccess>& accesses)
      : analysis_(analysis), types_(types), info_(info), accesses_(accesses) {}

  bool VisitMemberExpr(clang::MemberExpr* member) {
    const auto* field = llvm::dyn_cast<clang::FieldDecl>(member->getMemberDecl());
    if (field == nullptr) return true;
    const clang::Decl* parent = field->getParent()->getCanonicalDecl();
    FieldOwner owner;
    if (types_.vertex && parent == static_cast<const clang::Decl*>(types_.vertex->getCanonicalDecl()) &&
        isReadById(member->getBase()))
      owner = FieldOwner::ById;
    else if (types_.vertex && parent == static_cast<const clang::Decl*>(types_.vertex->getCanonicalDecl()))
      // An EDGE functor has no vertex parameter: every vertex it reaches is its head, whether
      // through e.head().f or a reference bound to e.head().
      owner = isHeadCall(member->getBase()) || info_.kind == ApiKind::Edge ? FieldOwner::HeadVertex
                                                                            : FieldOwner::Vertex;
    else if (types_.edge && parent == static_cast<const clang::Decl*>(types_.edge->getCanonicalDecl()))
      owner = FieldOwner::Edge;
    else
      return true;
    FieldAccessAnalysis::Use use = analysis_.classifyUse(*member);
    FieldAccess access{owner, field, use.read, use.written, false, member->getMemberLoc()};
    access.unconditional = use.written && !use.partial && top_level_statement_;
    accesses_.push_back(access);
    auto& fields = owner == FieldOwner::Vertex ? info_.vertex_fields
                   : owner == FieldOwner::Edge ? info_.edge_fields
                   : owner == FieldOwner::ById ? info_.by_id_fields
                                               : info_.head_fields;
    FieldUse& summary = fields[field->getNameAsString()];
    summary.read |= use.read;
    summary.written |= use.written;
    summary.written_unconditionally |= access.unconditional;
    return true;
  }

  bool VisitCXXMemberCallExpr(clang::CXXMemberCallExpr* call) {
    const clang::CXXMethodDecl* method = call->getMethodDecl();
    if (isBuiltinMethod(method, "medusa::EdgeBase", "sendMsg")) info_.sends_messages = true;
    if (isBuiltinMethod(method, "medusa::EdgeBase", "SetActive")) info_.sets_edge_active = true;
    if (isBuiltinMethod(method, "medusa::EdgeBase", "head")) info_.uses_head = true;
    if (isBuiltinMethod(method, "medusa::VertexBase", "SetActive")) {
      info_.sets_vertex_active = true;
      if (call->getNumArgs() == 1) info_.sets_vertex_priority = true;
    }
    if (isBuiltinMethod(method, "medusa::VertexBase", "combined_msg")) info_.reads_combined = true;
    if (isBuiltinMethod(method, "medusa::VertexBase", "neighbors") ||
        isBuiltinMethod(method, "medusa::EdgeBase", "head_neighbors") ||
        isBuiltinMethod(method, "medusa::EdgeBase", "tail_neighbors"))
      info_.reads_neighbor_sets = true;
    if ((isBuiltinMethod(method, "medusa::VertexBase", "sendMsgTo") ||
         isBuiltinMethod(method, "medusa::EdgeBase", "sendMsgTo")) &&
        call->getNumArgs() == 2) {
      info_.sends_by_id = true;
      analysis_.recordByIdCall({call, true, call->getArg(0)->IgnoreImpCasts(), nullptr, ""});
    }
    // vertex_at gives a vertex's fields only: its id(), degree or messages would be read at the
    // partition-local index of a global id.
    const clang::Expr* object = call->getImplicitObjectArgument();
    if (method != nullptr && object != nullptr && isReadById(object) &&
        llvm::StringRef(method->getQualifiedNameAsString()).starts_with("medusa::"))
      analysis_.recordByIdCall({call, false, nullptr, nullptr, method->getNameAsString()});
    return true;
  }

  bool VisitCallExpr(clang::CallExpr* call) {
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (callee == nullptr) return true;
    const std::string name = callee->getQualifiedNameAsString();
    if (name == "medusa::Continue") info_.continue_vote = true;
    if (name == "medusa::Halt") info_.halt_vote = true;
    if (name == "medusa::Superstep") info_.uses_superstep = true;
    if (name == "medusa::vertex_at" && call->getNumArgs() == 2) {
      info_.reads_by_id = true;
      analysis_.recordByIdCall({call, false, call->getArg(1)->IgnoreImpCasts(), call->getArg(0), ""});
    }
    return true;
  }

  // Statements directly in operator()'s body run for every element; a write there covers the
  // whole domain.
  void traverseBody(const clang::Stmt* body, bool is_call_operator) {
    const auto* compound = llvm::dyn_cast_or_null<clang::CompoundStmt>(body);
    if (compound == nullptr || !is_call_operator) {
      TraverseStmt(const_cast<clang::Stmt*>(body));
      return;
    }
    for (const clang::Stmt* statement : compound->body()) {
      top_level_statement_ = llvm::isa<clang::Expr>(statement);
      TraverseStmt(const_cast<clang::Stmt*>(statement));
      top_level_statement_ = false;
    }
  }

 private:
  FieldAccessAnalysis& analysis_;
  const GraphTypes& types_;
  FunctorInfo& info_;
  std::vector<FieldAccess>& accesses_;
  bool top_level_statement_ = false;
};

}  // namespace

FieldAccessAnalysis::Use FieldAccessAnalysis::classifyUse(const clang::Expr& expr) {
  bool partial = false;
  Use use = classifyParents(expr, partial);
  use.partial = partial;
  return use;
}

FieldAccessAnalysis::Use FieldAccessAnalysis::classifyParents(const clang::Expr& expr,
                                                              bool& partial) {
  const clang::Expr* current = &expr;
  while (true) {
    clang::DynTypedNodeList parents = context_.getParents(*current);
    if (parents.empty()) return {true, false};
    const clang::Expr* parent = parents[0].get<clang::Expr>();
    if (parent == nullptr) {
      // A declaration: `float& r = v.rank;` writes through r unless r is const.
      if (const auto* var = parents[0].get<clang::VarDecl>()) {
        clang::QualType t = var->getType();
        if (t->isReferenceType() && !t.getNonReferenceType().isConstQualified())
          return {true, true};
      }
      return {true, false};
    }
    if (llvm::isa<clang::ArraySubscriptExpr>(parent) || llvm::isa<clang::MemberExpr>(parent))
      partial = true;
    if (llvm::isa<clang::ParenExpr>(parent) || llvm::isa<clang::ArraySubscriptExpr>(parent) ||
        llvm::isa<clang::MemberExpr>(parent)) {
      // v.pos.x, v.hist[i]: the enclosing access decides (but an index is only read).
      if (const auto* subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(parent))
        if (subscript->getIdx() == current) return {true, false};
      current = parent;
      continue;
    }
    if (const auto* conditional = llvm::dyn_cast<clang::AbstractConditionalOperator>(parent)) {
      // The condition is only read. A branch is used as the whole conditional is: read where the
      // result is an rvalue, written by `(c ? v.a : v.b) = 1`. In GNU `v.a ?: x`, v.a is also
      // the condition. A branch may not run, so its write covers no element for sure.
      const bool is_condition = conditional->getCond()->IgnoreParenImpCasts() == current;
      const auto* binary = llvm::dyn_cast<clang::BinaryConditionalOperator>(conditional);
      const bool is_common = binary != nullptr && binary->getCommon() == current;
      if (is_condition && !is_common) return {true, false};
      partial = true;
      Use use = classifyParents(*conditional, partial);
      use.read |= is_common;
      return use;
    }
    if (const auto* cast = llvm::dyn_cast<clang::ImplicitCastExpr>(parent)) {
      if (cast->getCastKind() == clang::CK_LValueToRValue) return {true, false};
      if (cast->getCastKind() == clang::CK_NoOp || cast->getCastKind() == clang::CK_ArrayToPointerDecay) {
        // Adding const is a read; an array decaying to a pointer may be written through.
        if (cast->getType().isConstQualified() ||
            (cast->getType()->isPointerType() &&
             cast->getType()->getPointeeType().isConstQualified()))
          return {true, false};
        current = parent;
        continue;
      }
      return {true, false};
    }
    if (const auto* binary = llvm::dyn_cast<clang::BinaryOperator>(parent)) {
      if (binary->getLHS()->IgnoreParens() == current->IgnoreParens()) {
        if (binary->getOpcode() == clang::BO_Assign) return {false, true};
        if (binary->isCompoundAssignmentOp()) return {true, true};
      }
      return {true, false};
    }
    if (const auto* unary = llvm::dyn_cast<clang::UnaryOperator>(parent)) {
      if (unary->isIncrementDecrementOp()) return {true, true};
      if (unary->getOpcode() == clang::UO_AddrOf) {
        // &v.rank: the pointer may be written through unless it points to const.
        return {true, !unary->getType()->getPointeeType().isConstQualified()};
      }
      return {true, false};
    }
    if (const auto* call = llvm::dyn_cast<clang::CallExpr>(parent)) {
      const clang::FunctionDecl* callee = call->getDirectCallee();
      if (callee == nullptr) return {true, true};
      // Object of a member call (operator= of a struct field, methods): const methods read.
      if (const auto* member_call = llvm::dyn_cast<clang::CXXMemberCallExpr>(call))
        if (member_call->getImplicitObjectArgument()->IgnoreParenImpCasts() == current) {
          const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(callee);
          return {true, method == nullptr || !method->isConst()};
        }
      unsigned offset = 0;
      if (const auto* op_call = llvm::dyn_cast<clang::CXXOperatorCallExpr>(call))
        if (llvm::isa<clang::CXXMethodDecl>(callee)) {
          if (op_call->getArg(0) == current) {
            const auto* method = llvm::cast<clang::CXXMethodDecl>(callee);
            if (op_call->getOperator() == clang::OO_Equal) return {false, true};
            return {true, !method->isConst()};
          }
          offset = 1;  // argument 0 is the object
        }
      for (unsigned i = 0; i < call->getNumArgs(); ++i) {
        if (call->getArg(i) != current) continue;
        if (i < offset) break;
        const unsigned param_index = i - offset;
        if (param_index >= callee->getNumParams()) return {true, true};  // variadic
        clang::QualType t = callee->getParamDecl(param_index)->getType();
        const bool writes = (t->isReferenceType() || t->isPointerType()) &&
                            !t->getPointeeType().isConstQualified();
        return {true, writes};
      }
      return {true, false};
    }
    if (llvm::isa<clang::MaterializeTemporaryExpr>(parent) ||
        llvm::isa<clang::CXXConstructExpr>(parent))
      return {true, false};
    // Anything else: assume both.
    return {true, true};
  }
}

std::vector<FieldAccess> FieldAccessAnalysis::analyze(
    const clang::CXXMethodDecl& call_operator,
    const std::vector<const clang::FunctionDecl*>& reachable, FunctorInfo& info) {
  std::vector<FieldAccess> accesses;
  by_id_calls_.clear();
  AccessCollector collector(*this, types_, info, accesses);
  collector.traverseBody(call_operator.getBody(), /*is_call_operator=*/true);
  for (const clang::FunctionDecl* f : reachable)
    if (f != &call_operator && f->getBody() != nullptr)
      collector.traverseBody(f->getBody(), /*is_call_operator=*/false);
  return accesses;
}

}  // namespace medusa::cc
