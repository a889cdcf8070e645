#include "line_fields.h"

#include <medusa/io/gen_command.h>
#include <medusa/io/generators.h>
#include <medusa/io/graph_file.h>
#include <medusa/io/graph_summary.h>

#include <chrono>
#include <map>
#include <ostream>
#include <set>

namespace medusa::io {
namespace {

constexpr const char* kHelp = R"(medusa-gen: make synthetic graphs, convert graph files, print graph statistics

Usage:
  medusa-gen kron      --scale S [--edge-factor F] [options] -o FILE
  medusa-gen rmat      --scale S [--edge-factor F | --edges M] [options] -o FILE
  medusa-gen uniform   --vertices N --edges M [options] -o FILE
  medusa-gen bipartite --left L --right R --edges M [options] -o FILE
  medusa-gen grid      --rows R --cols C [options] -o FILE
  medusa-gen convert   INPUT [--format F] [--symmetric] [--no-self-loops] [--no-duplicates] -o FILE
  medusa-gen info      INPUT [--format F] [--symmetric] [--no-self-loops] [--no-duplicates]

Generators:
  kron       Graph500 Kronecker, 2^S vertices, F * 2^S edges (F = 16), A=0.57 B=0.19 C=0.19,
             vertex labels randomly permuted
  rmat       GTgraph R-MAT, 2^S vertices, M edges (default F * 2^S, F = 16), a=0.45 b=0.15
             c=0.15 d=0.25 with GTgraph's per-level noise
  uniform    Erdos-Renyi G(n, m)
  bipartite  L left and R right vertices, M edges left -> right
  grid       R x C 2-D grid, 4 neighbours, both directions (high diameter)

Options:
  -o, --output FILE   output; the extension picks the format: .medusa-bin (binary cache),
                      .mtx (Matrix Market), .txt/.el/.snap (SNAP), .gr (DIMACS), .graph (METIS)
  --seed N            random seed (default 1); same seed, same graph, any thread count
  --symmetric         add the reverse of every edge (undirected graph)
  --no-self-loops     drop edges u -> u
  --no-duplicates     keep one edge per (src, dst) (output sorted); uniform and bipartite redraw
                      to keep exactly M edges
  --simple            both of the above
  --weights LO:HI     integer edge weights drawn uniformly from [LO, HI]
  --format F          input format for convert/info when the extension does not say:
                      mtx, snap, dimacs, metis, binary
  -h, --help          this text

Examples:
  medusa-gen kron --scale 22 --edge-factor 16 --symmetric --weights 1:255 -o kron22.medusa-bin
  medusa-gen rmat --scale 20 --seed 7 -o rmat20.mtx
  medusa-gen uniform --vertices 1000000 --edges 8000000 --simple -o er.txt
  medusa-gen bipartite --left 5000 --right 8000 --edges 40000 -o match.medusa-bin
  medusa-gen grid --rows 2000 --cols 2000 -o grid.gr
  medusa-gen convert road-NY.mtx.xz -o road-NY.medusa-bin
  medusa-gen info road-NE.txt.xz --symmetric

Exit status: 0 success, 1 unreadable or malformed input or unwritable output, 2 usage error.
)";

struct UsageError {
  std::string message;
};

// Options by name; flags have an empty value.
struct Arguments {
  std::string command;
  std::vector<std::string> positional;
  std::map<std::string, std::string> values;
  std::set<std::string> flags;

