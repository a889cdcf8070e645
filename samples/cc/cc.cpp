// Connected components, Afforest style (Sutton et al., 2018): hooking and pointer jumping over a
// sample of the edges first. Every vertex holds a parent label, starting with its own id; labels
// only decrease, so they form a forest whose roots are the smallest ids. A hook sends the smaller
// of two labels by id to the other one's vertex (min combiner) if that vertex is a root, so trees
// only merge. Three runs:
//   1. neighbour rounds: every vertex hooks with its first kNeighbourRounds neighbours only, then
//      jumps to its root (vertex_at), until no label changes;
//   2. one superstep samples the labels of every kSampleStride-th vertex and keeps the majority
//      (a Boyer-Moore vote as a custom aggregate): the likely giant component;
//   3. only vertices outside it hook over their remaining edges, and jump, until no label
//      changes; a vertex whose edges all met its own tree stops hooking.
// Step 3 is exact on a symmetric graph: an edge among the first neighbours of either end was
// linked in step 1, and an edge between the giant component and another one is seen from the
// other end. So most edges of a graph with a giant component are never read.
// Under a mean degree of kSampledMeanDegree (road networks) steps 1 and 2 are skipped and step 3
// hooks over every edge: there, the first neighbours form long chains that take many rounds.
// --variant sampled or all-edges fixes the choice.
// label_propagation (cc_lp.cpp) is the one-level-per-superstep variant.
// Components are of the undirected graph: run it on a symmetric graph (--symmetrize for
// directed inputs).
#include <medusa/medusa.h>

#include "../common/sample_cli.h"
#include "cc_results.h"

#include <cstdint>
#include <string>

using namespace medusa;

constexpr unsigned int kNeighbourRounds = 2;  // Afforest's r: the first neighbours linked in step 1
constexpr unsigned int kSampleStride = 1024;  // step 2 samples vertices 0, 1024, 2048, ...
// Below this mean degree (road networks, meshes) the first neighbours form long chains that take
// many rounds, and there are few remaining edges to save: step 3 alone runs, from the first edge.
constexpr unsigned int kSampledMeanDegree = 4;
constexpr unsigned int kNoLabel = 0xffffffffu;

struct Vertex : VertexBase<unsigned int> {
  unsigned int label;  // the parent; the component's smallest id once the run ends
  unsigned int next;   // the label the jump found, adopted after every vertex has read the labels
};
struct Edge : EdgeBase<Vertex> {};

// A label's votes in the sample: the count in the high 32 bits, the label in the low ones.
inline unsigned long long vote(unsigned long long count, unsigned int label) {
  return (count << 32) | label;
}
// Boyer-Moore majority vote: different labels cancel each other's votes. Any fold order keeps a
// label that holds more than half of the votes; without one the winner is some label, which
// only costs step 3 time, never exactness.
struct MajorityVote {
  unsigned long long operator()(const unsigned long long& a, const unsigned long long& b) const {
    const unsigned int a_label = static_cast<unsigned int>(a), b_label = static_cast<unsigned int>(b);
    const unsigned long long a_votes = a >> 32, b_votes = b >> 32;
    if (a_label == b_label) return vote(a_votes + b_votes, a_label);
    if (a_votes > b_votes) return vote(a_votes - b_votes, a_label);
    if (b_votes > a_votes) return vote(b_votes - a_votes, b_label);
    return vote(0, a_label < b_label ? a_label : b_label);
  }
};
CustomAggregate<unsigned long long, MajorityVote> sampled_majority{vote(0, kNoLabel)};

/* ELIST API: step 1, the first neighbours (both directions: the other end may not list this edge
   among its first) */
struct LinkFirstNeighbours {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    const unsigned int mine = v.label;
    const unsigned int first = el.size() < kNeighbourRounds ? el.size() : kNeighbourRounds;
    for (unsigned int i = 0; i < first; i++) {
      const unsigned int theirs = vertex_at(v, el[i].tail_id()).label;
      if (mine < theirs && vertex_at(v, theirs).label == theirs) v.sendMsgTo(theirs, mine);
      if (theirs < mine && vertex_at(v, mine).label == mine) v.sendMsgTo(mine, theirs);
    }
  }
};

/* ELIST API: step 3, vertices outside the giant component (all of them in its first superstep,
   then those whose edges still met another tree) */
