#include "medusa-cc/AstQueries.h"

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/QualTypeNames.h>
#include <clang/Basic/SourceManager.h>

namespace medusa::cc {

bool isSpecializationOf(const clang::CXXRecordDecl* record, llvm::StringRef qualified_name) {
  const auto* spec = llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(record);
  return spec != nullptr &&
         spec->getSpecializedTemplate()->getQualifiedNameAsString() == qualified_name;
}

const clang::ClassTemplateSpecializationDecl* baseSpecialization(
    const clang::CXXRecordDecl* record, llvm::StringRef qualified_name) {
  if (record == nullptr || !record->hasDefinition()) return nullptr;
  for (const clang::CXXBaseSpecifier& base : record->bases()) {
    const clang::CXXRecordDecl* base_record = recordOf(base.getType());
    if (isSpecializationOf(base_record, qualified_name))
      return llvm::cast<clang::ClassTemplateSpecializationDecl>(base_record);
  }
  return nullptr;
}

const clang::CXXRecordDecl* recordOf(clang::QualType type) {
  if (type.isNull()) return nullptr;
  type = type.getNonReferenceType().getCanonicalType().getUnqualifiedType();
  return type->getAsCXXRecordDecl();
}

bool isInNamespace(const clang::Decl* decl, llvm::StringRef ns) {
  for (const clang::DeclContext* dc = decl->getDeclContext(); dc != nullptr; dc = dc->getParent())
    if (const auto* n = llvm::dyn_cast<clang::NamespaceDecl>(dc))
      if (n->getName() == ns && n->getParent()->getRedeclContext()->isTranslationUnit())
        return true;
  return false;
}

bool isInMainFile(const clang::SourceManager& sm, clang::SourceLocation loc) {
  return loc.isValid() && sm.isInMainFile(sm.getExpansionLoc(loc));
}

std::string spellType(clang::QualType type, const clang::ASTContext& context) {
  clang::PrintingPolicy policy(context.getLangOpts());
  policy.SuppressScope = false;
  policy.FullyQualifiedName = true;
  policy.PrintCanonicalTypes = false;
  return clang::TypeName::getFullyQualifiedName(type, context, policy,
                                                /*WithGlobalNsPrefix=*/true);
}

const clang::FunctionDecl* calleeOf(const clang::Expr* expr) {
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(expr)) return call->getDirectCallee();
  if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(expr))
    return construct->getConstructor();
  return nullptr;
}

bool isImplicitWrapper(const clang::Stmt* stmt) {
  return llvm::isa_and_nonnull<clang::ExprWithCleanups, clang::ImplicitCastExpr,
                               clang::MaterializeTemporaryExpr, clang::CXXBindTemporaryExpr>(stmt);
}

bool callsMedusaFunction(const clang::CallExpr* call, llvm::StringRef name) {
  const clang::FunctionDecl* callee = call->getDirectCallee();
  return callee != nullptr && callee->getQualifiedNameAsString() == ("medusa::" + name).str();
}

}  // namespace medusa::cc
