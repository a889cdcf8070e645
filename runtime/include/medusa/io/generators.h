// Synthetic graphs for benchmarks and tests. Each generator is deterministic for a seed: the
// output depends only on its parameters, never on the thread count or the standard library, since
// it draws from its own PRNG (xoshiro256**, seeded per block of edges through splitmix64).
#pragma once

#include <medusa/io/graph_file.h>

#include <cstdint>

namespace medusa::io {

struct WeightRange {
  std::int64_t lo = 1, hi = 1;  // inclusive; integer weights, stored as double
};

struct GeneratorOptions {
  std::uint64_t seed = 1;
  bool symmetrize = false;         // add the reverse of every generated edge (undirected graph)
  bool remove_self_loops = false;  // drop u -> u
  bool remove_duplicates = false;  // keep one edge per (src, dst); output sorted by (src, dst)
  bool weighted = false;           // draw a weight in [weights.lo, weights.hi] for each edge
  WeightRange weights;             // an edge and its reverse get the same weight
};

// Graph500 Kronecker: 2^scale vertices, edge_factor * 2^scale edges, initiator A/B/C (D = 1 - A -
// B - C), each edge placed by `scale` quadrant choices, then vertex labels randomly permuted (as the
// Graph500 reference generator does, so that vertex 0 is not special).
struct KroneckerParameters {
  int scale = 20;
  std::uint64_t edge_factor = 16;
  double a = 0.57, b = 0.19, c = 0.19;
};
EdgeListData generate_kronecker(const KroneckerParameters& parameters, const GeneratorOptions& options = {});

// GTgraph R-MAT: 2^scale vertices, `edges` edges, probabilities a/b/c/d, which GTgraph perturbs by
// a factor in [0.95, 1.05] (then renormalises) at every level of the recursion; no permutation.
struct RmatParameters {
  int scale = 20;
  std::uint64_t edges = 16ull << 20;
  double a = 0.45, b = 0.15, c = 0.15, d = 0.25;
};
EdgeListData generate_rmat(const RmatParameters& parameters, const GeneratorOptions& options = {});

// Erdos-Renyi G(n, m): m edges with both endpoints uniform. With remove_self_loops /
// remove_duplicates it redraws until exactly m distinct edges (pairs, if symmetrized) remain.
EdgeListData generate_uniform(VertexId vertices, std::uint64_t edges, const GeneratorOptions& options = {});

// Random bipartite graph: vertices 0..left-1 on the left, left..left+right-1 on the right, `edges`
// edges from a uniform left vertex to a uniform right vertex (left -> right unless symmetrized).
EdgeListData generate_bipartite(VertexId left, VertexId right, std::uint64_t edges,
                                const GeneratorOptions& options = {});

// rows x cols 2-D grid, vertex r * cols + c, each joined to its 4 neighbours in both directions
// (always symmetric: the high-diameter road-like case). The seed only matters for weights.
EdgeListData generate_grid(VertexId rows, VertexId cols, const GeneratorOptions& options = {});

}  // namespace medusa::io