struct LinkRemaining {
  unsigned int giant;  // the sampled majority label
  unsigned int from;   // the first edge not linked by step 1 (0 when step 1 did not run)
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    const unsigned int mine = v.label;
    if (mine == giant) return;  // its edges to other components are seen from their ends
    bool met_another_tree = false;
    for (unsigned int i = from; i < el.size(); i++) {
      const unsigned int theirs = vertex_at(v, el[i].tail_id()).label;
      if (mine < theirs && vertex_at(v, theirs).label == theirs) v.sendMsgTo(theirs, mine);
      if (theirs < mine && vertex_at(v, mine).label == mine) v.sendMsgTo(mine, theirs);
      if (theirs != mine) met_another_tree = true;
    }
    if (met_another_tree) v.SetActive();  // (trees only merge: a vertex that met only its own is done)
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

/* VERTEX API: step 2 (labels are roots after step 1's last superstep, which changed none) */
struct SampleLabel {
  void operator()(Vertex& v) const {
    if (v.id() % kSampleStride == 0 && v.edge_count() > 0) sampled_majority.add(vote(1, v.label));
  }
};

void NeighbourRounds() {
  InitMessageBuffer(kNoLabel);
  EMV<ELIST>::Run(LinkFirstNeighbours{});
  Combiner();
  EMV<VERTEX>::Run(Jump{});
  EMV<VERTEX>::Run(Adopt{});
}

void SampleGiant() { EMV<VERTEX>::Run(SampleLabel{}); }  // one superstep: it votes no Continue()

unsigned int giant_label = kNoLabel;  // step 2's answer, set by main
unsigned int remaining_from = kNeighbourRounds;  // 0 when main skips steps 1 and 2
void LinkOutsideGiant() {
  InitMessageBuffer(kNoLabel);
  if (Superstep() == 0) EMV<ELIST>::Run(LinkRemaining{giant_label, remaining_from});
  else EMV<ELIST>::Run(LinkRemaining{giant_label, remaining_from}, Active);
  Combiner();
  EMV<VERTEX>::Run(Jump{});
  EMV<VERTEX>::Run(Adopt{});
}

int main(int argc, char** argv) try {
  samples::Options opt = samples::parse_options(argc, argv,
      "Connected components (Afforest: sampled hooking and pointer jumping, reads and sends by vertex id); "
      "--variant auto (default: sampled from mean degree 4 up), sampled or all-edges");
  const std::string variant = opt.variant.empty() ? "auto" : opt.variant;
  if (variant != "auto" && variant != "sampled" && variant != "all-edges") {
    std::fprintf(stderr, "cc: --variant must be auto, sampled or all-edges, not '%s'\n", variant.c_str());
    return 2;
  }
  const samples::EdgeList edges = samples::load_edges(opt);
  std::printf("%s\n", edges.description.c_str());

  Graph<Vertex, Edge> my_graph = samples::make_graph<Vertex, Edge>(edges);
  for (VertexId v = 0; v < my_graph.vertex_count(); ++v) my_graph.vertex(v).label = v;

  Config conf;
  conf.combinerOpType = MEDUSA_MIN;
  samples::configure(conf, opt);  // --gpus, partitions, --verbose
  if (opt.iterations) conf.maxIteration = opt.iterations;
  auto device = Init_Device_DS(my_graph, conf);
  // (the edge count every rank knows: in a distributed run rank 0 alone holds the edges)
  const bool sampled = variant == "sampled" ||
      (variant == "auto" && edges.whole_graph_edges >= std::uint64_t{kSampledMeanDegree} * edges.vertex_count);
  RunStats rounds, sample;
  unsigned long long majority = vote(0, kNoLabel);
  if (sampled) {
    rounds = device.Run(NeighbourRounds);
    sample = device.Run(SampleGiant);
    majority = sampled_majority.value();
    giant_label = majority >> 32 ? static_cast<unsigned int>(majority) : kNoLabel;
  } else {
    remaining_from = 0;
  }
  const RunStats remaining = device.Run(LinkOutsideGiant);
  device.Dump_Result(my_graph);
  if (opt.verbose) {
    if (!sampled) std::printf("cc: mean degree under %u: no neighbour rounds or sample\n", kSampledMeanDegree);
    std::printf("cc: neighbour rounds: %u supersteps, %.3f ms\n", rounds.supersteps, rounds.seconds * 1e3);
    if (sampled)
      std::printf("cc: sampled giant label %u (%llu votes to spare), %.3f ms\n", giant_label, majority >> 32,
                  sample.seconds * 1e3);
    std::printf("cc: outside the giant: %u supersteps, %.3f ms, %llu edges visited\n", remaining.supersteps,
                remaining.seconds * 1e3, static_cast<unsigned long long>(remaining.edges_visited));
  }
  samples::print_summary("cc", samples::sum_runs({rounds, sample, remaining}), my_graph.edge_count());

  auto label = [&](VertexId v) { return my_graph.vertex(v).label; };
  return samples::report_components(opt, edges, my_graph.vertex_count(), label);
} catch (const std::exception& e) {  // a bad graph file, too little device memory, ...
  return print_error(e);
}
