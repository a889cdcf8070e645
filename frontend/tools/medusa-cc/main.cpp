// medusa-cc: translates a plain C++ Medusa (EMV) program into CUDA and/or host (OpenMP) code.
//   medusa-cc [options] <source> [-- <compiler args>]
// The command line follows the Clang tools' conventions (CommonOptionsParser); the work is done
// by medusa::cc::Driver. Exit status: 0 translated, 1 rejected, 2 usage error, 3 output error.
#include "medusa-cc/Driver.h"
#include "medusa-cc/ToolPaths.h"

#include <clang/Basic/Version.h>
#include <clang/Tooling/CommonOptionsParser.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/raw_ostream.h>

using namespace medusa::cc;
namespace cl = llvm::cl;

namespace {

cl::OptionCategory category("medusa-cc options");
cl::opt<std::string> output_option(
    "o", cl::desc("Output file, or directory for <name>.medusa.cu/.cpp (default: current directory)"),
    cl::value_desc("file|dir"), cl::cat(category));
cl::opt<Backend> backend_option(
    "backend", cl::desc("Which file to write (default: cuda)"),
    cl::values(clEnumValN(Backend::Cuda, "cuda", "<name>.medusa.cu, for nvcc"),
               clEnumValN(Backend::Host, "host", "<name>.medusa.cpp, defines MEDUSA_BACKEND_HOST"),
               clEnumValN(Backend::Both, "both", "both files")),
    cl::init(Backend::Cuda), cl::cat(category));
cl::opt<bool> emit_model_option(
    "emit-model", cl::desc("Print the program model as JSON on stdout; write no code"),
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
cl::opt<bool> no_edge_parallel_option(
    "no-edge-parallel",
    cl::desc("Run every ELIST functor one thread per vertex, even when its edge loop is proven "
             "independent"),
    cl::cat(category));
cl::opt<bool> time_option("time", cl::desc("Print how long translation took"), cl::cat(category));

cl::extrahelp common_help(clang::tooling::CommonOptionsParser::HelpMessage);
cl::extrahelp exit_help(
    "\nExit status: 0 translated (or --verify passed); 1 the program was rejected (diagnostics "
    "above,\nno file written); 2 usage error; 3 an output file could not be written.\n"
    "Environment: MEDUSA_CLANG_RESOURCE_DIR, MEDUSA_INCLUDE_DIR override the built-in paths.\n");

const char* const kOverview =
    "medusa-cc: translates a sequential C++ Medusa program (EMV functors, see "
    "docs/medusa-cc.md)\ninto <name>.medusa.cu (CUDA) and/or <name>.medusa.cpp (host/OpenMP).\n";

void printVersion(llvm::raw_ostream& out) {
  out << "medusa-cc version " << medusaCcVersion() << "\n" << clang::getClangFullVersion() << "\n";
}

}  // namespace

int main(int argc, const char** argv) {
  cl::SetVersionPrinter(printVersion);
  std::vector<const char*> args = Driver::withImplicitDoubleDash(argc, argv);
  int arg_count = static_cast<int>(args.size());
  auto parser = clang::tooling::CommonOptionsParser::create(arg_count, args.data(), category,
                                                            cl::Required, kOverview);
  if (!parser) {
    llvm::errs() << llvm::toString(parser.takeError());
    return kExitUsage;
  }
  DriverOptions options;
  options.output = output_option;
  options.backend = backend_option;
  options.emit_model = emit_model_option;
  options.verify = verify_option;
  options.line_directives = !no_line_option;
  options.edge_parallel = !no_edge_parallel_option;
  options.line_directive_root = line_root_option;
  options.time = time_option;
  options.argv0 = argv[0];
  return Driver(options).run(parser->getCompilations(), parser->getSourcePathList());
}
