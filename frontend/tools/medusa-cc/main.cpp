// medusa-cc: translates a plain C++ Medusa (EMV) program into CUDA and/or host (OpenMP) code.
//   medusa-cc [options] <source> [-- <compiler args>]
// Exit status: 0 translated (or --verify passed), 1 the program was rejected or did not compile,
// 2 usage error, 3 the output could not be written.
#include "medusa-cc/ModelJson.h"
#include "medusa-cc/ProgramEmitter.h"
#include "medusa-cc/TemplateEngine.h"
#include "medusa-cc/ToolPaths.h"
#include "medusa-cc/Translator.h"

#include <clang/Basic/Version.h>
#include <clang/Tooling/ArgumentsAdjusters.h>
#include <clang/Tooling/CommonOptionsParser.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <chrono>
#include <cstring>
#include <vector>

using namespace medusa::cc;
namespace cl = llvm::cl;

namespace {

enum class Backend { Cuda, Host, Both };

cl::OptionCategory category("medusa-cc options");
cl::opt<std::string> output_option("o", cl::desc("Output file, or directory for <name>.medusa.cu/.cpp"),
                                   cl::value_desc("file|dir"), cl::cat(category));
cl::opt<Backend> backend_option(
    "backend", cl::desc("Which file to write (default: cuda)"),
    cl::values(clEnumValN(Backend::Cuda, "cuda", "<name>.medusa.cu, for nvcc"),
               clEnumValN(Backend::Host, "host", "<name>.medusa.cpp, defines MEDUSA_BACKEND_HOST"),
               clEnumValN(Backend::Both, "both", "both files")),
    cl::init(Backend::Cuda), cl::cat(category));
cl::opt<bool> emit_model_option("emit-model",
                                cl::desc("Print the program model as JSON on stdout; write no code"),
                                cl::cat(category));
cl::opt<bool> verify_option(
    "verify",
    cl::desc("Check diagnostics against // expected-error {{...}} comments (clang -verify); "
             "write no code"),
    cl::cat(category));
cl::opt<std::string> line_root_option(
    "line-directive-root",
    cl::desc("Write the source path in #line directives relative to this directory "
             "(default: absolute)"),
    cl::value_desc("dir"), cl::cat(category));
cl::opt<bool> no_line_option("no-line-directives", cl::desc("Omit #line directives"),
                             cl::cat(category));
cl::opt<bool> time_option("time", cl::desc("Print how long translation took"), cl::cat(category));

const char* const kOverview =
    "medusa-cc: translates a sequential C++ Medusa program (EMV functors, see "
    "docs/medusa-cc.md)\ninto <name>.medusa.cu (CUDA) and/or <name>.medusa.cpp (host/OpenMP).\n";

void printVersion(llvm::raw_ostream& out) {
  out << "medusa-cc version " << medusaCcVersion() << "\n" << clang::getClangFullVersion() << "\n";
}

std::string displayPath(const std::string& absolute) {
  if (line_root_option.empty()) return absolute;
  llvm::SmallString<256> root(line_root_option.getValue());
  llvm::sys::fs::make_absolute(root);
  llvm::sys::path::remove_dots(root, true);
  llvm::StringRef path(absolute);
  llvm::StringRef prefix(root);
  if (path.startswith(prefix) && path.size() > prefix.size() &&
      llvm::sys::path::is_separator(path[prefix.size()]))
    return path.drop_front(prefix.size() + 1).str();
  return absolute;
}

// Without `--` or -p, and no compilation database near the source, run with no extra flags
// instead of letting CommonOptionsParser print an error about the missing database.
std::vector<const char*> withImplicitDoubleDash(int argc, const char** argv) {
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

int writeFile(const std::string& path, const std::string& text) {
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec);
  if (ec) {
    llvm::errs() << "medusa-cc: error: cannot write '" << path << "': " << ec.message() << "\n";
    return 3;
  }
  out << text;
  return 0;
}

}  // namespace

