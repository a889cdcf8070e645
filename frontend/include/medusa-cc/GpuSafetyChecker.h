// Stage 3: rejects, with a diagnostic at the offending expression, every construct that cannot
// run on the GPU inside a functor, a combiner operator, or any function they call: virtual calls,
// exceptions, heap allocation, recursion, std containers and strings, I/O, non-const globals,
// calls to functions without a translatable body, RTTI, vertex writes from EDGE functors,
// pointer and reference members, addresses of graph elements.
// It also finds the helper functions (defined in the translated file) that need MEDUSA_HD.
#pragma once

#include "medusa-cc/AstQueries.h"
#include "medusa-cc/FieldAccessAnalysis.h"
#include "medusa-cc/MedusaDiagnostics.h"
#include "medusa-cc/ProgramModel.h"

#include <clang/AST/ASTContext.h>

#include <map>
#include <set>
#include <vector>

namespace medusa::cc {

class GpuSafetyChecker {
 public:
  GpuSafetyChecker(clang::ASTContext& context, MedusaDiagnostics& diags, const GraphTypes& types);

  // Checks `root` (a functor's or combiner's operator()) and everything it calls; returns the
  // functions reachable from it, root first.
  std::vector<const clang::FunctionDecl*> checkRoot(const clang::FunctionDecl& root);
  // Same for a combiner's or an aggregate's operator (no aggregate may be used there).
  std::vector<const clang::FunctionDecl*> checkOperatorRoot(const clang::FunctionDecl& root) {
    combiner_roots_.insert(&root);
    return checkRoot(root);
  }
  // Members of a functor or combiner operator (`what`) that are or hold a pointer or a
  // reference: host addresses, which the device cannot dereference.
  void checkMembers(const clang::CXXRecordDecl& record, const char* what);
  // After all roots: reports call cycles (recursion).
  void checkRecursion();
  // EDGE functors own no vertex: report writes to vertex fields.
  void checkEdgeFunctorWrites(const FunctorInfo& functor, const std::vector<FieldAccess>& accesses);

  // User functions other than the roots that device code calls, in source order.
  std::vector<const clang::FunctionDecl*> helpers() const;

  // Allow-lists (public for the docs and tests).
  static bool isAllowedMathFunction(llvm::StringRef name);
  static bool isIoFunction(llvm::StringRef name);
  static bool isHeapFunction(llvm::StringRef name);
  static bool isAllowedStdRecord(llvm::StringRef name);
  static bool isAllowedStdFunction(llvm::StringRef name);

 private:
  friend class DeviceBodyChecker;
  struct CallSite {
    const clang::FunctionDecl* callee;
    clang::SourceLocation location;
  };
  void checkCallee(const clang::FunctionDecl* caller, const clang::FunctionDecl* callee,
                   clang::SourceLocation location);
  // The first device call site that made `f` reachable (for "called from here" notes).
  void noteCaller(const clang::FunctionDecl* f);
  bool isGraphRecord(const clang::CXXRecordDecl* record) const;
  // The first std type inside `type` that device code cannot use, or null.
  const clang::CXXRecordDecl* forbiddenStdRecord(clang::QualType type) const;

  clang::ASTContext& context_;
  MedusaDiagnostics& diags_;
  const GraphTypes& types_;
  FieldAccessAnalysis uses_;
  std::set<const clang::FunctionDecl*> roots_;
  std::set<const clang::FunctionDecl*> combiner_roots_;
  std::set<const clang::FunctionDecl*> checked_;
  std::vector<const clang::FunctionDecl*> worklist_;
  std::map<const clang::FunctionDecl*, std::vector<CallSite>> calls_;
  std::map<const clang::FunctionDecl*, CallSite> first_caller_;
};

}  // namespace medusa::cc
