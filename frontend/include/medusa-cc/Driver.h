// What one medusa-cc invocation does after the command line is parsed: run the analysis on every
// source through ClangTool, then write the model (--emit-model) or the generated files.
#pragma once

#include <clang/Tooling/CompilationDatabase.h>

#include <string>
#include <vector>

namespace medusa::cc {

enum class Backend { Cuda, Host, Both };

struct DriverOptions {
  std::string output;  // -o: a file, or a directory
  Backend backend = Backend::Cuda;
  bool emit_model = false;
  bool verify = false;
  bool line_directives = true;
  bool edge_parallel = true;  // emit edge-parallel ELIST elements where EdgeLoopAnalysis allows
  std::string line_directive_root;
  bool time = false;
  std::string argv0;  // to find the installed headers next to the executable
};

// Exit statuses (docs/medusa-cc.md).
enum ExitStatus { kExitOk = 0, kExitRejected = 1, kExitUsage = 2, kExitOutput = 3 };

class Driver {
 public:
  explicit Driver(DriverOptions options) : options_(std::move(options)) {}
  int run(const clang::tooling::CompilationDatabase& compilations,
          const std::vector<std::string>& sources);

  // Without `--` or -p, and no compilation database near the source, parse with no extra flags
  // instead of letting CommonOptionsParser complain about the missing database.
  static std::vector<const char*> withImplicitDoubleDash(int argc, const char** argv);

 private:
  std::string displayPath(const std::string& absolute) const;
  std::string outputPath(const std::string& source, const char* extension) const;

  DriverOptions options_;
  bool output_is_dir_ = false;
};

}  // namespace medusa::cc
