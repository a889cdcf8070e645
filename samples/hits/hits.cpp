// HITS (Kleinberg's hubs and authorities), L2-normalised, 20 iterations by default. A vertex's
// authority is the sum of the hub scores of the vertices pointing to it; its hub score is the sum
// of the authorities it points to. Each superstep is one iteration: hubs flow along the edges,
// authorities flow back against them (an InEdgeList functor), and the two L2 norms are global
// aggregates. The norms of a superstep are known in the next one, so each score is divided by
// its norm one step later (or by main, after the run): scaling a score vector does not change the
// next one once that is normalised.
#include <medusa/medusa.h>

#include "../common/sample_cli.h"
#include "hits_cpu.h"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

using namespace medusa;

struct Vertex : VertexBase<float> {
  float hub;        // not yet normalised: divide by sqrt(hub_squares.value())
  float authority;  // not yet normalised: divide by sqrt(authority_squares.value())
};
struct Edge : EdgeBase<Vertex> {};

// Sums of the squared scores of the superstep; hubs start at 1, their norm taken as 1.
Aggregate<double, MEDUSA_SUM> hub_squares{1.0};
Aggregate<double, MEDUSA_SUM> authority_squares;

float inverse_norm(double squares) { return squares > 0 ? static_cast<float>(1.0 / std::sqrt(squares)) : 0.0f; }

/* ELIST API: hubs along the out-edges */
struct SendHub {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    for (int i = 0; i < el.size(); i++) el[i].sendMsg(v.hub);
  }
};

/* VERTEX API */
struct UpdateAuthority {
  void operator()(Vertex& v) const {
    v.authority = v.combined_msg() * inverse_norm(hub_squares.value());
    authority_squares.add(static_cast<double>(v.authority) * v.authority);
  }
};

/* ELIST API over in-edges: authorities back to the vertices pointing here */
struct SendAuthority {
  void operator()(Vertex& v, InEdgeList<Edge>& in) const {
    for (int i = 0; i < in.size(); i++) in[i].sendMsg(v.authority);
  }
};

/* VERTEX API */
struct UpdateHub {
  void operator()(Vertex& v) const {
    v.hub = v.combined_msg();
    hub_squares.add(static_cast<double>(v.hub) * v.hub);
  }
};

void Hits() {
  InitMessageBuffer(0.0f);
  EMV<ELIST>::Run(SendHub{});
  Combiner();
  EMV<VERTEX>::Run(UpdateAuthority{});
  InitMessageBuffer(0.0f);
  EMV<ELIST>::Run(SendAuthority{});
  Combiner();
  EMV<VERTEX>::Run(UpdateHub{});
}

int main(int argc, char** argv) try {
  samples::Options opt = samples::parse_options(argc, argv, "HITS (global aggregates, messages against the edges)");
  const samples::EdgeList edges = samples::load_edges(opt, /*weighted=*/false, samples::EdgeUse::GraphOnly);
  std::printf("%s\n", edges.description.c_str());

  Graph<Vertex, Edge> my_graph = samples::make_graph<Vertex, Edge>(edges);
  for (Vertex& v : my_graph.vertices()) v.hub = 1.0f, v.authority = 0.0f;

  Config conf;
  conf.combinerOpType = MEDUSA_SUM;
  samples::configure(conf, opt);  // --gpus, partitions, --verbose
  conf.maxIteration = opt.iterations ? opt.iterations : 20;
  auto device = Init_Device_DS(my_graph, conf);
  RunStats stats = device.Run(Hits);
  device.Dump_Result(my_graph);
  samples::print_summary("hits", stats, my_graph.edge_count());

  // The last superstep's norms, folded after it.
  const float hub_scale = inverse_norm(hub_squares.value());
  const float authority_scale = inverse_norm(authority_squares.value());
  auto hub = [&](VertexId v) { return static_cast<double>(my_graph.vertex(v).hub * hub_scale); };
  auto authority = [&](VertexId v) { return static_cast<double>(my_graph.vertex(v).authority * authority_scale); };
  if (!opt.output.empty() && !samples::write_results(opt.output, my_graph.vertex_count(), hub)) return 1;
  if (!opt.validate) return 0;

  // Single-precision sums in another order than the double-precision reference.
  const HitsScores expected = hits_cpu(edges.vertex_count, edges.src, edges.dst, conf.maxIteration);
  const auto close = [](double got, double want) { return std::fabs(got - want) <= 1e-3 * std::fabs(want) + 1e-6; };
  const int hubs_ok = samples::validate_vertices("hub scores vs CPU reference, relative tolerance 1e-3",
                                                 my_graph.vertex_count(), hub,
                                                 [&](VertexId v) { return expected.hub[v]; }, close);
  const int authorities_ok = samples::validate_vertices(
      "authority scores vs CPU reference, relative tolerance 1e-3", my_graph.vertex_count(), authority,
      [&](VertexId v) { return expected.authority[v]; }, close);
  return hubs_ok != 0 ? hubs_ok : authorities_ok;
} catch (const std::exception& e) {  // a bad graph file, too little device memory, ...
  return print_error(e);
}
