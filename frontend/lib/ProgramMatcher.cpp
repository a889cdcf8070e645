#include "medusa-cc/ProgramMatcher.h"

#include "medusa-cc/KindClassifier.h"

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecordLayout.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <map>
#include <set>

namespace medusa::cc {

// Walks the whole translation unit once and collects the candidates ProgramMatcher judges.
class ProgramCollector : public clang::RecursiveASTVisitor<ProgramCollector> {
 public:
  ProgramCollector(ProgramMatcher& matcher, ProgramAst& ast, ProgramModel& model)
      : m_(matcher), ast_(ast), model_(model), sm_(matcher.context_.getSourceManager()) {}

  bool VisitCXXRecordDecl(clang::CXXRecordDecl* record) {
    if (!record->isThisDeclarationADefinition() || record->isInjectedClassName() ||
        isInNamespace(record, "medusa") || llvm::isa<clang::ClassTemplateSpecializationDecl>(record))
      return true;
    if (baseSpecialization(record, "medusa::VertexBase")) m_.vertex_records_.push_back(record);
    if (baseSpecialization(record, "medusa::EdgeBase")) m_.edge_records_.push_back(record);
    return true;
  }

  bool TraverseFunctionDecl(clang::FunctionDecl* f) { return traverseFunction(f, [&] {
      return RecursiveASTVisitor::TraverseFunctionDecl(f); }); }
  bool TraverseCXXMethodDecl(clang::CXXMethodDecl* f) { return traverseFunction(f, [&] {
      return RecursiveASTVisitor::TraverseCXXMethodDecl(f); }); }

  bool VisitCallExpr(clang::CallExpr* call) {
    if (!isInMainFile(sm_, call->getBeginLoc())) return true;
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (callee == nullptr) return true;
    if (const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(callee))
      if (method->getName() == "Run" && isSpecializationOf(method->getParent(), "medusa::EMV"))
        recordRun(call, method);
    if (callsMedusaFunction(call, "Halt") && current_function_ != nullptr)
      m_.halting_functions_.insert(current_function_->getNameAsString());
    if (callee->getQualifiedNameAsString() == "medusa::Combiner") {
      if (call->getNumArgs() == 0) {
        m_.builtin_combiner_calls_.push_back(call);
        model_.uses_builtin_combiner = true;
      } else if (const clang::CXXRecordDecl* op = recordOf(call->getArg(0)->getType())) {
        m_.combiner_calls_.push_back({call, op});
      }
    }
    return true;
  }

  // conf.combinerOpType = MEDUSA_MIN;
  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    if (!op->isAssignmentOp() || !isInMainFile(sm_, op->getBeginLoc())) return true;
    const auto* member = llvm::dyn_cast<clang::MemberExpr>(op->getLHS()->IgnoreParenImpCasts());
    if (member == nullptr || member->getMemberDecl()->getName() != "combinerOpType") return true;
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(op->getRHS()->IgnoreParenImpCasts())) {
      model_.combiner_op_types.push_back(ref->getDecl()->getNameAsString());
      if (const auto* value = llvm::dyn_cast<clang::EnumConstantDecl>(ref->getDecl()))
        if (isInNamespace(value, "medusa")) m_.combiner_op_assignments_.push_back({ref, value});
    } else
      model_.combiner_op_types.push_back("<dynamic>");
    return true;
  }

 private:
  template <class F>
  bool traverseFunction(clang::FunctionDecl* f, F traverse) {
    const clang::FunctionDecl* saved = current_function_;
    current_function_ = f;
    const bool result = traverse();
    current_function_ = saved;
    return result;
  }

  void recordRun(const clang::CallExpr* call, const clang::CXXMethodDecl* run) {
    const auto* emv = llvm::cast<clang::ClassTemplateSpecializationDecl>(run->getParent());
    const clang::TemplateArgumentList& emv_args = emv->getTemplateArgs();
    const clang::TemplateArgumentList* run_args = run->getTemplateSpecializationArgs();
    if (emv_args.size() != 1 || emv_args[0].getKind() != clang::TemplateArgument::Integral ||
        run_args == nullptr || run_args->size() != 1)
      return;
    std::optional<ApiKind> kind = apiKindFromRuntimeValue(emv_args[0].getAsIntegral().getExtValue());
    if (!kind) return;
    RunCallAst r;
    r.call = call;
    r.functor = recordOf((*run_args)[0].getAsType());
    r.info.requested = *kind;
    r.info.domain = domainOf(call);
    r.info.line = sm_.getExpansionLineNumber(call->getBeginLoc());
    if (r.functor != nullptr)
      r.info.functor = r.functor->isLambda() ? "(lambda)" : r.functor->getNameAsString();
    if (current_function_ != nullptr) {
      r.info.iteration_function = current_function_->getNameAsString();
      auto& names = model_.iteration_functions;
      if (std::find(names.begin(), names.end(), r.info.iteration_function) == names.end())
        names.push_back(r.info.iteration_function);
    }
    ast_.runs.push_back(r);
  }

  DomainUse domainOf(const clang::CallExpr* call) const {
    if (call->getNumArgs() < 2) return DomainUse::All;
    const clang::Expr* arg = call->getArg(1);
    if (llvm::isa<clang::CXXDefaultArgExpr>(arg)) return DomainUse::All;
    clang::Expr::EvalResult value;
    if (!arg->EvaluateAsRValue(value, m_.context_) || !value.Val.isInt()) return DomainUse::Dynamic;
    switch (value.Val.getInt().getExtValue()) {  // medusa::Domain { All, Active, Received }
      case 0: return DomainUse::All;
      case 1: return DomainUse::Active;
      case 2: return DomainUse::Received;
      default: return DomainUse::Dynamic;
    }
  }

  ProgramMatcher& m_;
  ProgramAst& ast_;
  ProgramModel& model_;
  const clang::SourceManager& sm_;
  const clang::FunctionDecl* current_function_ = nullptr;
};

