#include "medusa-cc/GpuSafetyChecker.h"

#include "medusa-cc/AggregateAnalysis.h"

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <functional>
#include <optional>

namespace medusa::cc {
namespace {

// <cmath> functions (and their float/long double twins ending in f/l) that CUDA provides on the
// device and the host backend gets from the C library.
const std::set<std::string> kMathFunctions{
    "abs",      "fabs",    "sqrt",      "cbrt",     "pow",       "exp",      "exp2",
    "expm1",    "log",     "log2",      "log10",    "log1p",     "sin",      "cos",
    "tan",      "asin",    "acos",      "atan",     "atan2",     "sinh",     "cosh",
    "tanh",     "asinh",   "acosh",     "atanh",    "floor",     "ceil",     "round",
    "trunc",    "lround",  "llround",   "rint",     "lrint",     "nearbyint", "fmin",
    "fmax",     "fmod",    "remainder", "hypot",    "fma",       "fdim",     "copysign",
    "ldexp",    "frexp",   "modf",      "erf",      "erfc",      "tgamma",   "lgamma",
    "isnan",    "isinf",   "isfinite",  "signbit",  "nextafter", "scalbn",   "ilogb",
    "logb",     "labs",    "llabs",     "rsqrt"};
const std::set<std::string> kIoFunctions{
    "printf", "fprintf", "sprintf", "snprintf", "vprintf", "vfprintf", "puts",   "fputs",
    "putchar", "fputc",  "putc",    "scanf",    "fscanf",  "sscanf",   "getchar", "fgetc",
    "getc",   "fgets",   "gets",    "fopen",    "fclose",  "fread",    "fwrite",  "fflush",
    "fseek",  "ftell",   "rewind",  "perror",   "remove",  "rename",   "tmpfile", "system",
    "getline", "read",   "write",   "open",     "close"};
const std::set<std::string> kHeapFunctions{"malloc", "calloc", "realloc", "free",
                                           "aligned_alloc", "posix_memalign", "strdup"};
// std vocabulary that is usable on the device (<limits>, <utility>).
const std::set<std::string> kStdRecords{"numeric_limits", "pair"};
const std::set<std::string> kStdFunctions{"min", "max", "abs", "swap", "move", "forward",
                                          "make_pair"};
const std::set<std::string> kStdStreams{"cout", "cerr", "clog", "cin", "wcout", "wcerr", "wclog",
                                        "wcin"};
const std::set<std::string> kMedusaDeviceFunctions{"medusa::Continue", "medusa::Halt", "medusa::Superstep",
                                                   "medusa::intersect_count", "medusa::for_each_common",
                                                   "medusa::vertex_at"};
const char* const kMedusaDeviceRecords[] = {"medusa::VertexBase",  "medusa::EdgeBase",
                                            "medusa::EdgeList",    "medusa::MessageList",
                                            "medusa::InEdgeList",  "medusa::AggregateBase"};

const clang::CXXRecordDecl* parentRecord(const clang::FunctionDecl* f) {
  const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(f);
  return method ? method->getParent() : nullptr;
}

bool isLambdaCallOperator(const clang::FunctionDecl* f) {
  const clang::CXXRecordDecl* parent = parentRecord(f);
  return parent != nullptr && parent->isLambda();
}

// The function a definition comes from (the template pattern for instantiations).
const clang::FunctionDecl* sourceDefinition(const clang::FunctionDecl* f) {
  if (const clang::FunctionDecl* pattern = f->getTemplateInstantiationPattern()) f = pattern;
  const clang::FunctionDecl* definition = nullptr;
  if (f->hasBody(definition)) return definition;
  return nullptr;
}

struct HostAddress {
  bool reference;
  std::string path;  // from the member to the pointer: "in.p", "ps[i]"
};

// The first pointer or reference inside a value of `type`, through arrays, bases and fields.
std::optional<HostAddress> findHostAddress(clang::QualType type, const std::string& path) {
  type = type.getCanonicalType();
  if (type->isReferenceType()) return HostAddress{true, path};
  if (type->isPointerType()) return HostAddress{false, path};  // function pointers too
  if (const clang::ArrayType* array = type->getAsArrayTypeUnsafe())
    return findHostAddress(array->getElementType(), path + "[i]");
  const clang::CXXRecordDecl* record = type->getAsCXXRecordDecl();
  if (record == nullptr || !record->hasDefinition()) return std::nullopt;
  for (const clang::CXXBaseSpecifier& base : record->bases())
    if (auto found = findHostAddress(base.getType(), path)) return found;
  for (const clang::FieldDecl* field : record->fields())
    if (auto found = findHostAddress(field->getType(), path + "." + field->getNameAsString()))
      return found;
  return std::nullopt;
}

}  // namespace

bool GpuSafetyChecker::isAllowedMathFunction(llvm::StringRef name) {
  if (kMathFunctions.count(name.str())) return true;
  // sqrtf, fabsl, ...
  if (name.size() > 1 && (name.back() == 'f' || name.back() == 'l'))
    return kMathFunctions.count(name.drop_back().str()) > 0;
  return name.startswith("__builtin_");
}
bool GpuSafetyChecker::isIoFunction(llvm::StringRef name) { return kIoFunctions.count(name.str()); }
bool GpuSafetyChecker::isHeapFunction(llvm::StringRef name) {
  return kHeapFunctions.count(name.str());
}
bool GpuSafetyChecker::isAllowedStdRecord(llvm::StringRef name) {
  return kStdRecords.count(name.str());
}
bool GpuSafetyChecker::isAllowedStdFunction(llvm::StringRef name) {
  return kStdFunctions.count(name.str()) || isAllowedMathFunction(name);
}

// Checks one function body; calls lead to GpuSafetyChecker::checkCallee.
class DeviceBodyChecker : public clang::RecursiveASTVisitor<DeviceBodyChecker> {
 public:
  DeviceBodyChecker(GpuSafetyChecker& checker, const clang::FunctionDecl& function)
      : c_(checker), f_(function), sm_(checker.context_.getSourceManager()) {}

