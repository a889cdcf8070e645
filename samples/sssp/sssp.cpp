// Single-source shortest paths in the style of the Medusa overview paper's Figure 1:
// an EDGE functor reads its head vertex and sends tentative distances, a min-Combiner picks the
// best, a VERTEX functor keeps improvements and votes to continue. Plain C++, no CUDA.
#include <medusa/medusa.h>

#include "../common/sample_cli.h"
#include "sssp_cpu.h"

#include <climits>
#include <cstdio>
#include <string>

using namespace medusa;

// ---- Data structure definitions
struct Vertex : VertexBase<unsigned int> {
  unsigned int distance;
  bool updated;
};
struct Edge : EdgeBase<Vertex> {
  unsigned int length;
};

// ---- Device code APIs
/* EDGE API */
struct SendDistance {
  void operator()(Edge& e) const {
    const Vertex& head = e.head();
    if (head.updated) {
      unsigned int msg = head.distance + e.length;
      e.sendMsg(msg);
    }
  }
};

/* VERTEX API */
struct UpdateDistance {
  void operator()(Vertex& v) const {
    unsigned int min_msg = v.combined_msg();
    if (min_msg < v.distance) {
      v.distance = min_msg;
      v.updated = true;
      Continue();
    } else {
      v.updated = false;
    }
  }
};

// ---- Iteration definition
void SSSP() {
  /* Initiate message buffer to UINT_MAX */
  InitMessageBuffer(UINT_MAX);
  /* Invoke the EDGE API */
  EMV<EDGE>::Run(SendDistance{});
  /* Invoke the message combiner */
  Combiner();
  /* Invoke the VERTEX API */
  EMV<VERTEX>::Run(UpdateDistance{});
}

// ---- Configurations and API execution
int main(int argc, char** argv) try {
  samples::Options opt = samples::parse_options(argc, argv, "SSSP, edge-oriented (EDGE + min-Combiner + VERTEX)");
  const samples::EdgeList edges = samples::load_edges(opt, /*weighted=*/true, samples::EdgeUse::GraphOnly);
  std::printf("%s, source %u\n", edges.description.c_str(), opt.source);
  if (!samples::source_in_graph(opt, edges)) return 2;

  Graph<Vertex, Edge> my_graph =
      io::to_graph<Vertex, Edge>(edges, &Edge::length, edges.source);
  for (Vertex& v : my_graph.vertices()) {
    v.distance = UINT_MAX;
    v.updated = false;
  }
  my_graph.vertex(opt.source).distance = 0;
  my_graph.vertex(opt.source).updated = true;

  Config conf;
  conf.combinerOpType = MEDUSA_MIN;
  samples::configure(conf, opt);  // --gpus, partitions, --verbose
  if (opt.iterations) conf.maxIteration = opt.iterations;
  auto device = Init_Device_DS(my_graph, conf);
  RunStats stats = device.Run(SSSP);
  device.Dump_Result(my_graph);
  samples::print_summary("sssp", stats, my_graph.edge_count());

  auto distance = [&](VertexId v) { return std::uint64_t{my_graph.vertex(v).distance}; };
  if (!opt.output.empty() && !samples::write_results(opt.output, my_graph.vertex_count(), distance)) return 1;
  if (!opt.validate) return 0;

  const std::vector<std::uint64_t> expected =
      sssp_cpu(edges.vertex_count, edges.src, edges.dst, samples::integer_weights(edges), opt.source);
  return samples::validate_vertices("SSSP distances vs Dijkstra, exact", my_graph.vertex_count(), distance,
                                    [&](VertexId v) { return expected[v] == kUnreachable ? std::uint64_t{UINT_MAX} : expected[v]; });
} catch (const std::exception& e) {  // a bad graph file, too little device memory, ...
  return print_error(e);
}