namespace {

bool startsWith(llvm::StringRef s, llvm::StringRef prefix) { return s.startswith(prefix); }

NamespacePath namespacePath(const clang::Decl* decl) {
  NamespacePath path;
  for (const clang::DeclContext* dc = decl->getDeclContext(); !dc->isTranslationUnit();
       dc = dc->getParent())
    if (const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(dc))
      path.insert(path.begin(), (ns->isInline() ? "inline " : "") + ns->getNameAsString());
  return path;
}

bool beforeInFile(const clang::SourceManager& sm, const clang::Decl* a, const clang::Decl* b) {
  return sm.isBeforeInTranslationUnit(a->getBeginLoc(), b->getBeginLoc());
}

}  // namespace

bool ProgramMatcher::match(ProgramAst& ast, ProgramModel& model) {
  ProgramCollector collector(*this, ast, model);
  collector.TraverseAST(context_);
  if (!resolveGraphTypes(ast, model)) return false;
  const bool functors_ok = collectFunctors(ast, model);
  const bool combiners_ok = collectCombiners(ast, model);
  checkCombinerOpTypes(ast);
  for (const std::string& f : model.iteration_functions) model.iteration_halts |= halting_functions_.count(f) != 0;
  for (const clang::CallExpr* call : builtin_combiner_calls_)
    if (!model.message_is_arithmetic) {
      diags_.report(call->getBeginLoc(), Diag::BuiltinCombinerOnStruct) << ast.types.message;
      return false;
    }
  return functors_ok && combiners_ok && !diags_.hasErrors();
}

// The logical operators fold an integer bitmask to 0 or 1 (issue #27: a reachability mask ended
// as "own bit | 1"): warn, naming the bitwise operator. The bitwise ones need integer messages.
void ProgramMatcher::checkCombinerOpTypes(const ProgramAst& ast) {
  static const std::map<llvm::StringRef, llvm::StringRef> kLogicalToBitwise = {
      {"MEDUSA_OR", "MEDUSA_BIT_OR"}, {"MEDUSA_LOGICAL_OR", "MEDUSA_BIT_OR"},
      {"MEDUSA_AND", "MEDUSA_BIT_AND"}, {"MEDUSA_LOGICAL_AND", "MEDUSA_BIT_AND"}};
  static const std::set<llvm::StringRef> kBitwise = {"MEDUSA_BIT_OR", "MEDUSA_BIT_AND", "MEDUSA_BIT_XOR"};
  const clang::QualType message = ast.types.message;
  for (const auto& [expr, value] : combiner_op_assignments_) {
    const llvm::StringRef name = value->getName();
    if (auto it = kLogicalToBitwise.find(name);
        it != kLogicalToBitwise.end() && message->isIntegerType() && !message->isBooleanType())
      diags_.report(expr->getExprLoc(), Diag::LogicalCombinerOnInteger) << name << message << it->second;
    if (kBitwise.count(name) != 0 && message->isFloatingType())
      diags_.report(expr->getExprLoc(), Diag::BitwiseCombinerOnFloat) << name << message;
  }
}