  bool shouldVisitLambdaBody() const { return true; }

  bool VisitCXXMemberCallExpr(clang::CXXMemberCallExpr* call) {
    const clang::CXXMethodDecl* method = call->getMethodDecl();
    if (method == nullptr) return true;
    const auto* member = llvm::dyn_cast<clang::MemberExpr>(call->getCallee()->IgnoreParens());
    if (method->isVirtual() && !(member && member->hasQualifier())) {
      report(call->getExprLoc(), Diag::VirtualCall) << method->getQualifiedNameAsString();
      noteContext();
    }
    if (method->getName() == "SetActive" && call->getNumArgs() == 1 &&
        isSpecializationOf(method->getParent(), "medusa::VertexBase"))
      checkPriority(call->getArg(0));
    return true;
  }

  // SetActive(priority) takes an unsigned integer (its bucket is priority / delta): the argument as
  // written, before the conversion to std::uint64_t that would wrap a negative value or truncate a
  // fraction.
  void checkPriority(const clang::Expr* arg) {
    const clang::Expr* given = arg->IgnoreParenImpCasts();
    const clang::QualType type = given->getType();
    const llvm::StringRef text = clang::Lexer::getSourceText(
        clang::CharSourceRange::getTokenRange(given->getSourceRange()), sm_, c_.context_.getLangOpts());
    if (!type->isIntegerType() || type->isBooleanType()) {
      report(given->getBeginLoc(), Diag::PriorityNotInteger) << text << type.getAsString(c_.context_.getPrintingPolicy());
      noteContext();
      return;
    }
    if (!type->isSignedIntegerOrEnumerationType()) return;
    clang::Expr::EvalResult constant;
    if (given->EvaluateAsInt(constant, c_.context_)) {
      if (!constant.Val.getInt().isNegative()) return;
      report(given->getBeginLoc(), Diag::PriorityNegative) << text << std::to_string(constant.Val.getInt().getExtValue());
    } else {
      report(given->getBeginLoc(), Diag::PrioritySigned) << text << type.getAsString(c_.context_.getPrintingPolicy());
    }
    noteContext();
  }

