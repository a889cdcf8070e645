// medusa-part: partition a graph file (or a generated Kronecker graph) into k parts and write a
// gpmetis-format partition file that runs can load (Config::partitionFile), or with --rank-files
// one file per rank of a k-rank MPI job, so that no rank reads the whole graph
// (Config::partitionFiles, partition/rank_files.h).
#include <medusa/error.h>
#include <medusa/io/generators.h>
#include <medusa/io/graph_file.h>
#include <medusa/io/weights.h>
#include <medusa/partition/assignment.h>
#include <medusa/partition/rank_files.h>
#include <medusa/topology.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace {

void print_help(std::ostream& out) {
  out << "usage: medusa-part <graph file> -k N [options]\n"
         "       medusa-part --scale S -k N [options]\n"
         "Splits the vertices into N parts and writes one partition number per line (gpmetis format).\n"
         "  -k N               number of parts (>= 1)\n"
         "  -o FILE            output file (default <graph>.part.N, or kron-S.part.N with --scale;\n"
         "                     with --rank-files only when given)\n"
         "  --rank-files P     also write P.<r>-of-N for r = 0..N-1: what rank r of an N-rank job needs\n"
         "                     to run its partition (its local graph, edges and replica routes);\n"
         "                     run with mpirun -np N <program> --partition-files P --distributed\n"
         "  --in-edges         with --rank-files, for programs with InEdgeList functors: each rank's\n"
         "                     file also holds its owned vertices' whole out-rows\n"
         "  --weights LO:HI    with --rank-files, for inputs without weights: random integer weights,\n"
         "                     seeded by --seed (the samples' --weights and --seed give the same)\n"
         "  --method M         auto (METIS when built in), metis, contiguous (default auto)\n"
         "  --seed S           METIS seed, the generator's with --scale, the weights' with --weights (default 1)\n"
         "  --symmetrize       add the reverse of every edge before partitioning\n"
         "  --scale S          partition a generated Kronecker graph (2^S vertices, edge factor 16)\n"
         "  --help             this text\n"
         "METIS: " << (medusa::metis_available() ? "built in" : "not built in (install libmetis-dev and reconfigure)")
      << "\n";
}

[[noreturn]] void usage_error(const std::string& message) {
  std::cerr << "medusa-part: " << message << "\n(run medusa-part --help for usage)\n";
  std::exit(2);
}