bool ProgramMatcher::resolveGraphTypes(ProgramAst& ast, ProgramModel& model) {
  const clang::SourceManager& sm = context_.getSourceManager();
  auto unique_sorted = [&](std::vector<const clang::CXXRecordDecl*>& records) {
    std::set<const clang::Decl*> seen;
    std::vector<const clang::CXXRecordDecl*> out;
    for (const clang::CXXRecordDecl* r : records)
      if (seen.insert(r->getCanonicalDecl()).second) out.push_back(r);
    std::sort(out.begin(), out.end(),
              [&](const auto* a, const auto* b) { return beforeInFile(sm, a, b); });
    records = out;
  };
  unique_sorted(vertex_records_);
  unique_sorted(edge_records_);

  if (vertex_records_.empty()) {
    diags_.report(sm.getLocForStartOfFile(sm.getMainFileID()), Diag::NoVertexType);
    return false;
  }
  bool ok = true;
  for (size_t i = 1; i < vertex_records_.size(); ++i) {
    diags_.report(vertex_records_[i]->getLocation(), Diag::SeveralGraphTypes)
        << "vertex" << vertex_records_[i]->getName() << 0;
    diags_.report(vertex_records_[0]->getLocation(), Diag::DeclaredHere)
        << vertex_records_[0]->getName();
    ok = false;
  }
  const clang::CXXRecordDecl* vertex = vertex_records_[0];
  ast.types.vertex = vertex;
  if (!checkUserRecord(vertex, "vertex type") || !checkNames(vertex, true)) ok = false;

  const auto* vertex_base = baseSpecialization(vertex, "medusa::VertexBase");
  ast.types.message = vertex_base->getTemplateArgs()[0].getAsType().getCanonicalType();
  model.message_type = spellType(vertex_base->getTemplateArgs()[0].getAsType(), context_);
  model.message_is_arithmetic = ast.types.message->isArithmeticType();
  if (!model.message_is_arithmetic && !ast.types.message.isTriviallyCopyableType(context_)) {
    diags_.report(vertex->getLocation(), Diag::MessageTypeNotTrivial) << ast.types.message;
    ok = false;
  }

  if (edge_records_.empty()) {
    diags_.report(vertex->getBraceRange().getEnd(), Diag::NoEdgeType) << vertex->getName();
    return false;
  }
  for (size_t i = 1; i < edge_records_.size(); ++i) {
    diags_.report(edge_records_[i]->getLocation(), Diag::SeveralGraphTypes)
        << "edge" << edge_records_[i]->getName() << 1;
    diags_.report(edge_records_[0]->getLocation(), Diag::DeclaredHere)
        << edge_records_[0]->getName();
    ok = false;
  }
  const clang::CXXRecordDecl* edge = edge_records_[0];
  ast.types.edge = edge;
  const auto* edge_base = baseSpecialization(edge, "medusa::EdgeBase");
  const clang::CXXRecordDecl* edge_vertex = recordOf(edge_base->getTemplateArgs()[0].getAsType());
  if (edge_vertex == nullptr || edge_vertex->getCanonicalDecl() != vertex->getCanonicalDecl()) {
    diags_.report(edge->getLocation(), Diag::EdgeOfOtherVertex)
        << edge->getName() << edge_base->getTemplateArgs()[0].getAsType() << vertex->getName();
    ok = false;
  }
  if (!checkUserRecord(edge, "edge type") || !checkNames(edge, false)) ok = false;
  if (!ok) return false;
  model.vertex = describeRecord(vertex);
  model.edge = describeRecord(edge);
  return true;
}

bool ProgramMatcher::checkUserRecord(const clang::CXXRecordDecl* record, const char* what) {
  const clang::SourceManager& sm = context_.getSourceManager();
  const std::string name = record->isLambda() ? "(lambda)" : record->getNameAsString();
  if (record->getBeginLoc().isMacroID() || record->getEndLoc().isMacroID()) {
    diags_.report(record->getLocation(), Diag::MacroDefinitionNotSupported) << what << name;
    return false;
  }
  if (!isInMainFile(sm, record->getLocation())) {
    diags_.report(record->getLocation(), Diag::NotInMainFile) << what << name;
    return false;
  }
  // Namespace scope: only named namespaces (and extern "C++" blocks) may enclose it.
  bool namespace_scope = !record->isLambda();
  for (const clang::DeclContext* dc = record->getDeclContext(); namespace_scope && !dc->isTranslationUnit();
       dc = dc->getParent()) {
    const auto* ns = llvm::dyn_cast<clang::NamespaceDecl>(dc);
    namespace_scope = (ns != nullptr && !ns->isAnonymousNamespace()) ||
                      llvm::isa<clang::LinkageSpecDecl>(dc);
  }
  if (!namespace_scope) {
    diags_.report(record->getLocation(), Diag::NotAtGlobalScope) << what << name;
    return false;
  }
  if (record->getDescribedClassTemplate() != nullptr ||
      llvm::isa<clang::ClassTemplateSpecializationDecl>(record)) {
    diags_.report(record->getLocation(), Diag::TemplateNotSupported) << what << name;
    return false;
  }
  return true;
}

