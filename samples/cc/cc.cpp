// Connected components by label propagation: every vertex starts with its own id as label and
// adopts the smallest label it hears of; only vertices whose label changed send again.
// Components are of the undirected graph: run it on a symmetric graph (--symmetrize for
// directed inputs).
#include <medusa/medusa.h>

#include "../common/sample_cli.h"
#include "cc_cpu.h"

#include <cstdio>
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

int main(int argc, char** argv) {
  samples::Options opt = samples::parse_options(argc, argv, "Connected components (label propagation, SetActive)");
  const samples::EdgeList edges = samples::load_edges(opt);
  std::printf("%s\n", edges.description.c_str());

  Graph<Vertex, Edge> my_graph = samples::make_graph<Vertex, Edge>(edges);
  for (VertexId v = 0; v < my_graph.vertex_count(); ++v) {
    my_graph.vertex(v).label = v;
    my_graph.SetActive(v);
  }

  Config conf;
  conf.combinerOpType = MEDUSA_MIN;
  conf.gpuCount = opt.gpus;
  if (opt.iterations) conf.maxIteration = opt.iterations;
  conf.verbose = opt.verbose;
  auto device = Init_Device_DS(my_graph, conf);
  RunStats stats = device.Run(ConnectedComponents);
  device.Dump_Result(my_graph);
  samples::print_summary("cc", stats, my_graph.edge_count());

  if (!opt.output.empty()) {
    std::FILE* out = std::fopen(opt.output.c_str(), "w");
    if (!out) {
      std::fprintf(stderr, "cc: cannot write %s\n", opt.output.c_str());
      return 1;
    }
    for (VertexId v = 0; v < my_graph.vertex_count(); ++v) std::fprintf(out, "%u %u\n", v, my_graph.vertex(v).label);
    std::fclose(out);
  }
  if (!opt.validate) return 0;

  const std::vector<std::uint32_t> expected = components_cpu(edges.vertex_count, edges.src, edges.dst);
  std::size_t mismatches = 0;
  std::vector<std::string> first;
  for (VertexId v = 0; v < my_graph.vertex_count(); ++v) {
    if (my_graph.vertex(v).label != expected[v] && ++mismatches <= 5)
      first.push_back("vertex " + std::to_string(v) + ": got component " + std::to_string(my_graph.vertex(v).label) +
                      ", expected " + std::to_string(expected[v]));
  }
  return samples::report_validation("component = smallest vertex id, vs union-find, exact", mismatches, first);
}
