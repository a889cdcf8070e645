// Information propagation on a social network (the Medusa overview paper's case study), seeded so
// runs are reproducible. Three variants (--variant):
//   ic-c  independent cascade, vertex-oriented C-Loop (ELIST over the newly active vertices)
//   ic-e  independent cascade, edge-oriented E-Loop (EDGE over every edge)
//   ic-t  independent cascade, vertex-oriented T-Loop (the inactive vertex decides, from the
//         list of neighbours that just became active: MLIST)
//   lt-c  linear threshold, vertex-oriented C-Loop
// A newly active vertex gets one chance per out-edge to activate the tail (IC: with probability
// --probability; LT: by adding the edge's weight, 1/in-degree of the tail, to the tail's
// influence until it reaches the tail's random threshold). The random draws are a hash of the
// seed and the edge's endpoints, so every backend and the reference see the same draws.
#include <medusa/medusa.h>

#include "../common/sample_cli.h"
#include "infoprop_cpu.h"

#include <cstdio>
#include <string>

using namespace medusa;

struct Vertex : VertexBase<unsigned int> {
  unsigned int activated_at;  // superstep in which the vertex became active; kNever if inactive
  unsigned int threshold;     // LT: activation threshold, in units of 2^-20
  unsigned int influence;     // LT: weight received from active in-neighbours, units of 2^-20
};
struct Edge : EdgeBase<Vertex> {
  unsigned int weight;  // LT: 2^20 / in-degree of the tail
};

constexpr unsigned int kNever = 0xffffffffu;

// 24 random bits for the draw on edge head -> tail (a murmur3-style finalizer).
unsigned int draw24(unsigned int seed, unsigned int head, unsigned int tail) {
  unsigned int h = seed ^ (head * 0x9e3779b1u) ^ (tail * 0x85ebca77u);
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return h >> 8;
}

/* ELIST API (C-Loop): newly active vertices try their out-edges */
struct CascadeFromVertex {
  unsigned int seed;
  unsigned int chance24;  // probability * 2^24
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    for (unsigned int i = 0; i < el.size(); i++)
      if (draw24(seed, v.id(), el[i].tail_id()) < chance24) el[i].sendMsg(1u);
  }
};

/* EDGE API (E-Loop): every edge checks whether its head just became active */
struct CascadeAlongEdge {
  unsigned int seed;
  unsigned int chance24;
  void operator()(Edge& e) const {
    if (e.head().activated_at == Superstep() && draw24(seed, e.head_id(), e.tail_id()) < chance24)
      e.sendMsg(1u);
  }
};

/* ELIST API (LT C-Loop): newly active vertices push their edge weights */
struct PushWeight {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    for (unsigned int i = 0; i < el.size(); i++) el[i].sendMsg(el[i].weight);
  }
};

/* ELIST API (T-Loop): newly active vertices announce themselves to their out-neighbours */
struct Announce {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    for (unsigned int i = 0; i < el.size(); i++) el[i].sendMsg(v.id());
  }
};

/* MLIST API (T-Loop): an inactive vertex draws once for each neighbour that announced itself */
struct TraceNeighbours {
  unsigned int seed;
  unsigned int chance24;
  void operator()(Vertex& v, MessageList<unsigned int>& ml) const {
    if (v.activated_at != kNever) return;
    for (unsigned int i = 0; i < ml.size(); i++) {
      if (ml[i] != kNever && draw24(seed, ml[i], v.id()) < chance24) {
        v.activated_at = Superstep() + 1;
        v.SetActive();
        Continue();
        return;
      }
    }
  }
};

/* VERTEX API: a vertex reached by a successful attempt becomes active next superstep */
struct ActivateOnSuccess {
  void operator()(Vertex& v) const {
    if (v.activated_at == kNever && v.combined_msg() != 0) {
      v.activated_at = Superstep() + 1;
      v.SetActive();
      Continue();
    }
  }
};

/* VERTEX API: a vertex whose influence reaches its threshold becomes active next superstep */
struct ActivateOnThreshold {
  void operator()(Vertex& v) const {
    if (v.activated_at != kNever) return;
    v.influence += v.combined_msg();
    if (v.influence >= v.threshold) {
      v.activated_at = Superstep() + 1;
      v.SetActive();
      Continue();
    }
  }
};

// Host-side settings the iteration functions pass to the functors.
static unsigned int g_seed = 1;
static unsigned int g_chance24 = 0;

