#include "baseline_common.h"

#include <medusa/io/generators.h>
#include <medusa/io/graph_file.h>

#include <cstdio>
#include <cstdlib>
#include <exception>

namespace baseline {
namespace {

[[noreturn]] void usage(const Options& o, const char* description, const std::string& error) {
  std::FILE* out = error.empty() ? stdout : stderr;
  if (!error.empty()) std::fprintf(out, "%s: %s\n\n", o.program.c_str(), error.c_str());
  std::fprintf(out,
               "%s\n\nusage: %s [graph-file] [options]\n"
               "  graph-file        any format medusa_io reads (.mtx .txt .gr .graph .medusa-bin, .xz/.gz);\n"
               "                    default: a generated R-MAT graph, as the samples\n"
               "  --scale N         R-MAT scale of the generated graph (default 14)\n"
               "  --seed S          seed of the generated graph (default 1)\n"
               "  --source V        BFS source vertex (default 0)\n"
               "  --iterations N    PageRank iterations (default 30)\n"
               "  --runs N          timed runs, each from the initial state (default 1)\n"
               "  --symmetrize      add the reverse of every edge\n"
               "  --direction-optimizing  BFS: add bottom-up steps (Beamer et al.)\n"
               "  --persistent N    BFS: every level in one cooperative kernel of N blocks with a grid\n"
               "                    barrier between levels (0: as many as fit at once)\n"
               "  --validate        compare with the CPU reference; exit 1 on mismatch\n",
               description, o.program.c_str());
  std::exit(error.empty() ? 0 : 2);
}

std::uint64_t number(const Options& o, const char* description, const std::string& flag, const char* text) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0') usage(o, description, flag + " expects a number, got '" + text + "'");
  return v;
}

// Stable counting sort of the edges by `row`: CSR whose columns are `col`.
Csr build_csr(std::uint32_t n, const std::vector<std::uint32_t>& row, const std::vector<std::uint32_t>& col) {
  Csr c;
  c.vertex_count = n;
  c.offset.assign(std::size_t{n} + 1, 0);
  for (std::uint32_t r : row) ++c.offset[r + 1];
  for (std::uint32_t v = 0; v < n; ++v) c.offset[v + 1] += c.offset[v];
  c.index.resize(row.size());
  std::vector<std::uint64_t> next(c.offset.begin(), c.offset.end() - 1);
  for (std::size_t e = 0; e < row.size(); ++e) c.index[next[row[e]]++] = col[e];
  return c;
}

}  // namespace

Options parse_options(int argc, char** argv, const char* description) {
  Options o;
  o.program = argc > 0 ? argv[0] : "baseline";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) usage(o, description, a + " needs a value");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") usage(o, description, "");
    else if (a == "--scale") o.scale = static_cast<unsigned>(number(o, description, a, value()));
    else if (a == "--seed") o.seed = number(o, description, a, value());
    else if (a == "--source") o.source = static_cast<std::uint32_t>(number(o, description, a, value()));
    else if (a == "--iterations") o.iterations = static_cast<std::uint32_t>(number(o, description, a, value()));
    else if (a == "--runs") o.runs = static_cast<int>(number(o, description, a, value()));
    else if (a == "--symmetrize") o.symmetrize = true;
    else if (a == "--validate") o.validate = true;
    else if (a == "--direction-optimizing") o.direction_optimizing = true;
    else if (a == "--persistent") o.persistent_blocks = static_cast<int>(number(o, description, a, value()));
    else if (!a.empty() && a[0] == '-') usage(o, description, "unknown option " + a);
    else if (o.graph_file.empty()) o.graph_file = a;
    else usage(o, description, "more than one graph file given");
  }
  if (o.runs < 1) usage(o, description, "--runs must be at least 1");
  if (o.persistent_blocks >= 0 && o.direction_optimizing)
    usage(o, description, "--persistent runs top-down levels only: drop --direction-optimizing");
  return o;
}

Graph load_graph(const Options& opt, bool need_in_edges) {
  medusa::io::EdgeListData data;
  try {
    if (opt.graph_file.empty()) {
      medusa::io::GeneratorOptions g;
      g.seed = opt.seed;
      g.symmetrize = opt.symmetrize;
      medusa::io::RmatParameters rmat;
      rmat.scale = static_cast<int>(opt.scale);
      rmat.edges = std::uint64_t{16} << opt.scale;
      data = medusa::io::generate_rmat(rmat, g);
    } else {
      medusa::io::ReadOptions r;
      r.symmetrize = opt.symmetrize;
      data = medusa::io::read_graph(opt.graph_file, r);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", opt.program.c_str(), e.what());
    std::exit(1);
  }
  Graph g;
  g.description = (opt.graph_file.empty() ? "generated R-MAT scale " + std::to_string(opt.scale) : opt.graph_file) +
                  ": " + std::to_string(data.vertex_count) + " vertices, " + std::to_string(data.src.size()) +
                  " edges";
  g.out = build_csr(data.vertex_count, data.src, data.dst);
  if (need_in_edges) g.in = build_csr(data.vertex_count, data.dst, data.src);
  return g;
}

void print_summary(const std::string& name, std::uint32_t supersteps, double ms, std::uint64_t edges_visited,
                   std::uint64_t graph_edges, const std::string& stop) {
  const double gteps = ms > 0 ? static_cast<double>(edges_visited) / (ms * 1e-3) / 1e9 : 0.0;
  std::printf("%s: %u supersteps, %.3f ms, %.3f GTEPS (%llu edges visited, graph has %llu), stop: %s\n",
              name.c_str(), supersteps, ms, gteps, static_cast<unsigned long long>(edges_visited),
              static_cast<unsigned long long>(graph_edges), stop.c_str());
  std::fflush(stdout);
}

void print_device_memory(std::uint64_t bytes, const std::string& what) {
  std::printf("device memory: %.2f MiB (%s)\n", static_cast<double>(bytes) / (1024.0 * 1024.0), what.c_str());
}

}  // namespace baseline
