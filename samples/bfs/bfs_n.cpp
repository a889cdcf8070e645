// Breadth-first search, all-edges form (the paper's BFS-N): every superstep visits every edge;
// an edge whose head was reached in the previous superstep sends the next level to its tail.
#include <medusa/medusa.h>

#include "../common/sample_cli.h"
#include "bfs_cpu.h"

#include <climits>
#include <cstdio>
#include <string>

using namespace medusa;

struct Vertex : VertexBase<unsigned int> {
  unsigned int level;
};
struct Edge : EdgeBase<Vertex> {};

/* EDGE API */
struct Expand {
  void operator()(Edge& e) const {
    if (e.head().level == Superstep()) e.sendMsg(Superstep() + 1);
  }
};

/* VERTEX API */
struct Visit {
  void operator()(Vertex& v) const {
    unsigned int level = v.combined_msg();
    if (level < v.level) {
      v.level = level;
      Continue();
    }
  }
};

void BFS() {
  InitMessageBuffer(UINT_MAX);
  EMV<EDGE>::Run(Expand{});
  Combiner();
  EMV<VERTEX>::Run(Visit{});
}

int main(int argc, char** argv) try {
  samples::Options opt = samples::parse_options(argc, argv, "BFS-N: all-edges BFS (EDGE + min-Combiner + VERTEX)");
  const samples::EdgeList edges = samples::load_edges(opt, /*weighted=*/false, samples::EdgeUse::GraphOnly);
  std::printf("%s, source %u\n", edges.description.c_str(), opt.source);
  if (!samples::source_in_graph(opt, edges)) return 2;

  Graph<Vertex, Edge> my_graph = samples::make_graph<Vertex, Edge>(edges);
  for (Vertex& v : my_graph.vertices()) v.level = UINT_MAX;
  my_graph.vertex(opt.source).level = 0;

  Config conf;
  conf.combinerOpType = MEDUSA_MIN;
  samples::configure(conf, opt);  // --gpus, partitions, --verbose
  if (opt.iterations) conf.maxIteration = opt.iterations;
  auto device = Init_Device_DS(my_graph, conf);
  RunStats stats = device.Run(BFS);
  device.Dump_Result(my_graph);
  samples::print_summary("bfs_n", stats, my_graph.edge_count());

  auto level = [&](VertexId v) { return my_graph.vertex(v).level; };
  if (!opt.output.empty() && !samples::write_results(opt.output, my_graph.vertex_count(), level)) return 1;
  if (!opt.validate) return 0;
  const std::vector<std::uint32_t> expected = bfs_cpu(edges.vertex_count, edges.src, edges.dst, opt.source);
  return samples::validate_vertices("BFS levels vs queue BFS, exact", my_graph.vertex_count(), level,
                                    [&](VertexId v) { return expected[v]; });
} catch (const std::exception& e) {  // a bad graph file, too little device memory, ...
  return print_error(e);
}
