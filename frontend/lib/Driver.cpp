#include "medusa-cc/Driver.h"

#include "medusa-cc/ModelJson.h"
#include "medusa-cc/ProgramEmitter.h"
#include "medusa-cc/TemplateEngine.h"
#include "medusa-cc/ToolPaths.h"
#include "medusa-cc/Translator.h"

#include <clang/Tooling/ArgumentsAdjusters.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Format.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <chrono>
#include <cstring>

namespace medusa::cc {
namespace {

int writeFile(const std::string& path, const std::string& text) {
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec);
  if (ec) {
    llvm::errs() << "medusa-cc: error: cannot write '" << path << "': " << ec.message() << "\n";
    return kExitOutput;
  }
  out << text;
  return kExitOk;
}

}  // namespace

std::vector<const char*> Driver::withImplicitDoubleDash(int argc, const char** argv) {
  std::vector<const char*> args(argv, argv + argc);
  for (int i = 1; i < argc; ++i)
    if (!std::strcmp(argv[i], "--") || !std::strcmp(argv[i], "-p") ||
        !std::strncmp(argv[i], "-p=", 3) || !std::strncmp(argv[i], "--p=", 4))
      return args;
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] == '-') continue;
    std::string error;
    if (clang::tooling::CompilationDatabase::autoDetectFromSource(argv[i], error)) return args;
  }
  args.push_back("--");
  return args;
}

std::string Driver::displayPath(const std::string& absolute) const {
  if (options_.line_directive_root.empty()) return absolute;
  llvm::SmallString<256> root(options_.line_directive_root);
  llvm::sys::fs::make_absolute(root);
  llvm::sys::path::remove_dots(root, true);
  llvm::StringRef path(absolute);
  llvm::StringRef prefix(root);
  if (path.startswith(prefix) && path.size() > prefix.size() &&
      llvm::sys::path::is_separator(path[prefix.size()]))
    return path.drop_front(prefix.size() + 1).str();
  return absolute;
}

std::string Driver::outputPath(const std::string& source, const char* extension) const {
  const std::string name = (llvm::sys::path::stem(source) + ".medusa" + extension).str();
  if (options_.output.empty()) return name;
  if (!output_is_dir_) return options_.output;
  llvm::SmallString<256> path(options_.output);
  llvm::sys::path::append(path, name);
  return std::string(path);
}

int Driver::run(const clang::tooling::CompilationDatabase& compilations,
                const std::vector<std::string>& sources) {
  const auto start = std::chrono::steady_clock::now();
  const std::string& output = options_.output;
  output_is_dir_ = !output.empty() &&
                   (llvm::sys::fs::is_directory(output) || llvm::StringRef(output).endswith("/"));
  if (!output.empty() && !output_is_dir_ &&
      (sources.size() > 1 || options_.backend == Backend::Both)) {
    llvm::errs() << "medusa-cc: error: -o must name a directory when writing several files\n";
    return kExitUsage;
  }

  clang::tooling::ClangTool tool(compilations, sources);
  using clang::tooling::ArgumentInsertPosition;
  using clang::tooling::getInsertArgumentAdjuster;
  // C++17 first, so that a -std= from the user (later) wins.
  tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(
      {"-xc++", "-std=c++17", "-DMEDUSA_TRANSLATING=1",
       "-I" + medusaIncludeDir(options_.argv0.c_str())},
      ArgumentInsertPosition::BEGIN));
  tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(
      {"-resource-dir=" + clangResourceDir()}, ArgumentInsertPosition::END));
  if (options_.verify)
    tool.appendArgumentsAdjuster(
        getInsertArgumentAdjuster({"-Xclang", "-verify"}, ArgumentInsertPosition::END));

  TranslateActionFactory factory;
  const int tool_status = tool.run(&factory);
  const auto parsed = std::chrono::steady_clock::now();
  if (options_.verify) return tool_status == 0 ? kExitOk : kExitRejected;
  if (tool_status != 0 || factory.programs().size() != sources.size()) return kExitRejected;

  if (output_is_dir_ && !options_.emit_model && !llvm::sys::fs::is_directory(output)) {
    if (std::error_code ec = llvm::sys::fs::create_directories(output)) {
      llvm::errs() << "medusa-cc: error: cannot create '" << output << "': " << ec.message()
                   << "\n";
      return kExitOutput;
    }
  }

  int status = kExitOk;
  TemplateEngine templates;
  for (const AnalyzedProgram& program : factory.programs()) {
    if (options_.emit_model) {
      ProgramModel model = program.model;
      if (!options_.edge_parallel)
        for (FunctorInfo& f : model.functors) f.edge_loop.reset();
      model.source_path = displayPath(program.main_file);
      writeModelJson(model, llvm::outs());
      continue;
    }
    std::vector<std::pair<std::string, bool>> outputs;  // path, host backend
    if (options_.backend != Backend::Host)
      outputs.push_back({outputPath(program.main_file, ".cu"), false});
    if (options_.backend != Backend::Cuda)
      outputs.push_back({outputPath(program.main_file, ".cpp"), true});
    ProgramEmitter emitter(program.model, program.source_text, templates);
    for (const auto& [path, host] : outputs) {
      EmitOptions emit;
      emit.source_display = displayPath(program.main_file);
      emit.output_name = llvm::sys::path::filename(path).str();
      emit.host_backend = host;
      emit.line_directives = options_.line_directives;
      emit.edge_parallel = options_.edge_parallel;
      emit.version = medusaCcVersion();
      std::string text;
      try {
        text = emitter.emit(emit);
      } catch (const TemplateError& e) {
        llvm::errs() << "medusa-cc: internal error: " << e.what() << "\n";
        return kExitRejected;
      }
      if (int s = writeFile(path, text)) status = s;
    }
  }
  if (options_.time) {
    const auto done = std::chrono::steady_clock::now();
    auto ms = [](auto d) { return std::chrono::duration<double, std::milli>(d).count(); };
    llvm::errs() << llvm::format("medusa-cc: parse+analysis %.1f ms, emit %.1f ms, total %.1f ms\n",
                                 ms(parsed - start), ms(done - parsed), ms(done - start));
  }
  return status;
}

}  // namespace medusa::cc