int main(int argc, const char** argv) {
  const auto start = std::chrono::steady_clock::now();
  cl::SetVersionPrinter(printVersion);
  std::vector<const char*> args = withImplicitDoubleDash(argc, argv);
  int arg_count = static_cast<int>(args.size());
  auto parser = clang::tooling::CommonOptionsParser::create(arg_count, args.data(), category,
                                                            cl::Required, kOverview);
  if (!parser) {
    llvm::errs() << llvm::toString(parser.takeError());
    return 2;
  }
  const std::vector<std::string>& sources = parser->getSourcePathList();
  const bool output_is_dir = !output_option.empty() && (llvm::sys::fs::is_directory(output_option) ||
                                                        llvm::StringRef(output_option).endswith("/"));
  if (!output_option.empty() && !output_is_dir &&
      (sources.size() > 1 || backend_option == Backend::Both)) {
    llvm::errs() << "medusa-cc: error: -o must name a directory when writing several files\n";
    return 2;
  }

  if (output_is_dir && !llvm::sys::fs::is_directory(output_option)) {
    if (std::error_code ec = llvm::sys::fs::create_directories(output_option)) {
      llvm::errs() << "medusa-cc: error: cannot create '" << output_option << "': " << ec.message()
                   << "\n";
      return 3;
    }
  }

  clang::tooling::ClangTool tool(parser->getCompilations(), sources);
  using clang::tooling::ArgumentInsertPosition;
  using clang::tooling::getInsertArgumentAdjuster;
  tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(
      {"-xc++", "-std=c++17", "-DMEDUSA_TRANSLATING=1", "-I" + medusaIncludeDir(argv[0])},
      ArgumentInsertPosition::BEGIN));
  tool.appendArgumentsAdjuster(getInsertArgumentAdjuster(
      {"-resource-dir=" + clangResourceDir(), "-Wno-unknown-attributes"},
      ArgumentInsertPosition::END));
  if (verify_option)
    tool.appendArgumentsAdjuster(
        getInsertArgumentAdjuster({"-Xclang", "-verify"}, ArgumentInsertPosition::END));

  TranslateActionFactory factory;
  const int tool_status = tool.run(&factory);
  const auto parsed = std::chrono::steady_clock::now();
  if (verify_option) return tool_status == 0 ? 0 : 1;
  if (tool_status != 0 || factory.programs().size() != sources.size()) return 1;

  int status = 0;
  TemplateEngine templates;
  for (const AnalyzedProgram& program : factory.programs()) {
    if (emit_model_option) {
      ProgramModel model = program.model;
      model.source_path = displayPath(program.main_file);
      writeModelJson(model, llvm::outs());
      continue;
    }
    const llvm::StringRef stem = llvm::sys::path::stem(program.main_file);
    std::vector<std::pair<std::string, bool>> outputs;  // path, host backend
    auto pathFor = [&](const char* extension) {
      const std::string name = (stem + ".medusa" + extension).str();
      if (output_option.empty()) return name;
      if (output_is_dir) {
        llvm::SmallString<256> path(output_option.getValue());
        llvm::sys::path::append(path, name);
        return std::string(path);
      }
      return output_option.getValue();
    };
    if (backend_option != Backend::Host) outputs.push_back({pathFor(".cu"), false});
    if (backend_option != Backend::Cuda) outputs.push_back({pathFor(".cpp"), true});
    ProgramEmitter emitter(program.model, program.source_text, templates);
    for (const auto& [path, host] : outputs) {
      EmitOptions options;
      options.source_display = displayPath(program.main_file);
      options.output_name = llvm::sys::path::filename(path).str();
      options.host_backend = host;
      options.line_directives = !no_line_option;
      options.version = medusaCcVersion();
      std::string text;
      try {
        text = emitter.emit(options);
      } catch (const TemplateError& e) {
        llvm::errs() << "medusa-cc: internal error: " << e.what() << "\n";
        return 1;
      }
      if (int s = writeFile(path, text)) status = s;
    }
  }
  if (time_option) {
    const auto done = std::chrono::steady_clock::now();
    auto ms = [](auto d) { return std::chrono::duration<double, std::milli>(d).count(); };
    llvm::errs() << llvm::format("medusa-cc: parse+analysis %.1f ms, emit %.1f ms, total %.1f ms\n",
                                 ms(parsed - start), ms(done - parsed), ms(done - start));
  }
  return status;
}