  bool VisitCXXThrowExpr(clang::CXXThrowExpr* e) {
    report(e->getThrowLoc(), Diag::ExceptionUse) << "'throw'";
    noteContext();
    return true;
  }
  bool VisitCXXTryStmt(clang::CXXTryStmt* s) {
    report(s->getTryLoc(), Diag::ExceptionUse) << "'try'";
    noteContext();
    return true;
  }
  bool VisitCXXNewExpr(clang::CXXNewExpr* e) {
    report(e->getBeginLoc(), Diag::HeapAllocation) << "new";
    noteContext();
    return true;
  }
  bool VisitCXXDeleteExpr(clang::CXXDeleteExpr* e) {
    report(e->getBeginLoc(), Diag::HeapAllocation) << "delete";
    noteContext();
    return true;
  }
  bool VisitCXXTypeidExpr(clang::CXXTypeidExpr* e) {
    report(e->getBeginLoc(), Diag::RttiUse) << "'typeid'";
    noteContext();
    return true;
  }
  bool VisitCXXDynamicCastExpr(clang::CXXDynamicCastExpr* e) {
    report(e->getBeginLoc(), Diag::RttiUse) << "'dynamic_cast'";
    noteContext();
    return true;
  }

  bool VisitCallExpr(clang::CallExpr* call) {
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (callee == nullptr) {
      // A lambda or functor object called through operator() has a direct callee; only real
      // function pointers end up here.
      if (!call->getCallee()->getType()->isDependentType() &&
          !llvm::isa<clang::CXXPseudoDestructorExpr>(call->getCallee())) {
        report(call->getBeginLoc(), Diag::IndirectCall);
        noteContext();
      }
      return true;
    }
    c_.checkCallee(&f_, callee, call->getExprLoc());
    return true;
  }

  bool VisitCXXConstructExpr(clang::CXXConstructExpr* construct) {
    // Constructing a forbidden std type: the variable or expression using it is reported.
    if (c_.forbiddenStdRecord(construct->getType())) return true;
    c_.checkCallee(&f_, construct->getConstructor(), construct->getBeginLoc());
    return true;
  }

  bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
    const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (var == nullptr || !var->hasGlobalStorage()) return true;
    const std::string name = var->getNameAsString();
    if ((isInNamespace(var, "std") && kStdStreams.count(name)) || name == "stdout" ||
        name == "stderr" || name == "stdin") {
      report(ref->getLocation(), Diag::IoUse) << var->getQualifiedNameAsString();
      noteContext();
      return true;
    }
    if (const clang::CXXRecordDecl* bad = c_.forbiddenStdRecord(var->getType())) {
      report(ref->getLocation(), Diag::StdType)
          << ("variable '" + name + "'") << clang::QualType(bad->getTypeForDecl(), 0);
      noteContext();
      return true;
    }
    if (isAggregateType(var->getType())) {
      // In a functor's own body (or a lambda in it) AggregateAnalysis checks the use; a helper
      // would see the host object.
      const clang::FunctionDecl* owner = &f_;
      while (isLambdaCallOperator(owner)) {
        const auto* enclosing = llvm::dyn_cast<clang::FunctionDecl>(
            llvm::cast<clang::CXXMethodDecl>(owner)->getParent()->getDeclContext());
        if (enclosing == nullptr) break;
        owner = enclosing;
      }
      if (!c_.roots_.count(owner) || c_.combiner_roots_.count(owner)) {
        report(ref->getLocation(), Diag::AggregateOutsideFunctor) << name << owner->getNameAsString();
        noteContext();
      }
      return true;
    }
    const bool is_const = var->getType().isConstQualified() || var->isConstexpr();
    if (!is_const) {
      FieldAccessAnalysis::Use use = c_.uses_.classifyUse(*ref);
      report(ref->getLocation(), Diag::NonConstGlobal)
          << "variable" << name << (var->isStaticLocal() ? "static" : "global")
          << (use.written ? "written" : "read");
      noteContext();
    }
    return true;
  }