void IndependentCascadeCLoop() {
  InitMessageBuffer(0u);
  EMV<ELIST>::Run(CascadeFromVertex{g_seed, g_chance24}, Active);
  Combiner();
  EMV<VERTEX>::Run(ActivateOnSuccess{}, Received);
}

void IndependentCascadeELoop() {
  InitMessageBuffer(0u);
  EMV<EDGE>::Run(CascadeAlongEdge{g_seed, g_chance24});
  Combiner();
  EMV<VERTEX>::Run(ActivateOnSuccess{}, Received);
}

void IndependentCascadeTLoop() {
  InitMessageBuffer(kNever);
  EMV<ELIST>::Run(Announce{}, Active);
  EMV<MLIST>::Run(TraceNeighbours{g_seed, g_chance24}, Received);
}

void LinearThresholdCLoop() {
  InitMessageBuffer(0u);
  EMV<ELIST>::Run(PushWeight{}, Active);
  Combiner();
  EMV<VERTEX>::Run(ActivateOnThreshold{}, Received);
}

int main(int argc, char** argv) try {
  samples::Options opt = samples::parse_options(
      argc, argv, "Information propagation: --variant ic-c (default), ic-e, ic-t or lt-c; --probability for IC");
  const std::string variant = opt.variant.empty() ? "ic-c" : opt.variant;
  if (variant != "ic-c" && variant != "ic-e" && variant != "ic-t" && variant != "lt-c") {
    std::fprintf(stderr, "infoprop: --variant must be ic-c, ic-e, ic-t or lt-c, not '%s'\n", variant.c_str());
    return 2;
  }
  const samples::EdgeList edges = samples::load_edges(opt);
  std::printf("%s, variant %s\n", edges.description.c_str(), variant.c_str());

  g_seed = static_cast<unsigned int>(opt.seed);
  g_chance24 = static_cast<unsigned int>(opt.probability * 16777216.0);
  const InfopropSetup setup = infoprop_setup(edges.vertex_count, edges.dst, g_seed, opt.source);

  Graph<Vertex, Edge> my_graph = samples::make_graph<Vertex, Edge>(edges);
  for (VertexId v = 0; v < my_graph.vertex_count(); ++v) {
    my_graph.vertex(v).activated_at = kNever;
    my_graph.vertex(v).threshold = setup.threshold[v];
    my_graph.vertex(v).influence = 0;
  }
  for (EdgeIndex e = 0; e < my_graph.edge_count(); ++e) my_graph.edge(e).weight = setup.weight[e];
  for (VertexId s : setup.seeds) {
    my_graph.vertex(s).activated_at = 0;
    my_graph.SetActive(s);
  }

  Config conf;
  conf.combinerOpType = MEDUSA_SUM;
  samples::configure(conf, opt);  // --gpus, partitions, --verbose
  if (opt.iterations) conf.maxIteration = opt.iterations;
  auto device = Init_Device_DS(my_graph, conf);
  RunStats stats = device.Run(variant == "ic-c"   ? IndependentCascadeCLoop
                              : variant == "ic-e" ? IndependentCascadeELoop
                              : variant == "ic-t" ? IndependentCascadeTLoop
                                                  : LinearThresholdCLoop);
  device.Dump_Result(my_graph);
  samples::print_summary("infoprop " + variant, stats, my_graph.edge_count());

  std::size_t active = 0;
  for (const Vertex& v : my_graph.vertices()) active += v.activated_at != kNever;
  std::printf("infoprop: %zu of %u vertices active, %zu seeds\n", active, my_graph.vertex_count(), setup.seeds.size());

  auto activated_at = [&](VertexId v) { return my_graph.vertex(v).activated_at; };
  if (!opt.output.empty() && !samples::write_results(opt.output, my_graph.vertex_count(), activated_at)) return 1;
  if (!opt.validate) return 0;
  const std::vector<std::uint32_t> expected =
      variant == "lt-c" ? linear_threshold_cpu(edges.vertex_count, edges.src, edges.dst, setup, conf.maxIteration)
                        : independent_cascade_cpu(edges.vertex_count, edges.src, edges.dst, setup, g_seed,
                                                  g_chance24, conf.maxIteration);
  return samples::validate_vertices("activation superstep vs sequential simulation, exact", my_graph.vertex_count(),
                                    activated_at, [&](VertexId v) { return expected[v]; });
} catch (const std::exception& e) {  // a bad graph file, too little device memory, ...
  return print_error(e);
}
