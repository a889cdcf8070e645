#include "medusa-cc/Translator.h"

#include "medusa-cc/AggregateAnalysis.h"
#include "medusa-cc/EdgeLoopAnalysis.h"
#include "medusa-cc/FieldAccessAnalysis.h"
#include "medusa-cc/GpuSafetyChecker.h"
#include "medusa-cc/IterationReplayAnalysis.h"
#include "medusa-cc/MedusaDiagnostics.h"
#include "medusa-cc/ProgramMatcher.h"
#include "medusa-cc/ScheduleAnalysis.h"
#include "medusa-cc/SlotLifetimeAnalysis.h"
#include "medusa-cc/SourcePrefetchAnalysis.h"
#include "medusa-cc/SuperstepPlanAnalysis.h"

#include <clang/AST/ASTConsumer.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>

#include <set>

namespace medusa::cc {
namespace {

// Fields that cannot be turned into one device array each.
void checkDeviceFieldTypes(const clang::CXXRecordDecl* record,
                           const std::map<std::string, FieldUse>& uses, MedusaDiagnostics& diags,
                           std::set<const clang::FieldDecl*>& reported) {
  for (const clang::FieldDecl* field : record->fields()) {
    if (!uses.count(field->getNameAsString()) || reported.count(field)) continue;
    const char* why = nullptr;
    if (field->isBitField()) why = "bit-fields have no address; use a plain integer field";
    else if (field->getType()->isArrayType() && !field->getType()->isConstantArrayType())
      why = "only fixed-size arrays can live on the device";
    else if (field->getType()->isReferenceType())
      why = "a reference refers to host memory; store the value";
    if (why == nullptr) continue;
    reported.insert(field);
    diags.report(field->getLocation(), Diag::UnsupportedFieldType)
        << field->getName() << field->getType() << why;
  }
}

// An ELIST functor over in-edges runs pulled, each in-edge in its head's thread (in_edges.h): its
// loop must be edge-parallel and it may not write its vertex.
void checkInEdgeFunctor(FunctorAst& functor, MedusaDiagnostics& diags) {
  FunctorInfo& info = functor.info;
  for (const auto& [name, use] : info.vertex_fields)
    if (use.written) {
      diags.report(functor.call_operator->getLocation(), Diag::InEdgeWritesVertex) << info.name << name;
      return;
    }
  std::string list = "el";
  for (const ParamInfo& p : info.params)
    if (p.role == ParamRole::InEdgeList) list = p.name;
  if (!info.edge_loop) {
    diags.report(functor.call_operator->getLocation(), Diag::InEdgeLoopNotParallel) << info.name << list;
    return;
  }
  info.edge_loop->uniform_message.reset();  // (the pulled pass runs every in-edge's iteration)
}

// Reads by id are read-only and see the launch's starting values; ids are integers; vertex_at
// takes the functor's own element (medusa/by_id.h).
void checkByIdUses(FunctorAst& functor, const std::vector<FieldAccess>& accesses,
                   const std::vector<ByIdCall>& calls, MedusaDiagnostics& diags) {
  FunctorInfo& info = functor.info;
  for (const FieldAccess& access : accesses) {
    if (access.owner != FieldOwner::ById) continue;
    const std::string name = access.field->getNameAsString();
    if (access.written) {
      diags.report(access.location, Diag::ByIdWrite) << info.name << name;
      continue;
    }
    const auto own = info.vertex_fields.find(name);
    if (own != info.vertex_fields.end() && own->second.written)
      diags.report(access.location, Diag::ByIdReadOfWrittenField) << info.name << name;
  }
  const bool edge_element = info.kind == ApiKind::Edge;
  for (const ByIdCall& c : calls) {
    if (!c.view_method.empty()) {
      diags.report(c.call->getExprLoc(), Diag::ByIdViewMethod) << info.name << c.view_method;
      continue;
    }
    if (!c.id->getType()->isIntegralOrEnumerationType() || c.id->getType()->isBooleanType())
      diags.report(c.id->getExprLoc(), Diag::ByIdNotIntegral)
          << (c.send ? "sendMsgTo" : "vertex_at") << c.id->getType();
    if (c.send) continue;
    const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(c.element->IgnoreParenImpCasts());
    const auto* param = ref != nullptr ? llvm::dyn_cast<clang::ParmVarDecl>(ref->getDecl()) : nullptr;
    bool ok = false;
    for (const ParamInfo& p : info.params)
      ok |= param != nullptr && param->getName() == p.name && param->getDeclContext() == functor.call_operator &&
            (edge_element ? p.role == ParamRole::Edge : p.role == ParamRole::Vertex);
    if (!ok) diags.report(c.element->getExprLoc(), Diag::ByIdElement) << (edge_element ? 1 : 0);
  }
  // A send in an edge-parallel ELIST's prologue would run once per edge.
  if (info.sends_by_id) info.edge_loop.reset();
}

// Its messages exist only as the fold of the Combiner() that follows it.
void checkInEdgeCombiners(const ProgramAst& ast, const ProgramModel& model, MedusaDiagnostics& diags) {
  for (const IterationOps& function : model.iterations)
    for (size_t i = 0; i < function.ops.size(); ++i) {
      const PlanOp& op = function.ops[i];
      const FunctorInfo* f = op.kind == PlanOp::Kind::Run ? model.functor(op.functor) : nullptr;
      if (f == nullptr || !f->in_edges) continue;
      if (i + 1 < function.ops.size() && function.ops[i + 1].kind == PlanOp::Kind::Combiner) continue;
      for (const RunCallAst& run : ast.runs)
        if (run.info.line == op.line && run.info.functor == op.functor)
          diags.report(run.call->getBeginLoc(), Diag::InEdgeNeedsCombiner) << op.functor << function.function;
    }
}

class TranslateConsumer : public clang::ASTConsumer {
 public:
  explicit TranslateConsumer(std::vector<AnalyzedProgram>& programs) : programs_(programs) {}

