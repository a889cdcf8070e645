// Triangles per vertex, and the total, on the undirected graph (edges are symmetrized and made
// simple on load: no self loops, no repeated edges).
// Every edge u -> w sends w the number of common neighbours of u and w, an intersection of two
// sorted neighbour sets; a vertex's triangles are the sum of what it received, halved (each
// triangle at w arrives along both of its other vertices' edges).
#include <medusa/medusa.h>

#include "../common/sample_cli.h"
#include "triangles_cpu.h"

#include <cstdio>
#include <vector>

using namespace medusa;

struct Vertex : VertexBase<unsigned long long> {
  unsigned long long triangles;
};
struct Edge : EdgeBase<Vertex> {};

/* ELIST API */
struct CountCommon {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    for (int i = 0; i < el.size(); i++) el[i].sendMsg(intersect_count(v.neighbors(), el[i].tail_neighbors()));
  }
};

/* VERTEX API */
struct Tally {
  void operator()(Vertex& v) const { v.triangles = v.combined_msg() / 2; }
};

void Triangles() {
  InitMessageBuffer(0ULL);
  EMV<ELIST>::Run(CountCommon{});
  Combiner();
  EMV<VERTEX>::Run(Tally{});
}

int main(int argc, char** argv) try {
  samples::Options opt = samples::parse_options(argc, argv, "triangles per vertex (neighbour-set intersections)");
  samples::EdgeList edges = samples::load_edges(opt);
  io::ReadOptions simple;
  simple.symmetrize = true;
  simple.remove_self_loops = true;
  simple.remove_duplicates = true;
  io::apply_edge_options(edges, simple);
  std::printf("%s; undirected and simple: %zu edges\n", edges.description.c_str(), edges.src.size());

  Graph<Vertex, Edge> my_graph = samples::make_graph<Vertex, Edge>(edges);
  Config conf;
  conf.combinerOpType = MEDUSA_SUM;
  samples::configure(conf, opt);  // --gpus, partitions, --verbose
  conf.maxIteration = 1;
  auto device = Init_Device_DS(my_graph, conf);
  RunStats stats = device.Run(Triangles);
  device.Dump_Result(my_graph);
  samples::print_summary("triangles", stats, my_graph.edge_count());
  auto triangles = [&](VertexId v) { return my_graph.vertex(v).triangles; };
  unsigned long long corners = 0;
  for (VertexId v = 0; v < my_graph.vertex_count(); ++v) corners += triangles(v);
  std::printf("triangles: %llu\n", corners / 3);

  if (!opt.output.empty() && !samples::write_results(opt.output, my_graph.vertex_count(), triangles)) return 1;
  if (!opt.validate) return 0;
  const std::vector<unsigned long long> expected = triangles_per_vertex_cpu(edges.vertex_count, edges.src, edges.dst);
  return samples::validate_vertices("triangles per vertex vs ordered sorted-list intersections, exact",
                                    my_graph.vertex_count(), triangles, [&](VertexId v) { return expected[v]; });
} catch (const std::exception& e) {  // a bad graph file, too little device memory, ...
  return print_error(e);
}
