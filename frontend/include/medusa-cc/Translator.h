// Runs the stages on one parsed translation unit: match -> model -> check. The result is a plain
// ProgramModel plus the user's text, from which ProgramEmitter writes the output.
#pragma once

#include "medusa-cc/ProgramModel.h"

#include <clang/AST/ASTContext.h>
#include <clang/Tooling/Tooling.h>

#include <memory>
#include <vector>

namespace medusa::cc {

struct AnalyzedProgram {
  std::string main_file;    // absolute path of the translated file
  std::string source_text;  // its text, as parsed
  ProgramModel model;
};

class ProgramAnalysis {
 public:
  // Stages 1-3. Returns false when the program was rejected (diagnostics were reported).
  static bool run(clang::ASTContext& context, ProgramModel& model);
};

// Creates the frontend actions ClangTool runs; collects one AnalyzedProgram per accepted file.
class TranslateActionFactory : public clang::tooling::FrontendActionFactory {
 public:
  std::unique_ptr<clang::FrontendAction> create() override;
  std::vector<AnalyzedProgram>& programs() { return programs_; }

 private:
  std::vector<AnalyzedProgram> programs_;
};

}  // namespace medusa::cc