  void HandleTranslationUnit(clang::ASTContext& context) override {
    // Ordinary C++ errors: clang has reported them; nothing to translate.
    if (context.getDiagnostics().hasErrorOccurred()) return;
    const clang::SourceManager& sm = context.getSourceManager();
    AnalyzedProgram program;
    if (const clang::FileEntry* file = sm.getFileEntryForID(sm.getMainFileID()))
      program.main_file = file->tryGetRealPathName().str();
    program.model.source_path = program.main_file;
    if (!ProgramAnalysis::run(context, program.model)) return;
    program.source_text = sm.getBufferData(sm.getMainFileID()).str();
    programs_.push_back(std::move(program));
  }

 private:
  std::vector<AnalyzedProgram>& programs_;
};

class TranslateAction : public clang::ASTFrontendAction {
 public:
  explicit TranslateAction(std::vector<AnalyzedProgram>& programs) : programs_(programs) {}
  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance&,
                                                        llvm::StringRef) override {
    return std::make_unique<TranslateConsumer>(programs_);
  }

 private:
  std::vector<AnalyzedProgram>& programs_;
};

}  // namespace

// "a VERTEX functor", "an ELIST functor over in-edges (InEdgeList)", for diagnostics.
static std::string functorKindPhrase(const FunctorInfo& info) {
  if (info.in_edges) return "an ELIST functor over in-edges (InEdgeList)";
  const std::string kind = apiKindName(info.kind);
  return ((kind[0] == 'E' || (kind[0] == 'M' && kind[1] == 'L')) ? "an " : "a ") + kind + " functor";
}