bool ProgramMatcher::checkNames(const clang::CXXRecordDecl* record, bool is_vertex) {
  // Names the generated proxies (and their Medusa bases) already define.
  static const std::set<std::string> kVertexBuiltins{"id", "edge_count", "in_edge_count",
                                                     "combined_msg", "SetActive", "neighbors", "sendMsgTo"};
  static const std::set<std::string> kEdgeBuiltins{"head_id",        "tail_id",        "head",
                                                   "sendMsg",        "SetActive",      "make",
                                                   "message_type",   "arrays_type",    "head_neighbors",
                                                   "tail_neighbors", "sendMsgTo"};
  const auto& builtins = is_vertex ? kVertexBuiltins : kEdgeBuiltins;
  bool ok = true;
  for (const clang::Decl* decl : record->decls()) {
    if (decl->isImplicit()) continue;
    const auto* named = llvm::dyn_cast<clang::NamedDecl>(decl);
    if (named == nullptr || !named->getIdentifier()) continue;
    const char* what = llvm::isa<clang::FieldDecl>(named)       ? "field"
                       : llvm::isa<clang::CXXMethodDecl>(named) ? "member function"
                       : llvm::isa<clang::VarDecl>(named)       ? "static member"
                                                                : "member";
    const std::string name = named->getNameAsString();
    const bool reserved = startsWith(name, "medusa_");
    if (builtins.count(name) || reserved) {
      diags_.report(named->getLocation(), Diag::BuiltinNameClash)
          << what << name << (is_vertex ? "vertex" : "edge") << record->getName()
          << (reserved ? 1 : 0);
      ok = false;
    }
  }
  return ok;
}

RecordInfo ProgramMatcher::describeRecord(const clang::CXXRecordDecl* record) {
  const clang::SourceManager& sm = context_.getSourceManager();
  RecordInfo info;
  info.name = record->getNameAsString();
  info.qualified = "::" + record->getQualifiedNameAsString();
  info.line = sm.getExpansionLineNumber(record->getLocation());
  info.region = wholeLineRegion(record);
  info.namespaces = namespacePath(record);
  const clang::ASTRecordLayout& layout = context_.getASTRecordLayout(record);
  for (const clang::FieldDecl* field : record->fields()) {
    FieldInfo f;
    f.name = field->getNameAsString();
    f.type = spellType(field->getType(), context_);
    clang::QualType element = field->getType();
    while (const auto* array = context_.getAsConstantArrayType(element)) {
      f.array_suffix += "[" + llvm::toString(array->getSize(), 10, false) + "]";
      element = array->getElementType();
    }
    f.element_type = spellType(element, context_);
    f.offset = context_.toCharUnitsFromBits(layout.getFieldOffset(field->getFieldIndex()))
                   .getQuantity();
    f.line = sm.getExpansionLineNumber(field->getLocation());
    info.fields.push_back(f);
  }
  return info;
}

SourceRegion ProgramMatcher::wholeLineRegion(const clang::CXXRecordDecl* record) {
  const clang::SourceManager& sm = context_.getSourceManager();
  const clang::SourceLocation begin = sm.getExpansionLoc(record->getBeginLoc());
  clang::SourceLocation end = sm.getExpansionLoc(record->getBraceRange().getEnd());
  // Include the `;` that ends the definition.
  if (std::optional<clang::Token> next =
          clang::Lexer::findNextToken(end, sm, context_.getLangOpts()))
    if (next->is(clang::tok::semi)) end = next->getLocation();
  const llvm::StringRef buffer = sm.getBufferData(sm.getMainFileID());
  unsigned b = sm.getFileOffset(begin);
  unsigned e = sm.getFileOffset(end);
  while (b > 0 && buffer[b - 1] != '\n') --b;
  while (e < buffer.size() && buffer[e] != '\n') ++e;
  if (e < buffer.size()) ++e;  // the newline belongs to the region
  SourceRegion region;
  region.begin_offset = b;
  region.end_offset = e;
  region.begin_line = sm.getExpansionLineNumber(begin);
  region.end_line = sm.getExpansionLineNumber(end);
  return region;
}

