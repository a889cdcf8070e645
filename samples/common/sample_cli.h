// Command-line conventions shared by every sample:
//   <sample> [graph-file] [--source V] [--iterations N] [--backend cuda|host] [--gpus G]
//            [--partitions-per-gpu P]
//            [--weights LO:HI] [--seed S] [--symmetrize] [--validate] [--output FILE] [--verbose]
//            [--distributed] [--partition-files PREFIX] [--delta D]
// With no graph file the sample generates a small R-MAT graph, so it always runs.
#pragma once

#include <medusa/config.h>
#include <medusa/graph.h>
#include <medusa/io/load_graph.h>
#include <medusa/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace medusa::samples {

struct Options {
  std::string program;
  std::string graph_file;         // empty: generate
  unsigned generated_scale = 14;  // R-MAT scale used when no file is given
  VertexId grid_rows = 0, grid_cols = 0;  // --grid RxC: a 2-D grid instead (0: none)
  VertexId source = 0;
  std::uint32_t sources = 0;     // --sources N: N random non-isolated sources instead of --source
  std::uint32_t iterations = 0;   // 0: the sample's default
  std::string backend;            // empty: the one this binary was built for
  int gpus = 1;                   // --gpus G
  int partitions_per_gpu = 1;     // --partitions-per-gpu P
  std::string partition_file;
  std::uint32_t replication_hops = 0;
  std::uint32_t weight_lo = 1, weight_hi = 255;  // random weights of inputs without weights
  std::uint64_t seed = 1;
  bool symmetrize = false;
  std::string variant;            // sample-specific choice (e.g. infoprop: ic-c, ic-e, lt-c)
  double probability = 0.1;       // sample-specific probability (e.g. infoprop: cascade)
  std::uint32_t hops = 2;         // drill-down: size of the neighbourhood
  std::uint64_t delta = 0;        // --delta D: priority bucket width (Config::priorityDelta; 0: auto)
  bool validate = false;
  Layout layout = Layout::Auto;   // --layout
  VertexOrder vertex_order = VertexOrder::Auto;  // --vertex-order
  bool verbose = false;
  bool distributed = false;       // --distributed: one MPI rank per partition (mpirun)
  std::string partition_files;    // --partition-files PREFIX: rank r reads PREFIX.<r>-of-<N> alone
  std::string output;

  // G GPUs with P partitions each: Config::gpuCount (the paper's name counts partitions).
  int partitions() const { return gpus * partitions_per_gpu; }
};

// The backend the including translation unit is compiled for ("cuda" or "host").
inline std::string compiled_backend() {
#if defined(MEDUSA_BACKEND_CUDA)
  return "cuda";
#else
  return "host";
#endif
}

// Parses argv; prints usage and exits the *program* (this is sample code, not the library) on
// --help or bad arguments.
Options parse_options_for(int argc, char** argv, const std::string& description, const std::string& backend);
inline Options parse_options(int argc, char** argv, const std::string& description) {
  return parse_options_for(argc, argv, description, compiled_backend());
}

// A loaded or generated edge list. In a distributed run, rank 0 alone reads it: the other ranks
// get its vertex count and no edges (their graphs then hold the vertices alone, and Init_Device_DS
// sends each rank its partitions from rank 0's graph). With `weighted`, every edge has a weight: the file's own, else
// a random integer weight from --weights and --seed (asked for explicitly: io::RandomWeights);
// without, no weights.
struct EdgeList : io::EdgeListData {
  // The whole graph's edge count on every rank (rank 0's, which alone holds the edges), for choices
  // every rank must make alike; with --partition-files, this rank's edges.
  EdgeIndex whole_graph_edges = 0;
  std::string source;       // the graph file, or "generated R-MAT scale N", for messages
  std::string description;  // "karate.mtx: 34 vertices, 156 edges"
};
// What a sample's main does with the edges. GraphOnly: it builds its Graph from them and sets
// vertex fields by ID alone, so it can run from per-rank partition files (--partition-files), where
// each rank's list holds every vertex but only its partition's local edges (Config::partitionFiles).
// Everything (the default): it also reads them (degrees, sources, a CPU reference), and
// --partition-files is refused.
enum class EdgeUse { Everything, GraphOnly };
EdgeList load_edges(const Options& opt, bool weighted = false, EdgeUse use = EdgeUse::Everything);