bool ProgramAnalysis::run(clang::ASTContext& context, ProgramModel& model) {
  const clang::SourceManager& sm = context.getSourceManager();
  MedusaDiagnostics diags(context.getDiagnostics());
  ProgramAst ast;
  ProgramMatcher matcher(context, diags);
  if (!matcher.match(ast, model)) return false;

  GpuSafetyChecker checker(context, diags, ast.types);
  FieldAccessAnalysis field_analysis(context, ast.types);
  EdgeLoopAnalysis edge_loops(context, field_analysis);
  AggregateAnalysis aggregates(context, diags);
  aggregates.collect(model, checker);
  std::set<const clang::FieldDecl*> reported_fields;
  for (FunctorAst& functor : ast.functors) {
    checker.checkMembers(*functor.record, "functor");
    const std::vector<const clang::FunctionDecl*> reachable =
        checker.checkRoot(*functor.call_operator);
    const std::vector<FieldAccess> accesses =
        field_analysis.analyze(*functor.call_operator, reachable, functor.info);
    checker.checkEdgeFunctorWrites(functor.info, accesses);
    if (functor.info.kind == ApiKind::Elist && functor.info.uses_head)
      diags.report(functor.call_operator->getLocation(), Diag::HeadInElist) << functor.info.name;
    for (const ParamInfo& p : functor.info.params) functor.info.in_edges |= p.role == ParamRole::InEdgeList;
    if (functor.info.reads_neighbor_sets && (functor.info.kind != ApiKind::Elist || functor.info.in_edges))
      diags.report(functor.call_operator->getLocation(), Diag::NeighborSetOutsideElist)
          << functor.info.name << functorKindPhrase(functor.info);
    checkDeviceFieldTypes(ast.types.vertex, functor.info.vertex_fields, diags, reported_fields);
    checkDeviceFieldTypes(ast.types.vertex, functor.info.head_fields, diags, reported_fields);
    checkDeviceFieldTypes(ast.types.edge, functor.info.edge_fields, diags, reported_fields);
    aggregates.analyzeFunctor(*functor.call_operator, functor.info);
    functor.info.edge_loop = edge_loops.analyze(*functor.call_operator, functor.info);
    if (functor.info.in_edges) checkInEdgeFunctor(functor, diags);
    checkByIdUses(functor, accesses, field_analysis.byIdCalls(), diags);
    model.functors.push_back(functor.info);
  }
  for (const CombinerAst& combiner : ast.combiners) {
    checker.checkMembers(*combiner.record, "combiner operator");
    checker.checkOperatorRoot(*combiner.call_operator);
  }
  aggregates.checkHostAdds(ast);
  model.combiner_consumes_slots = SlotLifetimeAnalysis(context).combinerConsumesSlots(ast);
  model.replayable_iterations = IterationReplayAnalysis(context).replayableIterations(ast);
  if (!model.aggregates.empty()) model.replayable_iterations.clear();  // (read back every superstep)
  model.iterations = SuperstepPlanAnalysis(context).iterations(ast);
  checkInEdgeCombiners(ast, model, diags);
  const std::map<std::string, std::string> next_sources = SourcePrefetchAnalysis(context).nextSourceFunctors(ast);
  for (FunctorInfo& f : model.functors)
    if (const auto hint = next_sources.find(f.name); f.kind == ApiKind::Vertex && hint != next_sources.end())
      f.next_source_functor = hint->second;
  ScheduleAnalysis schedules(context, diags);
  schedules.collect(model);
  schedules.check(model);
  checker.checkRecursion();

  // Helpers are compiled for both host and device.
  std::set<const clang::FunctionDecl*> seen;
  for (const clang::FunctionDecl* helper : checker.helpers()) {
    const clang::FunctionDecl* definition = helper->getTemplateInstantiationPattern();
    if (definition == nullptr) definition = helper;
    if (!seen.insert(definition->getCanonicalDecl()).second) continue;
    model.helpers.push_back(
        {definition->getQualifiedNameAsString(), sm.getExpansionLineNumber(definition->getLocation())});
    for (const clang::FunctionDecl* redecl : definition->redecls()) {
      const clang::SourceLocation at = redecl->getInnerLocStart();
      if (at.isMacroID() || !sm.isInMainFile(at)) continue;
      model.hd_insertions.push_back(sm.getFileOffset(at));
    }
  }
  return !diags.hasErrors();
}

std::unique_ptr<clang::FrontendAction> TranslateActionFactory::create() {
  return std::make_unique<TranslateAction>(programs_);
}

}  // namespace medusa::cc