  bool VisitVarDecl(clang::VarDecl* var) {
    if (!isInMainFile(sm_, var->getLocation())) return true;
    if (const clang::CXXRecordDecl* bad = c_.forbiddenStdRecord(var->getType())) {
      report(var->getLocation(), Diag::StdType)
          << ("variable '" + var->getNameAsString() + "'")
          << clang::QualType(bad->getTypeForDecl(), 0);
      noteContext();
      return true;
    }
    const auto* param = llvm::dyn_cast<clang::ParmVarDecl>(var);
    const clang::QualType type = var->getType();
    const clang::CXXRecordDecl* record = recordOf(type);
    const bool graph_typed =
        c_.isGraphRecord(record) || isSpecializationOf(record, "medusa::EdgeList") ||
        isSpecializationOf(record, "medusa::InEdgeList");
    if (param != nullptr) {
      // Roots take the graph types by design; helpers cannot (they would need proxies).
      if (graph_typed && !c_.roots_.count(&f_) && !isLambdaCallOperator(&f_)) {
        report(var->getLocation(), Diag::HelperTakesGraphType)
            << f_.getNameAsString()
            << (c_.isGraphRecord(record) ? record->getName().str() : "edge list")
            << var->getNameAsString();
        noteContext();
      }
      return true;
    }
    if (!c_.isGraphRecord(record)) return true;
    const int which = record->getCanonicalDecl() == c_.types_.edge->getCanonicalDecl() ? 1 : 0;
    const clang::Expr* init = var->getInit() ? var->getInit()->IgnoreImplicit() : nullptr;
    if (!type->isReferenceType()) {
      // `auto e = el[i];` copies the view (fine while only read); `Vertex x;` or `Vertex x{...}`
      // has no element to view.
      const auto* construct = llvm::dyn_cast_or_null<clang::CXXConstructExpr>(init);
      const bool copies_element =
          construct != nullptr && construct->getNumArgs() == 1 &&
          c_.isGraphRecord(recordOf(construct->getArg(0)->getType()));
      if (!copies_element) {
        report(var->getLocation(), Diag::GraphValueCopy) << var->getNameAsString() << which << 0 << "";
        noteContext();
      } else {
        value_copies_.insert(var);
      }
      return true;
    }
    // `auto&& x = el[i]` deduces an lvalue reference in plain C++ but binds the temporary view
    // on the device: only a written `&` (not `&&`) is a problem.
    const clang::CharSourceRange written = clang::CharSourceRange::getTokenRange(
        var->getTypeSourceInfo()->getTypeLoc().getSourceRange());
    const bool forwarding = clang::Lexer::getSourceText(written, sm_, c_.context_.getLangOpts())
                                .rtrim()
                                .endswith("&&");
    if (!forwarding && !type.getNonReferenceType().isConstQualified() &&
        type->isLValueReferenceType() && init) {
      const auto* subscript = llvm::dyn_cast<clang::CXXOperatorCallExpr>(init->IgnoreParenImpCasts());
      if (subscript != nullptr && subscript->getOperator() == clang::OO_Subscript &&
          isSpecializationOf(recordOf(subscript->getArg(0)->getType()), "medusa::EdgeList")) {
        report(var->getLocation(), Diag::EdgeListReference) << var->getNameAsString();
        noteContext();
      }
    }
    return true;
  }

  // Writes through a copy of a vertex or edge (see VisitVarDecl).
  bool VisitMemberExpr(clang::MemberExpr* member) {
    const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(member->getBase()->IgnoreParenImpCasts());
    if (ref == nullptr || !llvm::isa<clang::FieldDecl>(member->getMemberDecl())) return true;
    const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
    if (var == nullptr || !value_copies_.count(var)) return true;
    if (!c_.uses_.classifyUse(*member).written) return true;
    const clang::CXXRecordDecl* record = recordOf(var->getType());
    const int which = record->getCanonicalDecl() == c_.types_.edge->getCanonicalDecl() ? 1 : 0;
    report(member->getMemberLoc(), Diag::GraphValueCopy)
        << var->getNameAsString() << which << 1 << member->getMemberDecl()->getNameAsString();
    noteContext();
    return true;
  }

