// `medusa-cc --emit-model`: the program model as JSON, for tests and for users who want to see
// what the translator understood (kinds, fields read/written, built-ins used).
#pragma once

#include "medusa-cc/ProgramModel.h"

#include <llvm/Support/raw_ostream.h>

namespace medusa::cc {

void writeModelJson(const ProgramModel& model, llvm::raw_ostream& out);

}  // namespace medusa::cc