std::uint64_t parse_unsigned(const std::string& option, const std::string& text, std::uint64_t max) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 19)
    usage_error(option + " needs a non-negative integer, got '" + text + "'");
  const std::uint64_t value = std::stoull(text);
  if (value > max) usage_error(option + " " + text + " is too large (at most " + std::to_string(max) + ")");
  return value;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace medusa;
  std::string graph_file, output, method_name = "auto", rank_prefix, weights;
  std::uint64_t parts = 0, seed = 1, scale = 0;
  bool have_k = false, have_scale = false, symmetrize = false, in_edges = false;
  const std::vector<std::string> args(argv + 1, argv + argc);
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) usage_error(a + " needs a value");
      return args[++i];
    };
    if (a == "--help" || a == "-h") {
      print_help(std::cout);
      return 0;
    } else if (a == "-k") {
      parts = parse_unsigned(a, value(), 0xFFFFFFFFull);
      have_k = true;
    } else if (a == "-o") {
      output = value();
    } else if (a == "--method") {
      method_name = value();
    } else if (a == "--seed") {
      seed = parse_unsigned(a, value(), ~std::uint64_t{0} >> 1);
    } else if (a == "--scale") {
      scale = parse_unsigned(a, value(), 31);
      have_scale = true;
    } else if (a == "--rank-files") {
      rank_prefix = value();
    } else if (a == "--weights") {
      weights = value();
    } else if (a == "--symmetrize") {
      symmetrize = true;
    } else if (a == "--in-edges") {
      in_edges = true;
    } else if (!a.empty() && a[0] == '-') {
      usage_error("unknown option '" + a + "'");
    } else if (graph_file.empty()) {
      graph_file = a;
    } else {
      usage_error("more than one graph file ('" + graph_file + "' and '" + a + "')");
    }
  }
  if (!have_k) usage_error("-k N (the number of parts) is required");
  if (parts < 1) usage_error("-k must be at least 1");
  if (graph_file.empty() == !have_scale) usage_error("give either a graph file or --scale S (exactly one)");
  PartitionMethod method;
  if (method_name == "auto") method = PartitionMethod::Auto;
  else if (method_name == "metis") method = PartitionMethod::Metis;
  else if (method_name == "contiguous") method = PartitionMethod::Contiguous;
  else usage_error("--method must be auto, metis or contiguous, got '" + method_name + "'");
  if (method == PartitionMethod::Metis && !metis_available())
    usage_error("--method metis: this medusa-part was built without METIS (install libmetis-dev and "
                "reconfigure), or use --method contiguous");
  const std::string name = have_scale ? "kron-" + std::to_string(scale) : graph_file;
  if (output.empty() && rank_prefix.empty()) output = name + ".part." + std::to_string(parts);
  if (!rank_prefix.empty() && parts < 2) usage_error("--rank-files: a job needs at least 2 ranks (-k 2 or more)");
  if (in_edges && rank_prefix.empty()) usage_error("--in-edges is for --rank-files");
  if (!weights.empty() && rank_prefix.empty()) usage_error("--weights is for --rank-files (the only output with weights)");
  std::optional<io::RandomWeights> random_weights;
  if (!weights.empty()) {
    const std::size_t colon = weights.find(':');
    if (colon == std::string::npos) usage_error("--weights expects LO:HI, got '" + weights + "'");
    io::RandomWeights w;
    w.seed = seed;
    w.lo = static_cast<std::uint32_t>(parse_unsigned("--weights", weights.substr(0, colon), 0xFFFFFFFFull));
    w.hi = static_cast<std::uint32_t>(parse_unsigned("--weights", weights.substr(colon + 1), 0xFFFFFFFFull));
    if (w.lo > w.hi) usage_error("--weights: LO is larger than HI");
    random_weights = w;
  }

  try {
    using clock = std::chrono::steady_clock;
    auto t0 = clock::now();
    io::EdgeListData data;
    if (have_scale) {
      io::GeneratorOptions g;
      g.seed = seed;
      g.symmetrize = symmetrize;
      io::KroneckerParameters k;
      k.scale = static_cast<int>(scale);
      k.edge_factor = 16;
      data = io::generate_kronecker(k, g);
    } else {
      io::ReadOptions r;
      r.symmetrize = symmetrize;
      data = io::read_graph(graph_file, r);
    }
    if (random_weights) {
      io::WeightOptions w;
      w.random = random_weights;
      io::require_weights(data, name, w);
    }
    Topology topology = Topology::build(data.vertex_count, data.src, data.dst);
    if (rank_prefix.empty()) data = io::EdgeListData{};
    auto t1 = clock::now();
    PartitionAssignment a = partition_vertices(topology, static_cast<std::uint32_t>(parts), method, seed);
    auto t2 = clock::now();
    if (!output.empty()) save_partition(output, a);
    RankFilesWritten rank_files;
    if (!rank_prefix.empty()) rank_files = write_rank_files(rank_prefix, data, topology, a, in_edges);
    PartitionQuality q = measure_partition(topology, a);
    const double load_s = std::chrono::duration<double>(t1 - t0).count();
    const double part_s = std::chrono::duration<double>(t2 - t1).count();

    std::printf("graph:      %s (%u vertices, %llu edges)\n", name.c_str(), topology.vertex_count,
                static_cast<unsigned long long>(topology.edge_count));
    std::printf("method:     %s (asked: %s)\n", a.method.c_str(), method_name.c_str());
    std::printf("time:       %.3f s partitioning (%.3f s loading)\n", part_s, load_s);
    std::printf("cut edges:  %llu of %llu (%.2f%%)\n", static_cast<unsigned long long>(q.cut_edges),
                static_cast<unsigned long long>(topology.edge_count),
                topology.edge_count ? 100.0 * static_cast<double>(q.cut_edges) / static_cast<double>(topology.edge_count)
                                    : 0.0);
    std::printf("imbalance:  vertices %.3f, edges %.3f (max / average)\n", q.vertex_imbalance, q.edge_imbalance);
    std::printf("part  vertices  in-edges\n");
    for (std::uint32_t p = 0; p < a.parts; ++p)
      std::printf("%4u  %8llu  %8llu\n", p, static_cast<unsigned long long>(q.vertices[p]),
                  static_cast<unsigned long long>(q.edges[p]));
    if (!output.empty()) std::printf("wrote:      %s\n", output.c_str());
    for (std::size_t r = 0; r < rank_files.paths.size(); ++r)
      std::printf("wrote:      %s (%.3f MB, rank %zu of %zu%s)\n", rank_files.paths[r].c_str(),
                  static_cast<double>(rank_files.bytes[r]) / 1e6, r, rank_files.paths.size(),
                  data.weighted() ? ", weighted edges" : "");
  } catch (const std::exception& e) {
    std::cerr << "medusa-part: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