  // `&v`, `&el`, `&v.rank`, `&ml[i]`: the device has no such object to point into (a vertex is
  // a proxy on the stack, a field a slot of its own array), so p[1] or p + 1 would reach other
  // memory than on the host. Proving that a pointer is only dereferenced is not worth it: every
  // such address is rejected; references work.
  bool VisitUnaryOperator(clang::UnaryOperator* op) {
    if (op->getOpcode() != clang::UO_AddrOf || !isElementPart(op->getSubExpr())) return true;
    const clang::CharSourceRange operand =
        clang::CharSourceRange::getTokenRange(op->getSubExpr()->getSourceRange());
    report(op->getOperatorLoc(), Diag::ElementAddress)
        << clang::Lexer::getSourceText(operand, sm_, c_.context_.getLangOpts());
    noteContext();
    return true;
  }

  void run() {
    for (const clang::ParmVarDecl* p : f_.parameters()) VisitVarDecl(const_cast<clang::ParmVarDecl*>(p));
    TraverseStmt(f_.getBody());
  }

 private:
  // Whether `e` is a graph element or part of one: a parameter of a functor or combiner, a
  // vertex or edge (el[i], e.head(), a copy), an edge or message list, a message ml[i], a field
  // or a part of a field, or a reference bound to any of these.
  bool isElementPart(const clang::Expr* e) const {
    e = e->IgnoreParenImpCasts();
    const clang::CXXRecordDecl* record = recordOf(e->getType());
    if (c_.isGraphRecord(record) || isListRecord(record)) return true;
    if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(e))
      return !member->isArrow() && isElementPart(member->getBase());
    if (const auto* subscript = llvm::dyn_cast<clang::ArraySubscriptExpr>(e))
      return isElementPart(subscript->getBase());
    if (const auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(e))
      return op->getOperator() == clang::OO_Subscript &&
             isListRecord(recordOf(op->getArg(0)->getType()));
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(e)) {
      if (const auto* param = llvm::dyn_cast<clang::ParmVarDecl>(ref->getDecl()))
        return c_.roots_.count(&f_) && param->getDeclContext() == &f_;
      if (const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl()))
        return var->getType()->isReferenceType() && var->getInit() && isElementPart(var->getInit());
    }
    return false;
  }
  static bool isListRecord(const clang::CXXRecordDecl* record) {
    return isSpecializationOf(record, "medusa::EdgeList") ||
           isSpecializationOf(record, "medusa::MessageList");
  }

  clang::DiagnosticBuilder report(clang::SourceLocation loc, Diag diag) {
    return c_.diags_.report(loc, diag);
  }
  void noteContext() { c_.noteCaller(&f_); }

  GpuSafetyChecker& c_;
  const clang::FunctionDecl& f_;
  const clang::SourceManager& sm_;
  std::set<const clang::VarDecl*> value_copies_;
};

GpuSafetyChecker::GpuSafetyChecker(clang::ASTContext& context, MedusaDiagnostics& diags,
                                   const GraphTypes& types)
    : context_(context), diags_(diags), types_(types), uses_(context, types) {}

bool GpuSafetyChecker::isGraphRecord(const clang::CXXRecordDecl* record) const {
  if (record == nullptr) return false;
  record = record->getCanonicalDecl();
  return (types_.vertex && record == types_.vertex->getCanonicalDecl()) ||
         (types_.edge && record == types_.edge->getCanonicalDecl());
}

const clang::CXXRecordDecl* GpuSafetyChecker::forbiddenStdRecord(clang::QualType type) const {
  if (type.isNull()) return nullptr;
  type = type.getNonReferenceType().getCanonicalType();
  while (type->isPointerType() || type->isArrayType())
    type = type->isPointerType() ? type->getPointeeType().getCanonicalType()
                                 : clang::QualType(type->getArrayElementTypeNoTypeQual(), 0)
                                       .getCanonicalType();
  const clang::CXXRecordDecl* record = type->getAsCXXRecordDecl();
  if (record == nullptr) return nullptr;
  if (isInNamespace(record, "std") && !isAllowedStdRecord(record->getName())) return record;
  if (const auto* spec = llvm::dyn_cast<clang::ClassTemplateSpecializationDecl>(record))
    for (const clang::TemplateArgument& arg : spec->getTemplateArgs().asArray())
      if (arg.getKind() == clang::TemplateArgument::Type)
        if (const clang::CXXRecordDecl* bad = forbiddenStdRecord(arg.getAsType())) return bad;
  return nullptr;
}

