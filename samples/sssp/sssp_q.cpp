// Single-source shortest paths, queue form (the paper's SSSP-Q): only vertices whose distance
// improved relax their out-edges (SetActive + Domain::Active), and only vertices that received a
// tentative distance are updated (Domain::Received). The improved vertices are activated with their
// new distance as priority, so the nearest bucket of them relaxes first (delta-stepping; --delta D
// sets the bucket width, default auto).
#include <medusa/medusa.h>

#include "../common/sample_cli.h"
#include "sssp_cpu.h"

#include <climits>
#include <cstdio>
#include <string>
#include <vector>

using namespace medusa;

struct Vertex : VertexBase<unsigned int> {
  unsigned int distance;
};
struct Edge : EdgeBase<Vertex> {
  unsigned int length;
};

/* ELIST API, improved vertices only */
struct Relax {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    for (unsigned int i = 0; i < el.size(); i++) el[i].sendMsg(v.distance + el[i].length);
  }
};

/* VERTEX API, vertices that received a tentative distance only */
struct Improve {
  void operator()(Vertex& v) const {
    unsigned int best = v.combined_msg();
    if (best < v.distance) {
      v.distance = best;
      v.SetActive(best);  // priority: the tentative distance
      Continue();
    }
  }
};

void SSSP_Q() {
  InitMessageBuffer(UINT_MAX);
  EMV<ELIST>::Run(Relax{}, Active);
  Combiner();
  EMV<VERTEX>::Run(Improve{}, Received);
}

int main(int argc, char** argv) try {
  samples::Options opt = samples::parse_options(argc, argv, "SSSP-Q: frontier SSSP (SetActive, ELIST + min-Combiner + VERTEX)");
  const samples::EdgeList edges = samples::load_edges(opt, /*weighted=*/true, samples::EdgeUse::GraphOnly);
  if (!samples::source_in_graph(opt, edges)) return 2;
  const std::vector<VertexId> sources = samples::search_sources(opt, edges);
  std::printf("%s, source %u%s\n", edges.description.c_str(), sources[0],
              sources.size() > 1 ? (" and " + std::to_string(sources.size() - 1) + " more").c_str() : "");

  Graph<Vertex, Edge> my_graph =
      io::to_graph<Vertex, Edge>(edges, &Edge::length, edges.source);

  Config conf;
  conf.combinerOpType = MEDUSA_MIN;
  samples::configure(conf, opt);  // --gpus, partitions, --verbose
  if (opt.iterations) conf.maxIteration = opt.iterations;
  auto distance = [&](VertexId v) { return std::uint64_t{my_graph.vertex(v).distance}; };
  std::vector<double> seconds;
  int failed = 0;
  for (std::size_t k = 0; k < sources.size(); ++k) {
    // A search from sources[k]: its own device data (Run times the search alone).
    for (Vertex& v : my_graph.vertices()) v.distance = UINT_MAX;
    my_graph.vertex(sources[k]).distance = 0;
    my_graph.ClearActive();
    my_graph.SetActive(sources[k]);
    auto device = Init_Device_DS(my_graph, conf);
    const RunStats stats = device.Run(SSSP_Q);
    seconds.push_back(stats.seconds);
    device.Dump_Result(my_graph);
    if (sources.size() > 1) std::printf("sssp_q: source %u\n", sources[k]);
    samples::print_summary("sssp_q", stats, my_graph.edge_count());
    if (!opt.validate) continue;
    const std::vector<std::uint64_t> expected =
        sssp_cpu(edges.vertex_count, edges.src, edges.dst, samples::integer_weights(edges), sources[k]);
    failed |= samples::validate_vertices(
        "SSSP distances vs Dijkstra, exact", my_graph.vertex_count(), distance,
        [&](VertexId v) { return expected[v] == kUnreachable ? std::uint64_t{UINT_MAX} : expected[v]; });
  }
  if (sources.size() > 1) samples::print_sources_summary("sssp_q", seconds);
  if (!opt.output.empty() && !samples::write_results(opt.output, my_graph.vertex_count(), distance)) return 1;
  return failed;
} catch (const std::exception& e) {  // a bad graph file, too little device memory, ...
  return print_error(e);
}
