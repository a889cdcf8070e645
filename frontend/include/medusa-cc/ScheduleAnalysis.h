// Reads the schedules set in the main file (MEDUSA_SCHEDULE, runtime/include/medusa/schedule.h):
// each is a constant medusa::ScheduleOf, which clang evaluates. Checks that it names an
// iteration function, once; then, with the model complete, reports at the MEDUSA_SCHEDULE line
// what folding it into the plan raised (ScheduleFold.h).
#pragma once

#include "medusa-cc/MedusaDiagnostics.h"
#include "medusa-cc/ProgramModel.h"

#include <clang/AST/ASTContext.h>

#include <map>
#include <string>

namespace medusa::cc {

class ScheduleAnalysis {
 public:
  ScheduleAnalysis(clang::ASTContext& context, MedusaDiagnostics& diags) : context_(context), diags_(diags) {}

  // Fills model.schedules (model.iterations must be filled).
  void collect(ProgramModel& model);
  // Reports the issues of folding model.schedules into the plans.
  void check(const ProgramModel& model);

 private:
  clang::ASTContext& context_;
  MedusaDiagnostics& diags_;
  std::map<std::string, clang::SourceLocation> where_;  // function -> its MEDUSA_SCHEDULE
};

}  // namespace medusa::cc
