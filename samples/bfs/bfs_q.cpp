// Breadth-first search, queue form (the paper's BFS-Q): only the frontier expands. Vertices reached
// in a superstep SetActive() themselves, so the next superstep's ELIST runs on them alone, and the
// VERTEX step runs only on vertices that received a message.
#include <medusa/medusa.h>

#include "../common/sample_cli.h"
#include "bfs_cpu.h"

#include <climits>
#include <cstdio>
#include <string>
#include <vector>

using namespace medusa;

struct Vertex : VertexBase<unsigned int> {
  unsigned int level;
};
struct Edge : EdgeBase<Vertex> {};

/* ELIST API, active vertices only */
struct Expand {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    unsigned int next = v.level + 1;
    for (unsigned int i = 0; i < el.size(); i++) el[i].sendMsg(next);
  }
};

/* VERTEX API, vertices that received a message only */
struct Visit {
  void operator()(Vertex& v) const {
    unsigned int level = v.combined_msg();
    if (level < v.level) {
      v.level = level;
      v.SetActive();
      Continue();
    }
  }
};

void BFS() {
  InitMessageBuffer(UINT_MAX);
  EMV<ELIST>::Run(Expand{}, Active);
  Combiner();
  EMV<VERTEX>::Run(Visit{}, Received);
}

int main(int argc, char** argv) try {
  samples::Options opt = samples::parse_options(argc, argv, "BFS-Q: frontier BFS (SetActive, ELIST + min-Combiner + VERTEX)");
  const samples::EdgeList edges = samples::load_edges(opt, /*weighted=*/false, samples::EdgeUse::GraphOnly);
  if (!samples::source_in_graph(opt, edges)) return 2;
  const std::vector<VertexId> sources = samples::search_sources(opt, edges);
  std::printf("%s, source %u%s\n", edges.description.c_str(), sources[0],
              sources.size() > 1 ? (" and " + std::to_string(sources.size() - 1) + " more").c_str() : "");

  Graph<Vertex, Edge> my_graph = samples::make_graph<Vertex, Edge>(edges);

  Config conf;
  conf.combinerOpType = MEDUSA_MIN;
  samples::configure(conf, opt);  // --gpus, partitions, --verbose
  if (opt.iterations) conf.maxIteration = opt.iterations;
  auto level = [&](VertexId v) { return my_graph.vertex(v).level; };
  std::vector<double> seconds;
  int failed = 0;
  for (std::size_t k = 0; k < sources.size(); ++k) {
    // A search from sources[k]: its own device data (Run times the search alone).
    for (Vertex& v : my_graph.vertices()) v.level = UINT_MAX;
    my_graph.vertex(sources[k]).level = 0;
    my_graph.ClearActive();
    my_graph.SetActive(sources[k]);
    auto device = Init_Device_DS(my_graph, conf);
    const RunStats stats = device.Run(BFS);
    seconds.push_back(stats.seconds);
    device.Dump_Result(my_graph);
    if (sources.size() > 1) std::printf("bfs_q: source %u\n", sources[k]);
    samples::print_summary("bfs_q", stats, my_graph.edge_count());
    if (!opt.validate) continue;
    const std::vector<std::uint32_t> expected = bfs_cpu(edges.vertex_count, edges.src, edges.dst, sources[k]);
    failed |= samples::validate_vertices("BFS levels vs queue BFS, exact", my_graph.vertex_count(), level,
                                         [&](VertexId v) { return expected[v]; });
  }
  if (sources.size() > 1) samples::print_sources_summary("bfs_q", seconds);
  if (!opt.output.empty() && !samples::write_results(opt.output, my_graph.vertex_count(), level)) return 1;
  return failed;
} catch (const std::exception& e) {  // a bad graph file, too little device memory, ...
  return print_error(e);
}
