#include "medusa-cc/ScheduleAnalysis.h"

#include "medusa-cc/AstQueries.h"
#include "medusa-cc/SuperstepPlan.h"

#include <medusa/tuning.h>  // the enumerators ScheduleInfo stores as values

#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/Support/Path.h>

#include <algorithm>
#include <vector>

namespace medusa::cc {
namespace {

static_assert(static_cast<int>(medusa::Toggle::On) == 1 && static_cast<int>(medusa::Toggle::Off) == 2);
static_assert(static_cast<int>(medusa::FrontierPull::Always) == 1 &&
              static_cast<int>(medusa::FrontierPull::Never) == 2);
static_assert(static_cast<int>(medusa::SuperstepBatching::Always) == 1 &&
              static_cast<int>(medusa::SuperstepBatching::Off) == 2);

class ScheduleCollector : public clang::RecursiveASTVisitor<ScheduleCollector> {
 public:
  explicit ScheduleCollector(const clang::SourceManager& sm) : sm_(sm) {}
  bool VisitVarDecl(clang::VarDecl* var) {
    const clang::CXXRecordDecl* record = recordOf(var->getType());
    if (record != nullptr && record->getQualifiedNameAsString() == "medusa::ScheduleOf" &&
        isInMainFile(sm_, var->getLocation()) && var->hasInit())
      found.push_back(var);
    return true;
  }
  std::vector<const clang::VarDecl*> found;

 private:
  const clang::SourceManager& sm_;
};

// The value of `record`'s field `name` in the struct `value`, or null.
const clang::APValue* field(const clang::APValue& value, const clang::RecordDecl* record, llvm::StringRef name) {
  if (!value.isStruct() || record == nullptr) return nullptr;
  unsigned i = 0;
  for (const clang::FieldDecl* f : record->fields()) {
    if (f->getName() == name) return i < value.getStructNumFields() ? &value.getStructField(i) : nullptr;
    ++i;
  }
  return nullptr;
}

}  // namespace

void ScheduleAnalysis::collect(ProgramModel& model) {
  const clang::SourceManager& sm = context_.getSourceManager();
  ScheduleCollector collector(sm);
  collector.TraverseAST(context_);
  for (const clang::VarDecl* var : collector.found) {
    const clang::SourceLocation at = sm.getExpansionLoc(var->getBeginLoc());
    const clang::APValue* value = var->evaluateValue();
    const clang::CXXRecordDecl* of = recordOf(var->getType());
    const clang::APValue* function = value != nullptr ? field(*value, of, "function") : nullptr;
    const clang::APValue* schedule = value != nullptr ? field(*value, of, "schedule") : nullptr;
    if (function == nullptr || schedule == nullptr || !function->isLValue()) continue;  // (clang reported it)
    const auto* decl = llvm::dyn_cast_or_null<clang::FunctionDecl>(
        function->getLValueBase().dyn_cast<const clang::ValueDecl*>());
    if (decl == nullptr) continue;
    if (decl->isInAnonymousNamespace()) {  // (the registration after the user's text could not name it)
      diags_.report(at, Diag::NotAtGlobalScope) << "iteration function with a MEDUSA_SCHEDULE" << decl->getName();
      continue;
    }
    ScheduleInfo info;
    info.function = decl->getQualifiedNameAsString();
    const unsigned line = sm.getExpansionLineNumber(at);
    info.where = llvm::sys::path::filename(sm.getFilename(at)).str() + ":" + std::to_string(line);
    const clang::RecordDecl* schedule_record = nullptr;
    for (const clang::FieldDecl* f : of->fields())
      if (f->getName() == "schedule") schedule_record = recordOf(f->getType());
    const std::pair<const char*, int ScheduleInfo::*> settings[] = {
        {"frontierPull", &ScheduleInfo::frontier_pull},   {"gatherFusion", &ScheduleInfo::gather_fusion},
        {"pushCombine", &ScheduleInfo::push_combine},     {"vertexFusion", &ScheduleInfo::vertex_fusion},
        {"sourcePrefetch", &ScheduleInfo::source_prefetch}, {"superstepBatch", &ScheduleInfo::superstep_batch},
        {"endFusion", &ScheduleInfo::end_fusion}};
    for (const auto& [name, member] : settings)
      if (const clang::APValue* v = field(*schedule, schedule_record, name); v != nullptr && v->isInt())
        info.*member = static_cast<int>(v->getInt().getExtValue());

    const bool iteration = std::any_of(model.iterations.begin(), model.iterations.end(),
                                       [&](const IterationOps& it) { return it.function == info.function; });
    if (!iteration) {
      diags_.report(at, Diag::ScheduleNotIteration) << info.function;
      continue;
    }
    if (const auto first = where_.find(info.function); first != where_.end()) {
      diags_.report(at, Diag::ScheduleTwice) << info.function << sm.getExpansionLineNumber(first->second);
      continue;
    }
    where_[info.function] = at;
    model.schedules.push_back(info);
  }
}

void ScheduleAnalysis::check(const ProgramModel& model) {
  if (model.schedules.empty()) return;
  std::vector<std::pair<std::string, ScheduleIssue>> issues;
  planSupersteps(model, /*edge_parallel=*/true, &issues);
  for (const auto& [function, issue] : issues)
    diags_.report(where_.at(function), issue.error ? Diag::ScheduleRejected : Diag::ScheduleNoEffect)
        << function << issue.message;
}

}  // namespace medusa::cc
