// Connected components by hooking and pointer jumping (Shiloach-Vishkin style): every vertex holds
// a parent label, starting with its own id, and labels only decrease, so they form a forest whose
// roots are the smallest ids. Each superstep
//   - hooks: along every edge, the smaller label of its two ends is sent by id to the other end's
//     parent (sendMsgTo, min combiner), which lowers a root's label to a neighbouring tree's;
//   - jumps: every vertex follows parents (vertex_at) to the root, as the labels were when the
//     launch began, and adopts it.
// The run ends when a superstep changes no label: every component is then one star around its
// smallest id. label_propagation (cc_lp.cpp) is the one-level-per-superstep variant.
// Components are of the undirected graph: run it on a symmetric graph (--symmetrize for
// directed inputs).
#include <medusa/medusa.h>

#include "../common/sample_cli.h"
#include "cc_results.h"

#include <string>

using namespace medusa;

struct Vertex : VertexBase<unsigned int> {
  unsigned int label;  // the parent; the component's smallest id once the run ends
  unsigned int next;   // the label the jump found, adopted after every vertex has read the labels
};
struct Edge : EdgeBase<Vertex> {};

/* EDGE API: hooking */
struct Hook {
  void operator()(Edge& e) const {
    const unsigned int mine = e.head().label;
    const unsigned int theirs = vertex_at(e, e.tail_id()).label;
    if (mine < theirs) e.sendMsgTo(theirs, mine);
  }
};

/* VERTEX API: pointer jumping */
struct Jump {
  void operator()(Vertex& v) const {
    unsigned int label = v.label;
    const unsigned int hooked = v.combined_msg();
    if (hooked < label) label = hooked;
    unsigned int parent = vertex_at(v, label).label;
    while (parent < label) {  // (a label never exceeds its vertex's id: the walk ends at a root)
      label = parent;
      parent = vertex_at(v, label).label;
    }
    v.next = label;
    if (label != v.label) Continue();
  }
};

/* VERTEX API */
struct Adopt {
  void operator()(Vertex& v) const { v.label = v.next; }
};

void ConnectedComponents() {
  InitMessageBuffer(0xffffffffu);
  EMV<EDGE>::Run(Hook{});
  Combiner();
  EMV<VERTEX>::Run(Jump{});
  EMV<VERTEX>::Run(Adopt{});
}

int main(int argc, char** argv) try {
  samples::Options opt = samples::parse_options(argc, argv, "Connected components (hooking and pointer jumping, reads and sends by vertex id)");
  const samples::EdgeList edges = samples::load_edges(opt);
  std::printf("%s\n", edges.description.c_str());

  Graph<Vertex, Edge> my_graph = samples::make_graph<Vertex, Edge>(edges);
  for (VertexId v = 0; v < my_graph.vertex_count(); ++v) my_graph.vertex(v).label = v;

  Config conf;
  conf.combinerOpType = MEDUSA_MIN;
  samples::configure(conf, opt);  // --gpus, partitions, --verbose
  if (opt.iterations) conf.maxIteration = opt.iterations;
  auto device = Init_Device_DS(my_graph, conf);
  RunStats stats = device.Run(ConnectedComponents);
  device.Dump_Result(my_graph);
  samples::print_summary("cc", stats, my_graph.edge_count());

  auto label = [&](VertexId v) { return my_graph.vertex(v).label; };
  return samples::report_components(opt, edges, my_graph.vertex_count(), label);
} catch (const std::exception& e) {  // a bad graph file, too little device memory, ...
  return print_error(e);
}