const clang::CXXMethodDecl* ProgramMatcher::findCallOperator(const clang::CXXRecordDecl* record,
                                                             const clang::CallExpr* use,
                                                             ApiKind requested) {
  std::vector<const clang::CXXMethodDecl*> operators;
  for (const clang::Decl* decl : record->decls()) {
    const clang::FunctionDecl* f = decl->getAsFunction();
    if (f != nullptr && f->getOverloadedOperator() == clang::OO_Call && !decl->isImplicit())
      operators.push_back(llvm::dyn_cast<clang::CXXMethodDecl>(f));
  }
  if (operators.empty()) {
    diags_.report(use->getBeginLoc(), Diag::NoCallOperator)
        << record->getName() << apiKindName(requested);
    return nullptr;
  }
  if (operators.size() > 1 || operators[0] == nullptr ||
      operators[0]->getDescribedFunctionTemplate() != nullptr) {
    diags_.report(operators.back() ? operators.back()->getLocation() : record->getLocation(),
                  Diag::SeveralCallOperators)
        << record->getName();
    return nullptr;
  }
  if (!operators[0]->isConst()) {
    diags_.report(operators[0]->getLocation(), Diag::CallOperatorNotConst) << record->getName();
    return nullptr;
  }
  return operators[0];
}

void ProgramMatcher::addHdInsertions(const clang::FunctionDecl* f, ProgramModel& model) {
  // Every declaration in the file (an out-of-line definition too) gets MEDUSA_HD.
  const clang::SourceManager& sm = context_.getSourceManager();
  for (const clang::FunctionDecl* redecl : f->redecls()) {
    const clang::SourceLocation at = sm.getExpansionLoc(redecl->getInnerLocStart());
    if (sm.isInMainFile(at)) model.hd_insertions.push_back(sm.getFileOffset(at));
  }
}

bool ProgramMatcher::checkTriviallyCopyableMembers(const clang::CXXRecordDecl* record,
                                                   const char* what) {
  bool ok = true;
  for (const clang::FieldDecl* field : record->fields()) {
    if (field->getType().isTriviallyCopyableType(context_)) continue;
    diags_.report(field->getLocation(), Diag::NonTriviallyCopyableMember)
        << field->getName() << what << record->getName() << field->getType();
    ok = false;
  }
  return ok;
}