// The weights as unsigned integers, for CPU references; a weight that is not one is an error
// (io::weight_as).
std::vector<std::uint32_t> integer_weights(const EdgeList& edges);

// False, after saying so on stderr, when --source names no vertex of the loaded graph; a note on
// stderr when it names one without out-edges.
bool source_in_graph(const Options& opt, const EdgeList& edges);
// The sources of a search sample: --source alone, or with --sources N, N distinct vertices with
// out-edges drawn with --seed (as Graph500 picks its BFS roots; by rank 0 in a distributed run).
std::vector<VertexId> search_sources(const Options& opt, const EdgeList& edges);
std::vector<VertexId> draw_sources(const Options& opt, const EdgeList& edges);
// After a --sources run: the mean and median of the runs' times, one line.
void print_sources_summary(const std::string& name, const std::vector<double>& seconds);

// Index of an edge u -> v (u != v) without its reverse v -> u, or -1 when the graph is symmetric
// (for the samples whose answer is of the undirected graph).
std::int64_t edge_without_reverse(const EdgeList& edges);

// A Graph with the loaded edges' topology (io::to_graph with a field pointer stores the weights).
template <class V, class E>
Graph<V, E> make_graph(const EdgeList& in) {
  return io::to_graph<V, E>(in);
}

// Copies the run options (--gpus, --partitions-per-gpu, --partition-file, --replication-hops,
// --verbose, --distributed, --partition-files) into the configuration.
void configure(Config& conf, const Options& opt);

// "supersteps 30, 1.234 ms, 0.52 GTEPS (edges visited / time)" on stdout, and for partitioned runs
// the replica exchange.
void print_summary(const std::string& name, const RunStats& stats, EdgeIndex edges);

// Several Run() calls reported as one: supersteps, time and edges visited add up; the last run's
// stop reason.
RunStats sum_runs(const std::vector<RunStats>& runs);

// Whether this process validates and writes the output: rank 0 of a distributed run, which alone
// is sure to have the results and the input's edges (every process of another run).
bool reports_here();

// Prints "validation: PASSED" or the first mismatches and returns the exit code (0 / 1); 0 without
// a word on the ranks that do not validate.
int report_validation(const std::string& what, std::size_t mismatches,
                      const std::vector<std::string>& first_mismatches);

// Compares got(v) with expected(v) for every vertex with `same(a, b)`, then reports as above.
template <class Got, class Expected, class Same>
int validate_vertices(const std::string& what, VertexId vertex_count, Got got, Expected expected, Same same) {
  if (!reports_here()) return 0;
  std::size_t mismatches = 0;
  std::vector<std::string> first;
  for (VertexId v = 0; v < vertex_count; ++v) {
    if (!same(got(v), expected(v)) && ++mismatches <= 5)
      first.push_back("vertex " + std::to_string(v) + ": got " + std::to_string(got(v)) + ", expected " +
                      std::to_string(expected(v)));
  }
  return report_validation(what, mismatches, first);
}
template <class Got, class Expected>
int validate_vertices(const std::string& what, VertexId vertex_count, Got got, Expected expected) {
  return validate_vertices(what, vertex_count, got, expected, [](auto a, auto b) { return a == b; });
}

// Writes "<vertex> <value>" lines (--output). Returns false, with a message, if it cannot.
bool write_results(const std::string& path, VertexId vertex_count, const std::vector<double>& values);
template <class ValueOf>
bool write_results(const std::string& path, VertexId vertex_count, ValueOf value_of) {
  std::vector<double> values(vertex_count);
  for (VertexId v = 0; v < vertex_count; ++v) values[v] = static_cast<double>(value_of(v));
  return write_results(path, vertex_count, values);
}

}  // namespace medusa::samples