void GpuSafetyChecker::noteCaller(const clang::FunctionDecl* f) {
  auto it = first_caller_.find(f);
  if (it != first_caller_.end())
    diags_.report(it->second.location, Diag::CalledFromFunctor) << f->getNameAsString();
}

void GpuSafetyChecker::checkCallee(const clang::FunctionDecl* caller,
                                   const clang::FunctionDecl* callee,
                                   clang::SourceLocation location) {
  const clang::SourceManager& sm = context_.getSourceManager();
  const std::string qualified = callee->getQualifiedNameAsString();
  const std::string name = callee->getNameAsString();
  const clang::CXXRecordDecl* parent = parentRecord(callee);
  auto fail = [&](Diag diag, const std::string& arg) {
    diags_.report(location, diag) << arg;
    noteCaller(caller);
  };

  if (isInNamespace(callee, "medusa")) {
    if (kMedusaDeviceFunctions.count(qualified)) return;
    for (const char* record : kMedusaDeviceRecords)
      if (isSpecializationOf(parent, record)) return;
    if (parent != nullptr && parent->getQualifiedNameAsString() == "medusa::NeighborSet") return;
    fail(Diag::HostMedusaApi, qualified);
    return;
  }
  if (isLambdaCallOperator(callee)) return;  // its body is part of the caller's
  if (callee->isImplicit() || callee->isTrivial() || callee->isDefaulted()) return;
  if (isGraphRecord(parent)) {
    diags_.report(location, Diag::MethodOfGraphType)
        << name << (parent->getCanonicalDecl() == types_.edge->getCanonicalDecl() ? "edge" : "vertex")
        << parent->getName();
    noteCaller(caller);
    return;
  }
  const bool in_std = isInNamespace(callee, "std");
  const bool global = callee->getDeclContext()->getRedeclContext()->isTranslationUnit() &&
                      parent == nullptr;
  if (in_std || global) {
    if (isIoFunction(name)) return fail(Diag::IoUse, qualified);
    if (isHeapFunction(name)) return fail(Diag::HeapFunction, qualified);
  }
  if (callee->getBuiltinID() != 0) return;  // __builtin_*, and library builtins not caught above
  if (in_std) {
    if (parent != nullptr && isAllowedStdRecord(parent->getName())) return;
    if (parent == nullptr && isAllowedStdFunction(name)) return;
    // Stream operators: the stream itself (std::cout, a local std::ofstream) is reported.
    if (callee->isOverloadedOperator() &&
        (callee->getOverloadedOperator() == clang::OO_LessLess ||
         callee->getOverloadedOperator() == clang::OO_GreaterGreater))
      return;
    if (parent != nullptr && forbiddenStdRecord(context_.getRecordType(parent))) {
      diags_.report(location, Diag::StdType)
          << ("call to '" + qualified + "' on a value") << context_.getRecordType(parent);
      noteCaller(caller);
      return;
    }
    return fail(Diag::StdFunction, qualified);
  }
  if (global && isAllowedMathFunction(name)) return;

  const clang::FunctionDecl* definition = sourceDefinition(callee);
  if (definition == nullptr || !isInMainFile(sm, definition->getLocation())) {
    if (in_std || global || !definition) return fail(Diag::NoVisibleBody, qualified);
    return fail(Diag::NoVisibleBody, qualified);
  }
  // A user function in this file: checked like the functor and compiled for the device.
  calls_[caller].push_back({callee, location});
  if (!first_caller_.count(callee) && !roots_.count(callee))
    first_caller_[callee] = {caller, location};
  if (!checked_.count(callee)) {
    checked_.insert(callee);
    worklist_.push_back(callee);
  }
}