  bool has(const std::string& name) const { return values.count(name) || flags.count(name); }
};

const std::set<std::string> kValueOptions = {"--scale", "--edge-factor", "--edges", "--vertices", "--left", "--right",
                                             "--rows", "--cols", "--seed", "--weights", "--output", "--format"};
const std::set<std::string> kFlagOptions = {"--symmetric", "--no-self-loops", "--no-duplicates", "--simple"};

Arguments parse_arguments(const std::vector<std::string>& args) {
  Arguments parsed;
  parsed.command = args.at(0);
  for (std::size_t i = 1; i < args.size(); ++i) {
    std::string name = args[i];
    if (name == "-o") name = "--output";
    if (name == "-h" || name == "--help") {
      parsed.flags.insert("--help");
    } else if (kValueOptions.count(name)) {
      if (i + 1 >= args.size()) throw UsageError{name + " needs a value"};
      if (parsed.values.count(name)) throw UsageError{name + " given twice"};
      parsed.values[name] = args[++i];
    } else if (kFlagOptions.count(name)) {
      parsed.flags.insert(name);
    } else if (name.size() > 1 && name[0] == '-') {
      throw UsageError{"unknown option " + name};
    } else {
      parsed.positional.push_back(name);
    }
  }
  return parsed;
}

std::uint64_t number(const Arguments& a, const std::string& name, std::uint64_t lo, std::uint64_t hi) {
  auto it = a.values.find(name);
  if (it == a.values.end()) throw UsageError{a.command + " needs " + name};
  std::uint64_t value;
  if (!detail::parse_unsigned(it->second, value) || value < lo || value > hi) {
    throw UsageError{name + " expects an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got '" +
                     it->second + "'"};
  }
  return value;
}

std::uint64_t number_or(const Arguments& a, const std::string& name, std::uint64_t fallback, std::uint64_t lo,
                        std::uint64_t hi) {
  return a.values.count(name) ? number(a, name, lo, hi) : fallback;
}

void allow_only(const Arguments& a, std::set<std::string> allowed) {
  allowed.insert("--help");
  for (const auto& [name, value] : a.values) {
    if (!allowed.count(name)) throw UsageError{name + " does not apply to '" + a.command + "'"};
  }
  for (const auto& name : a.flags) {
    if (!allowed.count(name)) throw UsageError{name + " does not apply to '" + a.command + "'"};
  }
}

GeneratorOptions generator_options(const Arguments& a) {
  GeneratorOptions options;
  options.seed = number_or(a, "--seed", 1, 0, UINT64_MAX);
  options.symmetrize = a.flags.count("--symmetric");
  options.remove_self_loops = a.flags.count("--no-self-loops") || a.flags.count("--simple");
  options.remove_duplicates = a.flags.count("--no-duplicates") || a.flags.count("--simple");
  auto weights = a.values.find("--weights");
  if (weights != a.values.end()) {
    const std::string& text = weights->second;
    std::size_t colon = text.find(':');
    std::int64_t lo, hi;
    if (colon == std::string::npos || !detail::parse_signed(std::string_view(text).substr(0, colon), lo) ||
        !detail::parse_signed(std::string_view(text).substr(colon + 1), hi) || lo > hi) {
      throw UsageError{"--weights expects LO:HI with integers LO <= HI, got '" + text + "'"};
    }
    options.weighted = true;
    options.weights = {lo, hi};
  }
  return options;
}

ReadOptions read_options(const Arguments& a) {
  ReadOptions options;
  options.symmetrize = a.flags.count("--symmetric");
  options.remove_self_loops = a.flags.count("--no-self-loops") || a.flags.count("--simple");
  options.remove_duplicates = a.flags.count("--no-duplicates") || a.flags.count("--simple");
  auto format = a.values.find("--format");
  if (format != a.values.end()) {
    static const std::map<std::string, Format> kNames = {
        {"mtx", Format::MatrixMarket}, {"matrix-market", Format::MatrixMarket}, {"snap", Format::Snap},
        {"dimacs", Format::Dimacs},    {"gr", Format::Dimacs},                  {"metis", Format::Metis},
        {"binary", Format::Binary},    {"medusa-bin", Format::Binary}};
    auto it = kNames.find(format->second);
    if (it == kNames.end()) throw UsageError{"--format expects mtx, snap, dimacs, metis or binary, got '" + format->second + "'"};
    options.format = it->second;
  }
  return options;
}

std::string output_path(const Arguments& a) {
  auto it = a.values.find("--output");
  if (it == a.values.end()) throw UsageError{a.command + " needs -o FILE"};
  if (format_from_extension(it->second) == Format::Auto) {
    throw UsageError{"cannot tell the output format of '" + it->second +
                     "' (expected .medusa-bin, .mtx, .txt, .el, .snap, .gr or .graph)"};
  }
  return it->second;
}

const std::string& single_input(const Arguments& a) {
  if (a.positional.size() != 1) throw UsageError{a.command + " needs exactly one input file"};
  return a.positional[0];
}

const std::set<std::string> kGeneratorCommon = {"--seed", "--symmetric", "--no-self-loops", "--no-duplicates",
                                                "--simple", "--weights", "--output"};

std::set<std::string> with_common(std::set<std::string> specific) {
  specific.insert(kGeneratorCommon.begin(), kGeneratorCommon.end());
  return specific;
}

// Generates per the command; UsageError for bad parameters.
EdgeListData generate(const Arguments& a) {
  if (!a.positional.empty()) throw UsageError{"unexpected argument '" + a.positional[0] + "'"};
  const GeneratorOptions options = generator_options(a);
  if (a.command == "kron") {
    allow_only(a, with_common({"--scale", "--edge-factor"}));
    KroneckerParameters p;
    p.scale = static_cast<int>(number(a, "--scale", 1, 31));
    p.edge_factor = number_or(a, "--edge-factor", 16, 1, 1 << 20);
    return generate_kronecker(p, options);
  }
  if (a.command == "rmat") {
    allow_only(a, with_common({"--scale", "--edge-factor", "--edges"}));
    if (a.values.count("--edges") && a.values.count("--edge-factor")) throw UsageError{"give --edges or --edge-factor, not both"};
    RmatParameters p;
    p.scale = static_cast<int>(number(a, "--scale", 1, 31));
    p.edges = a.values.count("--edges") ? number(a, "--edges", 0, 1ull << 40)
                                        : number_or(a, "--edge-factor", 16, 1, 1 << 20) << p.scale;
    return generate_rmat(p, options);
  }
  if (a.command == "uniform") {
    allow_only(a, with_common({"--vertices", "--edges"}));
    return generate_uniform(static_cast<VertexId>(number(a, "--vertices", 1, kInvalidVertex - 1)),
                            number(a, "--edges", 0, 1ull << 40), options);
  }
  if (a.command == "bipartite") {
    allow_only(a, with_common({"--left", "--right", "--edges"}));
    std::uint64_t left = number(a, "--left", 1, kInvalidVertex - 1), right = number(a, "--right", 1, kInvalidVertex - 1);
    if (left + right >= kInvalidVertex) throw UsageError{"--left + --right must be below 2^32 - 1"};
    return generate_bipartite(static_cast<VertexId>(left), static_cast<VertexId>(right),
                              number(a, "--edges", 0, 1ull << 40), options);
  }
  allow_only(a, with_common({"--rows", "--cols"}));
  std::uint64_t rows = number(a, "--rows", 1, kInvalidVertex - 1), cols = number(a, "--cols", 1, kInvalidVertex - 1);
  if (rows * cols >= kInvalidVertex) throw UsageError{"--rows x --cols must be below 2^32 - 1"};
  return generate_grid(static_cast<VertexId>(rows), static_cast<VertexId>(cols), options);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int run_medusa_gen(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty()) {
    err << "medusa-gen: missing command\nRun 'medusa-gen --help' for usage.\n";
    return 2;
  }
  if (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
    out << kHelp;
    return 0;
  }
  static const std::set<std::string> kCommands = {"kron", "rmat", "uniform", "bipartite", "grid", "convert", "info"};
  try {
    if (!kCommands.count(args[0])) throw UsageError{"unknown command '" + args[0] + "'"};
    Arguments a = parse_arguments(args);
    if (a.flags.count("--help")) {
      out << kHelp;
      return 0;
    }
    const auto start = std::chrono::steady_clock::now();
    if (a.command == "info") {
      allow_only(a, {"--format", "--symmetric", "--no-self-loops", "--no-duplicates", "--simple"});
      const std::string& input = single_input(a);
      ReadOptions options = read_options(a);
      EdgeListData data;
      try {
        data = read_graph(input, options);
      } catch (const Error& e) {
        err << "medusa-gen: " << e.what() << "\n";
        return 1;
      }
      out << "file: " << input << "\n" << describe(summarize(data));
      return 0;
    }
    if (a.command == "convert") {
      allow_only(a, {"--format", "--symmetric", "--no-self-loops", "--no-duplicates", "--simple", "--output"});
      const std::string& input = single_input(a);
      ReadOptions options = read_options(a);
      const std::string output = output_path(a);
      try {
        EdgeListData data = read_graph(input, options);
        write_graph(output, data);
        out << "wrote " << output << ": " << data.format << ", " << data.vertex_count << " vertices, "
            << data.edge_count() << " edges (" << seconds_since(start) << " s)\n";
      } catch (const Error& e) {
        err << "medusa-gen: " << e.what() << "\n";
        return 1;
      }
      return 0;
    }
    const std::string output = output_path(a);
    EdgeListData data;
    try {
      data = generate(a);
    } catch (const Error& e) {
      // Parameter problems the checks above did not catch; the generator's source line is noise.
      err << "medusa-gen: " << e.message() << "\n";
      return 2;
    }
    const double generated = seconds_since(start);
    try {
      write_graph(output, data);
    } catch (const Error& e) {
      err << "medusa-gen: " << e.what() << "\n";
      return 1;
    }
    out << "wrote " << output << ": " << data.format << ", " << data.vertex_count << " vertices, "
        << data.edge_count() << " edges" << (data.symmetric ? " (symmetric)" : "") << "; generated in " << generated
        << " s, total " << seconds_since(start) << " s\n";
    return 0;
  } catch (const UsageError& usage) {
    err << "medusa-gen: " << usage.message << "\nRun 'medusa-gen --help' for usage.\n";
    return 2;
  } catch (const std::bad_alloc&) {
    err << "medusa-gen: out of memory\n";
    return 1;
  }
}

}  // namespace medusa::io
