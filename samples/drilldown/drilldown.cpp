// Drill-down for graph visualization (the Medusa overview paper): the k-hop neighbourhood of a
// vertex, by BFS from it. Shows the MESSAGE and MLIST kinds: a MESSAGE functor drops messages that
// would go past k hops, and an MLIST functor scans a vertex's own messages instead of a Combiner.
#include <medusa/medusa.h>

#include "../common/sample_cli.h"
#include "drilldown_cpu.h"

#include <climits>
#include <cstdio>
#include <string>

using namespace medusa;

struct Vertex : VertexBase<unsigned int> {
  unsigned int hops;  // distance from the focus vertex; UINT_MAX outside the neighbourhood
};
struct Edge : EdgeBase<Vertex> {};

/* ELIST API: vertices reached last superstep offer one more hop to their out-neighbours */
struct Reach {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    for (unsigned int i = 0; i < el.size(); i++) el[i].sendMsg(v.hops + 1);
  }
};

/* MESSAGE API: an offer beyond the radius is no offer */
struct DropBeyondRadius {
  unsigned int radius;
  void operator()(unsigned int& hops) const {
    if (hops > radius) hops = UINT_MAX;
  }
};

/* MLIST API: a vertex takes the nearest offer among its own message slots */
struct TakeNearest {
  void operator()(Vertex& v, MessageList<unsigned int>& ml) const {
    unsigned int nearest = v.hops;
    for (unsigned int i = 0; i < ml.size(); i++)
      if (ml[i] < nearest) nearest = ml[i];
    if (nearest < v.hops) {
      v.hops = nearest;
      v.SetActive();
      Continue();
    }
  }
};

static unsigned int g_radius = 2;

void DrillDown() {
  InitMessageBuffer(UINT_MAX);
  EMV<ELIST>::Run(Reach{}, Active);
  EMV<MESSAGE>::Run(DropBeyondRadius{g_radius});
  EMV<MLIST>::Run(TakeNearest{}, Received);
}

int main(int argc, char** argv) try {
  samples::Options opt = samples::parse_options(argc, argv, "Drill-down: the --hops K neighbourhood of --source (ELIST, MESSAGE, MLIST)");
  const samples::EdgeList edges = samples::load_edges(opt);
  std::printf("%s, focus %u, radius %u\n", edges.description.c_str(), opt.source, opt.hops);
  if (!samples::source_in_graph(opt, edges)) return 2;
  g_radius = opt.hops;

  Graph<Vertex, Edge> my_graph = samples::make_graph<Vertex, Edge>(edges);
  for (Vertex& v : my_graph.vertices()) v.hops = UINT_MAX;
  my_graph.vertex(opt.source).hops = 0;
  my_graph.SetActive(opt.source);

  Config conf;
  conf.combinerOpType = MEDUSA_MIN;  // unused: TakeNearest reads the messages itself
  samples::configure(conf, opt);  // --gpus, partitions, --verbose
  if (opt.iterations) conf.maxIteration = opt.iterations;
  auto device = Init_Device_DS(my_graph, conf);
  RunStats stats = device.Run(DrillDown);
  device.Dump_Result(my_graph);
  samples::print_summary("drilldown", stats, my_graph.edge_count());

  std::size_t inside = 0;
  for (const Vertex& v : my_graph.vertices()) inside += v.hops != UINT_MAX;
  std::printf("drilldown: %zu vertices within %u hops of %u\n", inside, opt.hops, opt.source);

  auto hops = [&](VertexId v) { return my_graph.vertex(v).hops; };
  if (!opt.output.empty() && !samples::write_results(opt.output, my_graph.vertex_count(), hops)) return 1;
  if (!opt.validate) return 0;
  const std::vector<std::uint32_t> expected =
      neighbourhood_cpu(edges.vertex_count, edges.src, edges.dst, opt.source, opt.hops);
  return samples::validate_vertices("hops vs bounded queue BFS, exact", my_graph.vertex_count(), hops,
                                    [&](VertexId v) { return expected[v]; });
} catch (const std::exception& e) {  // a bad graph file, too little device memory, ...
  return print_error(e);
}
