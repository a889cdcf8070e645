// Loading a graph file into a medusa::Graph with its real edge weights:
//
//   auto g = medusa::io::load_graph<Vertex, Edge>("roads.gr", &Edge::length);
//
// The weight is converted to the field's type with range checks: a negative or fractional weight
// into an unsigned field, or one too large for it, throws medusa::Error naming the file, the edge
// and the value. An unweighted file into a weight field is an error unless LoadOptions asks for a
// default weight or for random weights. Link Medusa::io.
#pragma once

#include <medusa/error.h>
#include <medusa/graph.h>
#include <medusa/io/graph_file.h>
#include <medusa/io/weights.h>

#include <string>
#include <type_traits>
#include <utility>

namespace medusa::io {

struct LoadOptions {
  ReadOptions read;       // format, symmetrize, self-loops, duplicates, cache
  WeightOptions weights;  // what an unweighted file's edges weigh (by default: an error)
};

// Topology only: any weights in the file are ignored.
template <class Vertex, class Edge>
Graph<Vertex, Edge> load_graph(const std::string& path, const LoadOptions& options = {}) {
  return to_graph<Vertex, Edge>(read_graph(path, options.read));
}

// An edge list's graph with each edge's weight in the field `weight` (&Edge::length), checked
// against the field's type (weight_as); `source` names the input in messages. data must be
// weighted (require_weights).
template <class Vertex, class Edge, class Owner, class Field,
          class = std::enable_if_t<std::is_base_of_v<Owner, Edge>>>
Graph<Vertex, Edge> to_graph(const EdgeListData& data, Field Owner::*weight, const std::string& source) {
  MEDUSA_REQUIRE(data.weight.size() == data.src.size(),
                 source + " has no edge weights to store: call io::require_weights on it first");
  Graph<Vertex, Edge> graph = to_graph<Vertex, Edge>(data);
  for (EdgeIndex e = 0; e < graph.edge_count(); ++e)
    static_cast<Owner&>(graph.edge(e)).*weight = weight_as<Field>(data, e, source);
  return graph;
}

// Stores each edge's weight into the field `weight` (&Edge::length), checked against its type.
template <class Vertex, class Edge, class Owner, class Field,
          class = std::enable_if_t<std::is_base_of_v<Owner, Edge>>>
Graph<Vertex, Edge> load_graph(const std::string& path, Field Owner::*weight, const LoadOptions& options = {}) {
  EdgeListData data = read_graph(path, options.read);
  require_weights(data, path, options.weights);
  return to_graph<Vertex, Edge>(data, weight, path);
}

// Calls store_weight(edge, weight) for every edge in input order, with the file's weight as a
// double (or the default or random weight asked for); the program converts it as it likes.
template <class Vertex, class Edge, class StoreWeight,
          class = std::enable_if_t<std::is_invocable_v<StoreWeight&, Edge&, double>>>
Graph<Vertex, Edge> load_graph(const std::string& path, StoreWeight&& store_weight, const LoadOptions& options = {}) {
  EdgeListData data = read_graph(path, options.read);
  require_weights(data, path, options.weights);
  return to_graph<Vertex, Edge>(data, std::forward<StoreWeight>(store_weight));
}

}  // namespace medusa::io
