// Host side shared by the hand-written CUDA baselines (bfs_baseline.cu, pagerank_baseline.cu):
// command line, graph input through medusa_io (the samples' loaders and generators, nothing of the
// Medusa runtime), CSR construction, and the samples' summary-line format.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace baseline {

struct Options {
  std::string program;
  std::string graph_file;  // empty: generated R-MAT, as the samples do
  unsigned scale = 14;
  std::uint64_t seed = 1;
  std::uint32_t source = 0;
  std::uint32_t iterations = 0;  // 0: the program's default
  int runs = 1;                  // timed runs, each from the initial state
  bool symmetrize = false;
  bool validate = false;
  bool direction_optimizing = false;  // BFS only
  int persistent_blocks = -1;         // BFS only: >= 0 loops levels in one cooperative kernel (0: all co-resident blocks)
};
Options parse_options(int argc, char** argv, const char* description);

// Compressed rows: the neighbours of v are index[offset[v] .. offset[v+1]), in input order.
struct Csr {
  std::uint32_t vertex_count = 0;
  std::vector<std::uint64_t> offset;
  std::vector<std::uint32_t> index;
  std::uint64_t edge_count() const { return index.size(); }
};

struct Graph {
  std::string description;
  Csr out;  // out-edges: row = source vertex
  Csr in;   // in-edges: row = destination vertex (filled only when asked for)
};
Graph load_graph(const Options& opt, bool need_in_edges);

// "<name>: N supersteps, X ms, Y GTEPS (E edges visited, graph has M), stop: why", as the samples.
void print_summary(const std::string& name, std::uint32_t supersteps, double ms, std::uint64_t edges_visited,
                   std::uint64_t graph_edges, const std::string& stop);
// "device memory: 1.23 GiB (what)", the line the samples print with --verbose.
void print_device_memory(std::uint64_t bytes, const std::string& what);

}  // namespace baseline