bool ProgramMatcher::collectFunctors(ProgramAst& ast, ProgramModel& model) {
  const clang::SourceManager& sm = context_.getSourceManager();
  KindClassifier classifier(ast.types);
  // Group the Run calls by functor.
  std::map<const clang::Decl*, FunctorAst> by_record;
  bool ok = true;
  for (const RunCallAst& run : ast.runs) {
    if (run.functor == nullptr) continue;
    FunctorAst& functor = by_record[run.functor->getCanonicalDecl()];
    functor.record = run.functor->getDefinition();
    functor.runs.push_back(&run);
    model.runs.push_back(run.info);
  }
  for (auto& [key, functor] : by_record) {
    const RunCallAst& first_run = *functor.runs.front();
    if (functor.record == nullptr) continue;  // incomplete type: clang has reported it
    if (!checkUserRecord(functor.record, "functor")) {
      diags_.report(first_run.call->getBeginLoc(), Diag::PassedToRunHere)
          << first_run.info.functor << apiKindName(first_run.info.requested);
      ok = false;
      continue;
    }
    const clang::CXXMethodDecl* op =
        findCallOperator(functor.record, first_run.call, first_run.info.requested);
    if (op == nullptr) {
      ok = false;
      continue;
    }
    functor.call_operator = op;
    std::optional<KindClassification> kind = classifier.classify(*op);
    if (!kind) {
      diags_.report(op->getLocation(), Diag::SignatureMatchesNoKind)
          << functor.record->getName() << ast.types.vertex->getName()
          << ast.types.edge->getName() << llvm::StringRef(model.message_type).ltrim(':');
      diags_.report(first_run.call->getBeginLoc(), Diag::PassedToRunHere)
          << first_run.info.functor << apiKindName(first_run.info.requested);
      ok = false;
      continue;
    }
    for (const RunCallAst* run : functor.runs) {
      if (run->info.requested != kind->kind) {
        diags_.report(run->call->getBeginLoc(), Diag::RunKindMismatch)
            << apiKindName(run->info.requested) << functor.record->getName()
            << apiKindName(kind->kind);
        diags_.report(op->getLocation(), Diag::FunctorDeclaredHere) << functor.record->getName();
        ok = false;
      }
      const bool received_ok = kind->kind == ApiKind::Vertex || kind->kind == ApiKind::Mlist;
      if (run->info.domain == DomainUse::Received && !received_ok) {
        diags_.report(run->call->getArg(1)->getBeginLoc(), Diag::DomainNotAllowed)
            << "Received" << apiKindName(kind->kind)
            << "only VERTEX and MLIST functors can run over the vertices that received messages";
        ok = false;
      }
      const bool in_edges = std::any_of(kind->params.begin(), kind->params.end(),
                                        [](const ParamInfo& p) { return p.role == ParamRole::InEdgeList; });
      if (in_edges && run->info.domain == DomainUse::Active) {
        diags_.report(run->call->getArg(1)->getBeginLoc(), Diag::DomainNotAllowed)
            << "Active" << apiKindName(kind->kind)
            << "an ELIST functor over in-edges (InEdgeList) runs over every vertex (Domain::All)";
        ok = false;
      }
      if (run->info.domain == DomainUse::Active && kind->kind == ApiKind::Message) {
        diags_.report(run->call->getArg(1)->getBeginLoc(), Diag::DomainNotAllowed)
            << "Active" << apiKindName(kind->kind)
            << "MESSAGE functors run over every message slot (Domain::All)";
        ok = false;
      }
    }
    if (!checkTriviallyCopyableMembers(functor.record, "functor")) ok = false;
    if (op->getBeginLoc().isMacroID()) {
      diags_.report(op->getLocation(), Diag::MacroDefinitionNotSupported)
          << "operator() of functor" << functor.record->getName();
      ok = false;
      continue;
    }
    FunctorInfo& info = functor.info;
    info.name = functor.record->getNameAsString();
    info.namespaces = namespacePath(functor.record);
    info.kind = kind->kind;
    info.params = kind->params;
    info.region = wholeLineRegion(functor.record);
    info.operator_line = sm.getExpansionLineNumber(op->getLocation());
    for (const RunCallAst* run : functor.runs) info.domains.push_back(run->info.domain);
    addHdInsertions(op, model);
  }
  for (auto& [key, functor] : by_record)
    if (functor.call_operator != nullptr) ast.functors.push_back(functor);
  std::sort(ast.functors.begin(), ast.functors.end(), [&](const auto& a, const auto& b) {
    return a.info.region.begin_offset < b.info.region.begin_offset;
  });
  return ok;
}

bool ProgramMatcher::collectCombiners(ProgramAst& ast, ProgramModel& model) {
  KindClassifier classifier(ast.types);
  std::set<const clang::Decl*> seen;
  bool ok = true;
  for (const auto& [call, op_record] : combiner_calls_) {
    const clang::CXXRecordDecl* record = op_record->getDefinition();
    if (record == nullptr || !seen.insert(record->getCanonicalDecl()).second) continue;
    if (!checkUserRecord(record, "combiner operator")) {
      ok = false;
      continue;
    }
    const clang::CXXMethodDecl* op = nullptr;
    for (const clang::CXXMethodDecl* m : record->methods())
      if (m->getOverloadedOperator() == clang::OO_Call && !m->isImplicit()) op = m;
    if (op == nullptr || !op->isConst() || !classifier.isCombinerOperator(*op)) {
      diags_.report(op ? op->getLocation() : record->getLocation(), Diag::CombinerSignature)
          << record->getName() << ast.types.message;
      ok = false;
      continue;
    }
    if (!checkTriviallyCopyableMembers(record, "combiner operator")) ok = false;
    CombinerAst combiner;
    combiner.record = record;
    combiner.call_operator = op;
    combiner.call = call;
    combiner.info.name = record->getNameAsString();
    combiner.info.namespaces = namespacePath(record);
    combiner.info.region = wholeLineRegion(record);
    addHdInsertions(op, model);
    ast.combiners.push_back(combiner);
  }
  std::sort(ast.combiners.begin(), ast.combiners.end(), [&](const auto& a, const auto& b) {
    return a.info.region.begin_offset < b.info.region.begin_offset;
  });
  for (const CombinerAst& c : ast.combiners) model.combiners.push_back(c.info);
  return ok;
}

}  // namespace medusa::cc
