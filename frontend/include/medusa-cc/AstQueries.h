// Small questions about Clang AST nodes that several stages ask: is this the Medusa vertex base,
// which user type is the vertex, is a location in the translated file.
#pragma once

#include <clang/AST/ASTContext.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>

#include <string>

namespace medusa::cc {

// The user's graph types, as the later stages need them.
struct GraphTypes {
  const clang::CXXRecordDecl* vertex = nullptr;
  const clang::CXXRecordDecl* edge = nullptr;
  clang::QualType message;  // canonical
};

// True when `record` is a specialization of the class template `qualified_name`
// (e.g. "medusa::VertexBase").
bool isSpecializationOf(const clang::CXXRecordDecl* record, llvm::StringRef qualified_name);
// The specialization of `qualified_name` that `record` derives from directly, or null.
const clang::ClassTemplateSpecializationDecl* baseSpecialization(
    const clang::CXXRecordDecl* record, llvm::StringRef qualified_name);
// The record behind a type, ignoring references, cv-qualifiers and sugar.
const clang::CXXRecordDecl* recordOf(clang::QualType type);
// True when `decl` is declared inside namespace `ns` (at any depth), e.g. "std" or "medusa".
bool isInNamespace(const clang::Decl* decl, llvm::StringRef ns);
// True when the (expansion) location is in the file medusa-cc translates.
bool isInMainFile(const clang::SourceManager& sm, clang::SourceLocation loc);
// A type as the generated code spells it: fully qualified, "::"-anchored for user records.
std::string spellType(clang::QualType type, const clang::ASTContext& context);
// The function a call-like expression calls directly (calls, operator calls, constructions).
const clang::FunctionDecl* calleeOf(const clang::Expr* expr);
// True for the implicit nodes around a call used as a statement or bound to a reference
// (ExprWithCleanups, implicit casts, MaterializeTemporaryExpr, CXXBindTemporaryExpr).
bool isImplicitWrapper(const clang::Stmt* stmt);
// True when `call` calls medusa::`name` (e.g. "InitMessageBuffer", "Combiner") directly.
bool callsMedusaFunction(const clang::CallExpr* call, llvm::StringRef name);

}  // namespace medusa::cc
