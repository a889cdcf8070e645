#include "medusa-cc/ToolPaths.h"

#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>

#include <cstdlib>

namespace medusa::cc {
namespace {
int anchor;  // its address locates the executable
}

std::string clangResourceDir() {
  if (const char* env = std::getenv("MEDUSA_CLANG_RESOURCE_DIR"); env && *env) return env;
  return MEDUSA_CC_DEFAULT_RESOURCE_DIR;
}

std::string medusaIncludeDir(const char* argv0) {
  if (const char* env = std::getenv("MEDUSA_INCLUDE_DIR"); env && *env) return env;
  const std::string exe = llvm::sys::fs::getMainExecutable(argv0, &anchor);
  if (!exe.empty()) {
    llvm::SmallString<256> installed(llvm::sys::path::parent_path(exe));
    llvm::sys::path::append(installed, MEDUSA_CC_INSTALL_INCLUDE_REL);
    llvm::sys::path::remove_dots(installed, /*remove_dot_dot=*/true);
    llvm::SmallString<256> probe(installed);
    llvm::sys::path::append(probe, "medusa", "medusa.h");
    if (llvm::sys::fs::exists(probe)) return std::string(installed);
  }
  return MEDUSA_CC_BUILD_INCLUDE_DIR;
}

std::string medusaCcVersion() { return MEDUSA_CC_VERSION; }

}  // namespace medusa::cc
