// k-core decomposition: the core number of every vertex (the largest k such that the vertex is in
// a subgraph where every vertex has degree >= k), by peeling in one Run().
// Superstep by superstep, every vertex left with degree <= k leaves the graph with core number k
// and its neighbours lose the edges to it. Global aggregates carry k from one superstep to the
// next: while a superstep removed vertices, k stays (their neighbours may fall to k); once one
// removed none, k becomes the smallest degree left. The run halts when no vertex is left.
// Cores are of the undirected graph: run it on a symmetric graph (--symmetrize for directed inputs).
#include <medusa/medusa.h>

#include "../common/sample_cli.h"
#include "kcore_cpu.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

using namespace medusa;

struct Vertex : VertexBase<int> {
  int degree;  // edges to vertices still in the graph
  int core;    // -1 while in the graph
};
struct Edge : EdgeBase<Vertex> {};

// What each superstep leaves for the next one (value() is the previous superstep's fold).
Aggregate<int, MEDUSA_SUM> removed;        // vertices that left in the superstep
Aggregate<int, MEDUSA_MIN> min_degree{0};  // the smallest degree left (0 before the first superstep)
Aggregate<int, MEDUSA_MAX> level;          // the superstep's k
Aggregate<int, MEDUSA_SUM> remaining;      // vertices still in the graph

/* ELIST API, vertices that left in the previous superstep */
struct SendRemoval {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    for (int i = 0; i < el.size(); i++) el[i].sendMsg(1);
  }
};

/* VERTEX API */
struct Peel {
  void operator()(Vertex& v) const {
    if (v.core >= 0) return;
    v.degree -= v.combined_msg();
    const int k = removed.value() > 0 ? level.value() : min_degree.value();
    level.add(k);
    if (v.degree <= k) {
      v.core = k;
      removed.add(1);
      v.SetActive();
    } else {
      min_degree.add(v.degree);
      remaining.add(1);
    }
  }
};

void KCore() {
  if (Superstep() > 0 && remaining.value() == 0) Halt();  // (this superstep finds nothing to do)
  InitMessageBuffer(0);
  EMV<ELIST>::Run(SendRemoval{}, Active);
  Combiner();
  EMV<VERTEX>::Run(Peel{});
}

int main(int argc, char** argv) try {
  samples::Options opt = samples::parse_options(argc, argv, "k-core decomposition (peeling, global aggregates)");
  const samples::EdgeList edges = samples::load_edges(opt);
  std::printf("%s\n", edges.description.c_str());

  Graph<Vertex, Edge> my_graph = samples::make_graph<Vertex, Edge>(edges);
  std::vector<int> degree(edges.vertex_count, 0);
  for (VertexId u : edges.src) ++degree[u];
  for (VertexId v = 0; v < my_graph.vertex_count(); ++v) {
    my_graph.vertex(v).degree = degree[v];
    my_graph.vertex(v).core = -1;
  }

  Config conf;
  conf.combinerOpType = MEDUSA_SUM;
  samples::configure(conf, opt);  // --gpus, partitions, --verbose
  conf.maxIteration = opt.iterations ? opt.iterations : 0xffffffffu;
  auto device = Init_Device_DS(my_graph, conf);
  RunStats stats = device.Run(KCore);
  device.Dump_Result(my_graph);
  samples::print_summary("kcore", stats, my_graph.edge_count());
  auto core = [&](VertexId v) { return my_graph.vertex(v).core; };
  int largest = 0;
  for (VertexId v = 0; v < my_graph.vertex_count(); ++v) largest = std::max(largest, core(v));
  std::printf("largest core number: %d\n", largest);

  if (!opt.output.empty() && !samples::write_results(opt.output, my_graph.vertex_count(), core)) return 1;
  if (!opt.validate) return 0;

  if (const std::int64_t e = samples::edge_without_reverse(edges); e >= 0) {
    std::printf("validation: FAILED (core numbers): the graph is not symmetric (edge %u -> %u has no reverse), "
                "and cores are of the undirected graph: rerun with --symmetrize\n",
                edges.src[e], edges.dst[e]);
    return 1;
  }
  const std::vector<int> expected = core_numbers_cpu(edges.vertex_count, edges.src, edges.dst);
  return samples::validate_vertices("core numbers vs bucket peeling (Batagelj-Zaversnik), exact",
                                    my_graph.vertex_count(), core, [&](VertexId v) { return expected[v]; });
} catch (const std::exception& e) {  // a bad graph file, too little device memory, ...
  return print_error(e);
}
