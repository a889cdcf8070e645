#include "sample_cli.h"

#include <medusa/io/generators.h>
#include <medusa/io/graph_file.h>
#include <medusa/partition/rank_files.h>
#include <medusa/transport/mpi_job.h>
#include <medusa/transport/transport.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <iostream>
#include <limits>
#include <random>
#include <stdexcept>
#include <utility>
#include <vector>

namespace medusa::samples {
namespace {

std::string g_backend = "host";

[[noreturn]] void usage(const Options& o, const std::string& description, const std::string& error) {
  std::ostream& out = error.empty() ? std::cout : std::cerr;
  if (!error.empty()) out << o.program << ": " << error << "\n\n";
  out << description << "\n\n"
      << "usage: " << o.program << " [graph-file] [options]\n"
      << "  graph-file        .mtx .txt/.el (SNAP) .gr (DIMACS) .graph (METIS) .medusa-bin,\n"
      << "                    optionally .xz/.gz; default: a generated R-MAT graph\n"
      << "  --scale N         R-MAT scale of the generated graph (default 14)\n"
      << "  --grid RxC        generate an R x C grid instead (many levels, as a road network)\n"
      << "  --source V        source vertex (default 0)\n"
      << "  --sources N       search samples: N random sources with out-edges (seeded by --seed), one\n"
      << "                    run each on one device; prints each run and their mean and median\n"
      << "  --iterations N    maximum supersteps\n"
      << "  --backend B       cuda or host (must match this binary: " << g_backend << ")\n"
      << "  --gpus G          GPUs to use (default 1)\n"
      << "  --partitions-per-gpu P  partitions on each GPU (default 1): the graph is cut into G * P\n"
      << "                    partitions; the host backend simulates them all on the CPU\n"
      << "  --partition-file F      gpmetis-format partition: read if it exists, else written\n"
      << "  --replication-hops H    hops of replicas (default 0: the cost model chooses)\n"
      << "  --weights LO:HI   random integer weights of inputs without weights (default 1:255)\n"
      << "  --seed S          seed for generated graphs and weights (default 1)\n"
      << "  --symmetrize      add the reverse of every edge\n"
      << "  --variant NAME    sample-specific variant (see the sample's description)\n"
      << "  --probability P   sample-specific probability in [0, 1] (default 0.1)\n"
      << "  --hops K          drill-down: neighbourhood radius (default 2)\n"
      << "  --delta D         width of a priority bucket (SetActive(priority): sssp_q; default auto)\n"
      << "  --validate        compare with the CPU reference; exit 1 on mismatch\n"
      << "  --output FILE     write per-vertex results\n"
      << "  --layout L        edge layout: auto, csr, column or hybrid (default auto)\n"
      << "  --vertex-order O  device vertex numbering: auto, input or degree (default auto)\n"
      << "  --verbose         print the runtime's layout and memory report\n"
      << "  --distributed     one process per partition: mpirun -np N " << o.program << " ... --distributed\n"
      << "                    (rank 0 prints and writes --output; docs/multi-gpu.md)\n"
      << "  --partition-files P  with --distributed: rank r of N reads P.<r>-of-<N> (made by\n"
      << "                    medusa-part <graph> -k N --rank-files P) in place of a graph file;\n"
      << "                    no rank reads the whole graph, rank 0 gathers the results\n";
  std::exit(error.empty() ? 0 : 2);
}

std::uint64_t parse_number(const Options& o, const std::string& description, const std::string& flag,
                           const char* text) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0') usage(o, description, flag + " expects a number, got '" + text + "'");
  return v;
}

// A count of at least 1 that fits Config's int fields (strtoull would wrap "-1" to a huge value).
int parse_count(const Options& o, const std::string& description, const std::string& flag, const char* text) {
  if (text[0] == '-') usage(o, description, flag + " must be at least 1, got '" + text + "'");
  const std::uint64_t v = parse_number(o, description, flag, text);
  if (v < 1) usage(o, description, flag + " must be at least 1, got '" + text + "'");
  if (v > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
    usage(o, description, flag + " is too large: '" + text + "' (at most " +
                              std::to_string(std::numeric_limits<int>::max()) + ")");
  return static_cast<int>(v);
}

// --distributed: joins the MPI job before anything can fail (a failure then ends every rank), and
// leaves stdout to rank 0.
void join_job(const Options& o) {
  try {
    transport::start_job();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: --distributed: %s\n", o.program.c_str(), e.what());
    std::exit(2);
  }
  if (transport::job_rank() != 0 && std::freopen("/dev/null", "w", stdout) == nullptr)
    std::fprintf(stderr, "%s: rank %u: cannot silence stdout\n", o.program.c_str(), transport::job_rank());
}

// Whether this process reads the graph: not the ranks other than 0 of a distributed run, which
// receive their partitions in Init_Device_DS (docs/multi-gpu.md, "Who loads the graph").
bool reads_graph(const Options& o) { return !o.distributed || transport::job_ranks() < 2 || transport::job_rank() == 0; }

// Rank 0's `words` on every rank of a distributed run (`words` is only read on rank 0).
std::vector<std::uint64_t> from_rank0(const Options& o, std::vector<std::uint64_t> words, const std::string& what) {
  if (!o.distributed || transport::job_ranks() < 2) return words;
  const std::unique_ptr<transport::Transport> t = transport::job_transport();
  std::vector<std::vector<std::byte>> blocks;
  if (t->rank() == 0) {
    std::vector<std::byte> block(words.size() * sizeof(std::uint64_t));
    if (!words.empty()) std::memcpy(block.data(), words.data(), block.size());
    blocks.assign(t->ranks(), block);
  }
  const std::vector<std::byte> got = t->scatter_from_root(blocks, what);
  words.resize(got.size() / sizeof(std::uint64_t));
  if (!words.empty()) std::memcpy(words.data(), got.data(), got.size());
  return words;
}

// --partition-files replaces the graph; what needs the whole graph is refused.
void check_partition_files_options(const Options& o, const std::string& description) {
  const auto refuse = [&](const std::string& what) {
    usage(o, description, "--partition-files: " + what);
  };
  if (!o.distributed) refuse("the files are read by the ranks of an MPI job: add --distributed (mpirun -np N)");
  if (!o.graph_file.empty()) refuse("the rank files replace the graph file '" + o.graph_file + "'; give one of them");
  if (o.validate)
    refuse("--validate needs the whole graph on rank 0: compare --output with a one-process run's (docs/multi-gpu.md)");
  if (o.sources != 0) refuse("--sources draws sources from the whole graph's edges; use --source V");
  if (!o.partition_file.empty()) refuse("the rank files hold the partitioning; drop --partition-file");
  if (o.symmetrize) refuse("the rank files hold the edges as medusa-part made them (medusa-part --symmetrize)");
  if (o.grid_rows != 0) refuse("the rank files replace the generated graph; drop --grid");
}

// Rank r's share of the graph from its partition file: every vertex, its partition's local edges.
EdgeList load_rank_edges(const Options& opt, bool weighted, EdgeUse use) {
  const std::uint32_t rank = transport::job_rank(), ranks = transport::job_ranks();
  const std::string name = rank_file_name(opt.partition_files, rank, ranks);
  if (use != EdgeUse::GraphOnly)
    throw std::runtime_error("--partition-files: " + opt.program.substr(opt.program.find_last_of('/') + 1) +
                             " reads the whole graph's edges besides building its graph (degrees, sources, "
                             "its CPU reference); run it from the graph file");
  RankFile file = read_rank_file(opt.partition_files, rank, ranks, RankFilePart::Edges);
  EdgeList out;
  static_cast<io::EdgeListData&>(out) = std::move(file.edges);
  out.source = name;
  if (weighted && !out.weighted())
    throw Error("rank " + std::to_string(rank) + ": the partition files have no edge weights, which this sample "
                "needs: make them from a weighted graph, or with medusa-part --weights LO:HI",
                name.c_str(), 0);
  if (!weighted) std::vector<double>().swap(out.weight);
  out.whole_graph_edges = out.src.size();
  out.description = opt.partition_files + ".<rank>-of-" + std::to_string(ranks) + ": " +
                    std::to_string(out.vertex_count) + " vertices; rank " + std::to_string(rank) + " holds " +
                    std::to_string(out.src.size()) + " local edges";
  return out;
}

}  // namespace

Options parse_options_for(int argc, char** argv, const std::string& description, const std::string& backend) {
  Options o;
  o.program = argc > 0 ? argv[0] : "sample";
  g_backend = backend;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) usage(o, description, a + " needs a value");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") usage(o, description, "");
    else if (a == "--source") o.source = static_cast<VertexId>(parse_number(o, description, a, value()));
    else if (a == "--sources") o.sources = static_cast<std::uint32_t>(parse_count(o, description, a, value()));
    else if (a == "--iterations") o.iterations = static_cast<std::uint32_t>(parse_number(o, description, a, value()));
    else if (a == "--scale") o.generated_scale = static_cast<unsigned>(parse_number(o, description, a, value()));
    else if (a == "--gpus") o.gpus = parse_count(o, description, a, value());
    else if (a == "--partitions-per-gpu") o.partitions_per_gpu = parse_count(o, description, a, value());
    else if (a == "--partition-file") o.partition_file = value();
    else if (a == "--replication-hops") o.replication_hops = static_cast<std::uint32_t>(parse_number(o, description, a, value()));
    else if (a == "--seed") o.seed = parse_number(o, description, a, value());
    else if (a == "--backend") o.backend = value();
    else if (a == "--variant") o.variant = value();
    else if (a == "--delta") {
      const char* text = value();
      o.delta = text[0] == '-' ? 0 : parse_number(o, description, a, text);
      if (o.delta == 0) usage(o, description, std::string("--delta expects a positive integer, got '") + text + "'");
    }
    else if (a == "--hops") o.hops = static_cast<std::uint32_t>(parse_number(o, description, a, value()));
    else if (a == "--probability") {
      const char* text = value();
      char* end = nullptr;
      o.probability = std::strtod(text, &end);
      if (end == text || *end != '\0' || !(o.probability >= 0.0 && o.probability <= 1.0))
        usage(o, description, std::string("--probability expects a number in [0, 1], got '") + text + "'");
    }
    else if (a == "--output") o.output = value();
    else if (a == "--weights") {
      const std::string w = value();
      const auto colon = w.find(':');
      if (colon == std::string::npos) usage(o, description, "--weights expects LO:HI, got '" + w + "'");
      o.weight_lo = static_cast<std::uint32_t>(parse_number(o, description, a, w.substr(0, colon).c_str()));
      o.weight_hi = static_cast<std::uint32_t>(parse_number(o, description, a, w.substr(colon + 1).c_str()));
      if (o.weight_lo > o.weight_hi) usage(o, description, "--weights: LO is larger than HI");
    } else if (a == "--grid") {
      const std::string g = value();
      const auto x = g.find('x');
      if (x == std::string::npos) usage(o, description, "--grid expects ROWSxCOLS, got '" + g + "'");
      o.grid_rows = static_cast<VertexId>(parse_number(o, description, a, g.substr(0, x).c_str()));
      o.grid_cols = static_cast<VertexId>(parse_number(o, description, a, g.substr(x + 1).c_str()));
      if (o.grid_rows == 0 || o.grid_cols == 0) usage(o, description, "--grid needs at least one row and column");
    } else if (a == "--symmetrize") o.symmetrize = true;
    else if (a == "--validate") o.validate = true;
    else if (a == "--verbose") o.verbose = true;
    else if (a == "--distributed") o.distributed = true;
    else if (a == "--partition-files") o.partition_files = value();
    else if (a == "--layout") {
      const std::string l = value();
      if (l == "auto") o.layout = Layout::Auto;
      else if (l == "csr") o.layout = Layout::CSR;
      else if (l == "column") o.layout = Layout::ColumnMajor;
      else if (l == "hybrid") o.layout = Layout::Hybrid;
      else usage(o, description, "--layout must be auto, csr, column or hybrid, got '" + l + "'");
    } else if (a == "--vertex-order") {
      const std::string order = value();
      if (order == "auto") o.vertex_order = VertexOrder::Auto;
      else if (order == "input") o.vertex_order = VertexOrder::Input;
      else if (order == "degree") o.vertex_order = VertexOrder::Degree;
      else usage(o, description, "--vertex-order must be auto, input or degree, got '" + order + "'");
    }
    else if (!a.empty() && a[0] == '-') usage(o, description, "unknown option " + a);
    else if (o.graph_file.empty()) o.graph_file = a;
    else usage(o, description, "more than one graph file given");
  }
  if (!o.backend.empty() && o.backend != "cuda" && o.backend != "host")
    usage(o, description, "--backend must be cuda or host");
  if (!o.backend.empty() && o.backend != backend)
    usage(o, description, "this binary runs the " + backend + " backend; use the " +
                              (o.backend == "host" ? "<sample>_host" : "<sample> (CUDA)") + " binary");
  const std::uint64_t partitions =
      static_cast<std::uint64_t>(o.gpus) * static_cast<std::uint64_t>(o.partitions_per_gpu);
  if (partitions > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
    usage(o, description, "--gpus " + std::to_string(o.gpus) + " --partitions-per-gpu " +
                              std::to_string(o.partitions_per_gpu) + " makes " + std::to_string(partitions) +
                              " partitions (G * P); at most " +
                              std::to_string(std::numeric_limits<int>::max()) + " are possible");
  if (!o.partition_files.empty()) check_partition_files_options(o, description);
  if (o.distributed) join_job(o);
  return o;
}

