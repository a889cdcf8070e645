// Connected components by label propagation (the variant of cc.cpp, which hooks and jumps): every
// vertex starts with its own id as label and adopts the smallest label it hears of; only vertices
// whose label changed send again. It takes one superstep per level of the graph's diameter.
// Components are of the undirected graph: run it on a symmetric graph (--symmetrize for
// directed inputs).
#include <medusa/medusa.h>

#include "../common/sample_cli.h"
#include "cc_results.h"

#include <string>

using namespace medusa;

struct Vertex : VertexBase<unsigned int> {
  unsigned int label;
};
struct Edge : EdgeBase<Vertex> {};

/* ELIST API, vertices whose label changed */
struct SendLabel {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    for (unsigned int i = 0; i < el.size(); i++) el[i].sendMsg(v.label);
  }
};

/* VERTEX API, vertices that heard of a label */
struct AdoptSmaller {
  void operator()(Vertex& v) const {
    unsigned int smallest = v.combined_msg();
    if (smallest < v.label) {
      v.label = smallest;
      v.SetActive();
      Continue();
    }
  }
};

void ConnectedComponents() {
  InitMessageBuffer(0xffffffffu);
  EMV<ELIST>::Run(SendLabel{}, Active);
  Combiner();
  EMV<VERTEX>::Run(AdoptSmaller{}, Received);
}

int main(int argc, char** argv) try {
  samples::Options opt = samples::parse_options(argc, argv, "Connected components, label propagation variant (SetActive)");
  const samples::EdgeList edges = samples::load_edges(opt);
  std::printf("%s\n", edges.description.c_str());

  Graph<Vertex, Edge> my_graph = samples::make_graph<Vertex, Edge>(edges);
  for (VertexId v = 0; v < my_graph.vertex_count(); ++v) {
    my_graph.vertex(v).label = v;
    my_graph.SetActive(v);
  }

  Config conf;
  conf.combinerOpType = MEDUSA_MIN;
  samples::configure(conf, opt);  // --gpus, partitions, --verbose
  if (opt.iterations) conf.maxIteration = opt.iterations;
  auto device = Init_Device_DS(my_graph, conf);
  RunStats stats = device.Run(ConnectedComponents);
  device.Dump_Result(my_graph);
  samples::print_summary("cc_lp", stats, my_graph.edge_count());

  auto label = [&](VertexId v) { return my_graph.vertex(v).label; };
  return samples::report_components(opt, edges, my_graph.vertex_count(), label);
} catch (const std::exception& e) {  // a bad graph file, too little device memory, ...
  return print_error(e);
}
