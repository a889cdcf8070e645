// PageRank in the style of the Medusa paper's Figure 2: plain sequential C++, no CUDA.
// medusa-cc translates it; see docs/programming-guide.md.
#include <medusa/medusa.h>

#include "../common/sample_cli.h"
#include "pagerank_cpu.h"

#include <cmath>
#include <cstdio>
#include <string>

using namespace medusa;

// ---- Data structure definitions
struct Vertex : VertexBase<float> {
  float rank;
};
struct Edge : EdgeBase<Vertex> {};

// ---- Device code APIs
/* ELIST API */
struct SendRank {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    int edge_count = v.edge_count();
    float msg = v.rank / edge_count;
    // el.size(): with gpuCount > 1 the list holds this partition's share of the out-edges.
    for (int i = 0; i < el.size(); i++) el[i].sendMsg(msg);
  }
};

/* VERTEX API */
struct UpdateRank {
  void operator()(Vertex& v) const {
    float msg_sum = v.combined_msg();
    v.rank = 0.15f + msg_sum * 0.85f;
  }
};

// ---- Iteration definition
void PageRank() {
  InitMessageBuffer(0.0f);
  EMV<ELIST>::Run(SendRank{});
  Combiner();
  EMV<VERTEX>::Run(UpdateRank{});
}

// ---- Configurations and API execution
int main(int argc, char** argv) try {
  samples::Options opt = samples::parse_options(argc, argv, "PageRank (ELIST + Combiner + VERTEX)");
  const samples::EdgeList edges = samples::load_edges(opt, /*weighted=*/false, samples::EdgeUse::GraphOnly);
  std::printf("%s\n", edges.description.c_str());

  Graph<Vertex, Edge> my_graph = samples::make_graph<Vertex, Edge>(edges);
  for (Vertex& v : my_graph.vertices()) v.rank = 1.0f;

  Config conf;
  conf.combinerOpType = MEDUSA_SUM;
  samples::configure(conf, opt);  // --gpus, partitions, --verbose
  conf.maxIteration = opt.iterations ? opt.iterations : 30;
  auto device = Init_Device_DS(my_graph, conf);
  RunStats stats = device.Run(PageRank);
  device.Dump_Result(my_graph);
  samples::print_summary("pagerank", stats, my_graph.edge_count());

  auto rank = [&](VertexId v) { return static_cast<double>(my_graph.vertex(v).rank); };
  if (!opt.output.empty() && !samples::write_results(opt.output, my_graph.vertex_count(), rank)) return 1;
  if (!opt.validate) return 0;

  // Single-precision sums in another order than the reference: relative tolerance 1e-4.
  const std::vector<double> expected =
      pagerank_cpu(edges.vertex_count, edges.src, edges.dst, conf.maxIteration);
  return samples::validate_vertices(
      "PageRank vs CPU reference, relative tolerance 1e-4", my_graph.vertex_count(), rank,
      [&](VertexId v) { return expected[v]; },
      [](double got, double want) { return std::fabs(got - want) <= 1e-4 * std::fmax(1.0, std::fabs(want)); });
} catch (const std::exception& e) {  // a bad graph file, too little device memory, ...
  return print_error(e);
}
