// Where medusa-cc finds clang's resource directory (stddef.h, ...) and the Medusa runtime
// headers when it parses user code. Both are baked in at build time and overridable by env.
#pragma once

#include <string>

namespace medusa::cc {

// MEDUSA_CLANG_RESOURCE_DIR, else the LLVM installation medusa-cc was built against.
std::string clangResourceDir();
// MEDUSA_INCLUDE_DIR, else <exe dir>/../include when it holds medusa/medusa.h (installed), else
// the source tree's runtime/include (build tree).
std::string medusaIncludeDir(const char* argv0);
std::string medusaCcVersion();

}  // namespace medusa::cc
