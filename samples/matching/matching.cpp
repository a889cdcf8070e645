// Randomized maximal bipartite matching (the Medusa paper's workload). Each superstep is one
// round of three handshakes, all through messages:
//   1. every unmatched left vertex proposes to all its neighbours with a random key;
//   2. every unmatched right vertex grants the proposal with the smallest key;
//   3. every unmatched left vertex accepts the grant of the smallest right id and is matched.
// A round that matches nobody proves the matching maximal, so the run stops there. The graph must
// be bipartite and given in both directions; with no file a random bipartite graph is generated.
#include <medusa/medusa.h>
#include <medusa/io/generators.h>

#include "../common/sample_cli.h"
#include "matching_cpu.h"

#include <cstdio>
#include <string>

using namespace medusa;

using Offer = unsigned long long;  // (random key << 32) | vertex id; smaller wins
constexpr Offer kNoOffer = ~0ull;
constexpr unsigned int kUnmatched = 0xffffffffu;

struct Vertex : VertexBase<Offer> {
  unsigned int left;        // 1 on the left side, 0 on the right
  unsigned int match;       // partner, or kUnmatched
  unsigned int chosen;      // right: proposer granted this round; left: right vertex picked this round
  unsigned int chosen_at;   // superstep of `chosen`
};
struct Edge : EdgeBase<Vertex> {};

unsigned int proposal_key(unsigned int seed, unsigned int round, unsigned int vertex) {
  unsigned int h = seed ^ (round * 0x9e3779b1u) ^ (vertex * 0x85ebca77u);
  h ^= h >> 16;
  h *= 0x7feb352du;
  h ^= h >> 15;
  h *= 0x846ca68bu;
  h ^= h >> 16;
  return h;
}

/* ELIST: unmatched left vertices propose to every neighbour */
struct Propose {
  unsigned int seed;
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    if (!v.left || v.match != kUnmatched) return;
    Offer offer = (static_cast<Offer>(proposal_key(seed, Superstep(), v.id())) << 32) | v.id();
    for (unsigned int i = 0; i < el.size(); i++) el[i].sendMsg(offer);
  }
};

/* VERTEX: unmatched right vertices grant the best proposal */
struct Grant {
  void operator()(Vertex& v) const {
    if (v.left || v.match != kUnmatched) return;
    v.chosen = static_cast<unsigned int>(v.combined_msg() & 0xffffffffull);
    v.chosen_at = Superstep();
  }
};

/* ELIST: a granting right vertex tells the proposer it chose */
struct SendGrant {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    if (v.left || v.match != kUnmatched || v.chosen_at != Superstep()) return;
    for (unsigned int i = 0; i < el.size(); i++)
      if (el[i].tail_id() == v.chosen) el[i].sendMsg(static_cast<Offer>(v.id()));
  }
};

/* VERTEX: an unmatched left vertex picks the smallest granting right vertex */
struct Pick {
  void operator()(Vertex& v) const {
    if (!v.left || v.match != kUnmatched) return;
    v.chosen = static_cast<unsigned int>(v.combined_msg());
    v.chosen_at = Superstep();
  }
};

/* ELIST: the left vertex accepts; both ends of the pair are now matched */
struct Accept {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    if (!v.left || v.match != kUnmatched || v.chosen_at != Superstep()) return;
    for (unsigned int i = 0; i < el.size(); i++)
      if (el[i].tail_id() == v.chosen) el[i].sendMsg(static_cast<Offer>(v.id()));
    v.match = v.chosen;
    Continue();
  }
};

/* VERTEX: the accepted right vertex records its partner */
struct Confirm {
  void operator()(Vertex& v) const {
    if (v.left || v.match != kUnmatched) return;
    v.match = static_cast<unsigned int>(v.combined_msg());
  }
};

static unsigned int g_seed = 1;

void MatchingRound() {
  InitMessageBuffer(kNoOffer);
  EMV<ELIST>::Run(Propose{g_seed});
  Combiner();
  EMV<VERTEX>::Run(Grant{}, Received);
  InitMessageBuffer(kNoOffer);
  EMV<ELIST>::Run(SendGrant{});
  Combiner();
  EMV<VERTEX>::Run(Pick{}, Received);
  InitMessageBuffer(kNoOffer);
  EMV<ELIST>::Run(Accept{});
  Combiner();
  EMV<VERTEX>::Run(Confirm{}, Received);
}

int main(int argc, char** argv) try {
  samples::Options opt = samples::parse_options(
      argc, argv, "Randomized maximal bipartite matching (default graph: random bipartite, 2^(scale-1) per side)");
  samples::EdgeList edges;
  if (opt.graph_file.empty()) {
    io::GeneratorOptions g;
    g.seed = opt.seed;
    g.symmetrize = true;
    const VertexId side = VertexId{1} << (opt.generated_scale - 1);
    io::EdgeListData data = io::generate_bipartite(side, side, std::uint64_t{4} << opt.generated_scale, g);
    edges.vertex_count = data.vertex_count;
    edges.src = std::move(data.src);
    edges.dst = std::move(data.dst);
    edges.description = "generated bipartite graph: " + std::to_string(edges.vertex_count) + " vertices, " +
                        std::to_string(edges.src.size()) + " edges";
  } else {
    edges = samples::load_edges(opt);
  }
  std::printf("%s\n", edges.description.c_str());
  std::vector<unsigned int> side;
  if (!two_colour(edges.vertex_count, edges.src, edges.dst, side)) {
    std::fprintf(stderr, "matching: the graph is not bipartite (an odd cycle exists)\n");
    return 2;
  }

  g_seed = static_cast<unsigned int>(opt.seed);
  Graph<Vertex, Edge> my_graph = samples::make_graph<Vertex, Edge>(edges);
  for (VertexId v = 0; v < my_graph.vertex_count(); ++v) {
    Vertex& x = my_graph.vertex(v);
    x.left = side[v];
    x.match = kUnmatched;
    x.chosen = kUnmatched;
    x.chosen_at = kUnmatched;
  }

  Config conf;
  conf.combinerOpType = MEDUSA_MIN;
  samples::configure(conf, opt);  // --gpus, partitions, --verbose
  if (opt.iterations) conf.maxIteration = opt.iterations;
  auto device = Init_Device_DS(my_graph, conf);
  RunStats stats = device.Run(MatchingRound);
  device.Dump_Result(my_graph);
  samples::print_summary("matching", stats, my_graph.edge_count());

  std::vector<unsigned int> match(my_graph.vertex_count());
  for (VertexId v = 0; v < my_graph.vertex_count(); ++v) match[v] = my_graph.vertex(v).match;
  std::size_t pairs = 0;
  for (VertexId v = 0; v < my_graph.vertex_count(); ++v) pairs += side[v] && match[v] != kUnmatched;
  std::printf("matching: %zu pairs\n", pairs);
  if (!opt.output.empty() &&
      !samples::write_results(opt.output, my_graph.vertex_count(), [&](VertexId v) { return match[v]; }))
    return 1;
  if (!opt.validate) return 0;
  const std::vector<std::string> problems = check_maximal_matching(edges.vertex_count, edges.src, edges.dst, match);
  return samples::report_validation("a maximal matching: partners adjacent and mutual, no edge with both ends free",
                                    problems.size(), problems);
} catch (const std::exception& e) {  // a bad graph file, too little device memory, ...
  return print_error(e);
}