EdgeList load_edges(const Options& opt, bool weighted, EdgeUse use) {
  if (!opt.partition_files.empty()) return load_rank_edges(opt, weighted, use);
  EdgeList out;
  if (!reads_graph(opt)) {  // the vertices only: their fields may be set, the edges stay on rank 0
    const std::vector<std::uint64_t> size = from_rank0(opt, {}, "loading the graph (its size from rank 0)");
    out.vertex_count = static_cast<VertexId>(size.at(0));
    out.whole_graph_edges = size.at(1);
    out.source = opt.graph_file.empty() ? "generated R-MAT scale " + std::to_string(opt.generated_scale) : opt.graph_file;
    out.description = out.source + ": " + std::to_string(out.vertex_count) + " vertices, edges on rank 0";
    return out;
  }
  if (opt.graph_file.empty() && opt.grid_rows != 0) {
    static_cast<io::EdgeListData&>(out) = io::generate_grid(opt.grid_rows, opt.grid_cols);
    out.source = "generated " + std::to_string(opt.grid_rows) + " x " + std::to_string(opt.grid_cols) + " grid";
  } else if (opt.graph_file.empty()) {
    io::GeneratorOptions g;
    g.seed = opt.seed;
    g.symmetrize = opt.symmetrize;
    io::RmatParameters rmat;
    rmat.scale = static_cast<int>(opt.generated_scale);
    rmat.edges = std::uint64_t{16} << opt.generated_scale;
    static_cast<io::EdgeListData&>(out) = io::generate_rmat(rmat, g);
    out.source = "generated R-MAT scale " + std::to_string(opt.generated_scale);
  } else {
    io::ReadOptions r;
    r.symmetrize = opt.symmetrize;
    const auto start = std::chrono::steady_clock::now();
    static_cast<io::EdgeListData&>(out) = io::read_graph(opt.graph_file, r);
    out.source = opt.graph_file;
    if (opt.verbose)
      std::fprintf(stderr, "medusa: read %s in %.3f s\n", opt.graph_file.c_str(),
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  if (weighted) {
    io::WeightOptions weights;
    weights.random = io::RandomWeights{opt.seed, opt.weight_lo, opt.weight_hi};
    io::require_weights(out, out.source, weights);
  } else {
    std::vector<double>().swap(out.weight);  // unused: 8 bytes an edge of host memory back
  }
  out.description = out.source + ": " + std::to_string(out.vertex_count) + " vertices, " +
                    std::to_string(out.src.size()) + " edges";
  out.whole_graph_edges = out.src.size();
  from_rank0(opt, {out.vertex_count, out.whole_graph_edges}, "loading the graph (its size from rank 0)");
  return out;
}

std::vector<std::uint32_t> integer_weights(const EdgeList& edges) {
  std::vector<std::uint32_t> w(edges.edge_count());
  for (EdgeIndex e = 0; e < w.size(); ++e) w[e] = io::weight_as<std::uint32_t>(edges, e, edges.source);
  return w;
}

bool source_in_graph(const Options& opt, const EdgeList& edges) {
  const std::string name = opt.program.substr(opt.program.find_last_of('/') + 1);
  if (opt.source < edges.vertex_count) {
    // (Kronecker and R-MAT graphs leave many vertices isolated, vertex 0 among them at some scales:
    // a run from there ends after one superstep and times nothing.)
    const bool has_out_edges = std::find(edges.src.begin(), edges.src.end(), opt.source) != edges.src.end();
    if (opt.sources == 0 && !edges.src.empty() && !has_out_edges)
      std::fprintf(stderr, "%s: note: source %u has no out-edges, so the search ends at once; pick another with "
                   "--source V, or --sources N for N random sources with out-edges\n", name.c_str(), opt.source);
    return true;
  }
  std::fprintf(stderr, "%s: source %u is not a vertex (the graph has %u)\n", name.c_str(), opt.source,
               edges.vertex_count);
  return false;
}

std::vector<VertexId> search_sources(const Options& opt, const EdgeList& edges) {
  if (opt.sources == 0) return {opt.source};
  if (!reads_graph(opt)) {  // rank 0 draws them (it has the edges)
    const std::vector<std::uint64_t> drawn = from_rank0(opt, {}, "the sources from rank 0");
    return std::vector<VertexId>(drawn.begin(), drawn.end());
  }
  const std::vector<VertexId> picked = draw_sources(opt, edges);
  from_rank0(opt, std::vector<std::uint64_t>(picked.begin(), picked.end()), "the sources from rank 0");
  return picked;
}

std::vector<VertexId> draw_sources(const Options& opt, const EdgeList& edges) {
  std::vector<bool> has_out(edges.vertex_count, false);
  for (VertexId u : edges.src) has_out[u] = true;
  const auto candidates = static_cast<std::uint64_t>(std::count(has_out.begin(), has_out.end(), true));
  if (candidates < opt.sources) {
    std::fprintf(stderr, "--sources %u: the graph has only %llu vertices with out-edges\n", opt.sources,
                 static_cast<unsigned long long>(candidates));
    std::exit(2);
  }
  std::mt19937_64 random(opt.seed);  // the engine's output is fixed by the standard; no distribution
  std::vector<VertexId> picked;
  std::vector<bool> taken(edges.vertex_count, false);
  while (picked.size() < opt.sources) {
    const auto v = static_cast<VertexId>(random() % edges.vertex_count);
    if (!has_out[v] || taken[v]) continue;
    taken[v] = true;
    picked.push_back(v);
  }
  return picked;
}

void print_sources_summary(const std::string& name, const std::vector<double>& seconds) {
  std::vector<double> sorted(seconds);
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  const double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  double sum = 0;
  for (double s : sorted) sum += s;
  std::printf("%s: %zu sources: mean %.3f ms, median %.3f ms, min %.3f ms, max %.3f ms\n", name.c_str(), n,
              sum / static_cast<double>(n) * 1e3, median * 1e3, sorted.front() * 1e3, sorted.back() * 1e3);
}

std::int64_t edge_without_reverse(const EdgeList& edges) {
  // Each non-loop edge as its (smaller, larger) endpoint pair, split by direction: the graph is
  // symmetric when both directions hold the same pairs. Two sorts and a merge: a binary search per
  // edge took minutes on Kronecker scale 22's 134M edges.
  std::vector<std::uint64_t> up, down;
  for (std::size_t i = 0; i < edges.src.size(); ++i) {
    const std::uint32_t s = edges.src[i], d = edges.dst[i];
    if (s < d) up.push_back(static_cast<std::uint64_t>(s) << 32 | d);
    if (s > d) down.push_back(static_cast<std::uint64_t>(d) << 32 | s);
  }
  for (std::vector<std::uint64_t>* pairs : {&up, &down}) {
    std::sort(pairs->begin(), pairs->end());
    pairs->erase(std::unique(pairs->begin(), pairs->end()), pairs->end());
  }
  const auto [u, d] = std::mismatch(up.begin(), up.end(), down.begin(), down.end());
  if (u == up.end() && d == down.end()) return -1;
  // The smaller of the two first differences lacks its partner in the other direction.
  const bool missing_down = d == down.end() || (u != up.end() && *u < *d);
  const std::uint64_t pair = missing_down ? *u : *d;
  std::uint32_t s = static_cast<std::uint32_t>(pair >> 32), t = static_cast<std::uint32_t>(pair);
  if (!missing_down) std::swap(s, t);  // (down holds d -> s as (d, s))
  for (std::size_t i = 0; i < edges.src.size(); ++i)
    if (edges.src[i] == s && edges.dst[i] == t) return static_cast<std::int64_t>(i);
  return -1;  // (unreachable: the pair came from an edge)
}

void configure(Config& conf, const Options& opt) {
  conf.gpuCount = opt.partitions();  // Config counts partitions (the paper's name)
  conf.partitionsPerGpu = opt.partitions_per_gpu;
  conf.partitionFile = opt.partition_file;
  conf.replicationHops = opt.replication_hops;
  conf.priorityDelta = opt.delta;
  conf.verbose = opt.verbose;
  conf.layout = opt.layout;
  conf.vertexOrder = opt.vertex_order;
  conf.distributed = opt.distributed;
  conf.partitionFiles = opt.partition_files;
}

RunStats sum_runs(const std::vector<RunStats>& runs) {
  RunStats total;
  for (const RunStats& run : runs) {
    total.supersteps += run.supersteps;
    total.seconds += run.seconds;
    total.edges_visited += run.edges_visited;
    total.stop_reason = run.stop_reason;
  }
  return total;
}

void print_summary(const std::string& name, const RunStats& stats, EdgeIndex edges) {
  const double ms = stats.seconds * 1e3;
  const double teps = stats.seconds > 0 ? static_cast<double>(stats.edges_visited) / stats.seconds : 0.0;
  std::printf("%s: %u supersteps, %.3f ms, %.3f GTEPS (%llu edges visited, graph has %llu), stop: %s\n",
              name.c_str(), stats.supersteps, ms, teps / 1e9,
              static_cast<unsigned long long>(stats.edges_visited), static_cast<unsigned long long>(edges),
              stats.stop_reason.c_str());
  if (stats.batched_supersteps > 0)
    std::printf("%s: %u supersteps issued in batches, %u of them replayed from a recording\n", name.c_str(),
                stats.batched_supersteps, stats.replayed_supersteps);
  if (stats.queued_supersteps > 0)
    std::printf("%s: %u batched supersteps queued their next frontier in SetActive()%s\n", name.c_str(),
                stats.queued_supersteps, stats.partitions > 1 ? " (on the partition that queued fewest)" : "");
  if (stats.source_passes_skipped > 0)
    std::printf("%s: %u supersteps used source messages that the VERTEX step before computed\n", name.c_str(),
                stats.source_passes_skipped);
  if (stats.partitions > 1) {
    std::printf("%s: %u partitions, %u-hop replicas (replication factor %.2f): %u refreshes, %.3f MB exchanged "
                "(%.3f MB per superstep, %.6f MB of it by sparse copies), %.3f ms copying (%.1f%% of the run)\n",
                name.c_str(), stats.partitions, stats.replication_hops, stats.replication_factor,
                stats.exchange_refreshes,
                static_cast<double>(stats.exchange_bytes) / 1e6,
                stats.supersteps ? static_cast<double>(stats.exchange_bytes) / 1e6 / stats.supersteps : 0.0,
                static_cast<double>(stats.exchange_sparse_bytes) / 1e6,
                stats.exchange_seconds * 1e3,
                stats.seconds > 0 ? 100.0 * stats.exchange_seconds / stats.seconds : 0.0);
  }
  for (std::size_t r = 0; r < stats.rank_times.size(); ++r)
    std::printf("%s: rank %zu: %.3f ms computing, %.3f ms exchanging\n", name.c_str(), r,
                stats.rank_times[r].compute_seconds * 1e3, stats.rank_times[r].exchange_seconds * 1e3);
}

bool reports_here() { return transport::job_rank() == 0; }

int report_validation(const std::string& what, std::size_t mismatches,
                      const std::vector<std::string>& first_mismatches) {
  if (!reports_here()) return 0;
  if (mismatches == 0) {
    std::printf("validation: PASSED (%s)\n", what.c_str());
    return 0;
  }
  std::printf("validation: FAILED (%s): %zu mismatches\n", what.c_str(), mismatches);
  for (const auto& m : first_mismatches) std::printf("  %s\n", m.c_str());
  return 1;
}

bool write_results(const std::string& path, VertexId vertex_count, const std::vector<double>& values) {
  if (!reports_here()) return true;  // (rank 0 has the results and writes them)
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    return false;
  }
  for (VertexId v = 0; v < vertex_count; ++v) std::fprintf(out, "%u %.17g\n", v, values[v]);
  return std::fclose(out) == 0;
}

}  // namespace medusa::samples