std::vector<const clang::FunctionDecl*> GpuSafetyChecker::checkRoot(const clang::FunctionDecl& root) {
  roots_.insert(&root);
  std::vector<const clang::FunctionDecl*> reachable{&root};
  if (!checked_.count(&root)) {
    checked_.insert(&root);
    worklist_.push_back(&root);
  }
  // Check newly reached functions; collect the reachable set by walking the call graph.
  while (!worklist_.empty()) {
    const clang::FunctionDecl* f = worklist_.back();
    worklist_.pop_back();
    if (f->getBody() != nullptr) DeviceBodyChecker(*this, *f).run();
  }
  std::set<const clang::FunctionDecl*> seen{&root};
  for (size_t i = 0; i < reachable.size(); ++i)
    for (const CallSite& call : calls_[reachable[i]])
      if (seen.insert(call.callee).second) reachable.push_back(call.callee);
  return reachable;
}

void GpuSafetyChecker::checkMembers(const clang::CXXRecordDecl& record, const char* what) {
  // Members of base classes are the functor's too (reported where they are declared).
  std::function<void(const clang::CXXRecordDecl&)> check = [&](const clang::CXXRecordDecl& r) {
    for (const clang::CXXBaseSpecifier& base : r.bases())
      if (const clang::CXXRecordDecl* base_record = recordOf(base.getType())) check(*base_record);
    for (const clang::FieldDecl* field : r.fields()) {
      const std::string name = field->getNameAsString();
      const std::optional<HostAddress> found = findHostAddress(field->getType(), name);
      if (!found) continue;
      diags_.report(field->getLocation(), Diag::HostAddressMember)
          << name << what << record.getName() << (found->path != name) << found->reference
          << found->path;
    }
  };
  check(record);
}

void GpuSafetyChecker::checkRecursion() {
  enum class State { New, OnStack, Done };
  std::map<const clang::FunctionDecl*, State> state;
  std::vector<const clang::FunctionDecl*> stack;
  std::function<void(const clang::FunctionDecl*)> visit = [&](const clang::FunctionDecl* f) {
    state[f] = State::OnStack;
    stack.push_back(f);
    for (const CallSite& call : calls_[f]) {
      State s = state.count(call.callee) ? state[call.callee] : State::New;
      if (s == State::New) {
        visit(call.callee);
      } else if (s == State::OnStack) {
        diags_.report(call.location, Diag::Recursion) << call.callee->getNameAsString();
        std::string cycle;
        auto start = std::find(stack.begin(), stack.end(), call.callee);
        for (auto it = start; it != stack.end(); ++it) cycle += (*it)->getNameAsString() + " -> ";
        cycle += call.callee->getNameAsString();
        diags_.report(call.callee->getLocation(), Diag::RecursionCycle) << cycle;
      }
    }
    stack.pop_back();
    state[f] = State::Done;
  };
  std::vector<const clang::FunctionDecl*> roots(roots_.begin(), roots_.end());
  const clang::SourceManager& sm = context_.getSourceManager();
  std::sort(roots.begin(), roots.end(), [&](const auto* a, const auto* b) {
    return sm.isBeforeInTranslationUnit(a->getLocation(), b->getLocation());
  });
  for (const clang::FunctionDecl* root : roots)
    if (!state.count(root)) visit(root);
}

void GpuSafetyChecker::checkEdgeFunctorWrites(const FunctorInfo& functor,
                                              const std::vector<FieldAccess>& accesses) {
  if (functor.kind != ApiKind::Edge) return;
  for (const FieldAccess& access : accesses)
    if (access.written && access.owner != FieldOwner::Edge)
      diags_.report(access.location, Diag::EdgeWritesVertex)
          << functor.name << access.field->getNameAsString();
}

std::vector<const clang::FunctionDecl*> GpuSafetyChecker::helpers() const {
  std::vector<const clang::FunctionDecl*> out;
  for (const clang::FunctionDecl* f : checked_)
    if (!roots_.count(f)) out.push_back(f);
  const clang::SourceManager& sm = context_.getSourceManager();
  std::sort(out.begin(), out.end(), [&](const auto* a, const auto* b) {
    return sm.isBeforeInTranslationUnit(a->getLocation(), b->getLocation());
  });
  return out;
}

}  // namespace medusa::cc
