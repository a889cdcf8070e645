// Reading graphs from the standard file formats (Matrix Market, SNAP, DIMACS .gr, METIS, and our
// binary cache) into a plain edge list, and turning that edge list into a medusa::Graph.
// Every malformed input throws medusa::Error whose text starts with "file:line: "; line 0 means
// the file as a whole (for example a binary file or an unreadable path).
#pragma once

#include <medusa/error.h>
#include <medusa/graph.h>
#include <medusa/populated_vector.h>
#include <medusa/types.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace medusa::io {

// A directed edge list: edge i goes src[i] -> dst[i].
struct EdgeListData {
  VertexId vertex_count = 0;
  std::vector<VertexId> src, dst;
  std::vector<double> weight;  // empty if the input has no weights; else one per edge
  std::string format;          // the format it was read from ("matrix-market", "snap", ...)
  bool symmetric = false;      // every edge u->v has its reverse v->u (undirected input)

  EdgeIndex edge_count() const { return src.size(); }
  bool weighted() const { return !weight.empty(); }
};

enum class Format { Auto, MatrixMarket, Snap, Dimacs, Metis, Binary };

struct ReadOptions {
  Format format = Format::Auto;
  bool symmetrize = false;         // add the reverse of every edge (no-op for symmetric inputs)
  bool remove_self_loops = false;  // drop edges u->u
  bool remove_duplicates = false;  // keep one of each (src, dst); sorts the edges by (src, dst)
  // Read/write "<file>.medusa-bin" beside the input, or in cache_dir when that is set. The cache
  // holds the file as parsed (before the options above) and is reused only while the input's size
  // and modification time match; a cache that cannot be written is skipped, not an error.
  bool use_cache = false;
  std::string cache_dir;
};

// Reads a graph; .xz and .gz files (detected by their magic bytes) are decompressed on the fly.
EdgeListData read_graph(const std::string& path, const ReadOptions& options = {});

// Parses a graph held in memory (possibly compressed); `name` stands for the file in messages.
// options.format must not be Auto unless the content can be sniffed (Matrix Market header,
// DIMACS "c"/"p sp" lines, SNAP "#" comments, binary magic).
EdgeListData read_graph_from_memory(const void* data, std::size_t size, const std::string& name,
                                    const ReadOptions& options = {});

// The format a path names by its extension (.mtx, .txt/.el/.snap, .gr, .graph, .medusa-bin, after
// stripping .xz/.gz), or Format::Auto when the extension says nothing.
Format format_from_extension(const std::string& path);
// Stable lower-case name of a format ("matrix-market", "snap", "dimacs", "metis", "binary").
const char* format_name(Format format);

// Applies the symmetrize / self-loop / duplicate options of ReadOptions to an edge list in place.
void apply_edge_options(EdgeListData& data, const ReadOptions& options);

// The binary cache format (versioned header, counts, flags, checksum, then the arrays).
void write_binary(const std::string& path, const EdgeListData& data);

// Writes by the output's extension: .medusa-bin (binary), .mtx (Matrix Market; "symmetric" for symmetric data),
// .txt/.el/.snap (SNAP edge list, 0-based, weights as a third column), .gr (DIMACS; unit weights
// when the data has none; weights must be non-negative integers), .graph (METIS; data must be
// symmetric). Throws medusa::Error if the file cannot be written or the data does not fit.
void write_graph(const std::string& path, const EdgeListData& data);

// A Graph with the edge list's topology; vertex and edge data are value-initialised.
template <class Vertex, class Edge>
Graph<Vertex, Edge> to_graph(const EdgeListData& data) {
  Graph<Vertex, Edge> graph(data.vertex_count);
  graph.SetEdges(copy_populated(data.src), copy_populated(data.dst));
  return graph;
}

// As above, and calls store_weight(edge, weight) for each edge in input order, so a program puts
// the weight into whichever field it likes. Unweighted inputs pass 1.0 (unit weights).
template <class Vertex, class Edge, class StoreWeight>
Graph<Vertex, Edge> to_graph(const EdgeListData& data, StoreWeight&& store_weight) {
  Graph<Vertex, Edge> graph = to_graph<Vertex, Edge>(data);
  const bool weighted = data.weighted();
  for (EdgeIndex e = 0; e < graph.edge_count(); ++e) {
    store_weight(graph.edge(e), weighted ? data.weight[e] : 1.0);
  }
  return graph;
}

}  // namespace medusa::io
