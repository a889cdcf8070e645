// Global aggregates added from divergent code (inside an `if`) in every form of launch that runs
// functors: VERTEX over all vertices and over a frontier, EDGE, an ELIST edge loop run per edge
// (over all vertices, pull-fused with its Combiner and the VERTEX step after it, and over a
// frontier), an ELIST loop run per vertex, MESSAGE, MLIST and an in-edge ELIST. Each form has its
// own aggregates (integer sums and a user's operator), so a form whose adds are lost is named.
// main() counts the same things directly from the graph and exits 1 on a mismatch. On CUDA the
// adds are reduced per block (runtime/include/medusa/backend/cuda/block_aggregates.cuh). On k
// partitions the per-vertex ELIST loop and MESSAGE adds are refused (they would count once per
// partition: backend/common/aggregate_steps.h), and the other forms count as on one.
//   aggregate_forms [vertices] [partitions]    (default 20000, 1)
#include <medusa/medusa.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace medusa;

struct Vertex : VertexBase<int> {
  int value;
};
struct Edge : EdgeBase<Vertex> {};

struct Xor32 {
  unsigned operator()(const unsigned& a, const unsigned& b) const { return a ^ b; }
};
struct Xor64 {
  unsigned long long operator()(const unsigned long long& a, const unsigned long long& b) const { return a ^ b; }
};

Aggregate<int, MEDUSA_SUM> vertex_count;            // VERTEX, all vertices
CustomAggregate<unsigned, Xor32> vertex_mix{0u};
Aggregate<long long, MEDUSA_SUM> active_values;     // VERTEX, the frontier
Aggregate<int, MEDUSA_SUM> edge_count;              // EDGE
CustomAggregate<unsigned, Xor32> edge_mix{0u};
Aggregate<int, MEDUSA_SUM> frontier_edges;          // ELIST per edge, the frontier
Aggregate<int, MEDUSA_SUM> loop_count;              // ELIST per vertex
Aggregate<int, MEDUSA_SUM> sent_count;              // ELIST per edge, all vertices (then Combiner)
CustomAggregate<unsigned long long, Xor64> sent_mix{0ull};
Aggregate<int, MEDUSA_SUM> received_total;          // VERTEX after the Combiner
Aggregate<int, MEDUSA_SUM> message_count;           // MESSAGE
Aggregate<int, MEDUSA_SUM> slot_count;              // MLIST
Aggregate<int, MEDUSA_SUM> in_edge_count;           // ELIST over in-edges
CustomAggregate<unsigned, Xor32> in_edge_mix{0u};

unsigned mix32(unsigned x) { return (x + 0x9e3779b9u) * 2654435761u; }

struct CountVertices {
  void operator()(Vertex& v) const {
    if (v.value % 3 == 0) vertex_count.add(1);
    if (v.value % 5 != 0) vertex_mix.add(mix32(static_cast<unsigned>(v.value)));
    if (v.id() % 4 == 0) v.SetActive();  // (the frontier of the next superstep: the same as the seeds)
  }
};
struct CountActive {
  void operator()(Vertex& v) const {
    if (v.value % 2 == 0) active_values.add(v.value);
  }
};
struct CountFrontierEdges {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    for (unsigned i = 0; i < el.size(); ++i)
      if (el[i].tail_id() % 3 == 0) frontier_edges.add(1);
  }
};
struct CountEdges {
  void operator()(Edge& e) const {
    if (e.head().value % 2 == 0) edge_count.add(1);
    if (e.tail_id() % 2 == 1) edge_mix.add(mix32(e.head_id()) ^ e.tail_id());
  }
};
struct CountInLoop {  // (the count carries over iterations: one thread runs the vertex's loop)
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    int above = 0;
    for (unsigned i = 0; i < el.size(); ++i)
      if (el[i].tail_id() > v.id()) ++above;
    if (above >= 2) loop_count.add(above);
  }
};
struct SendSome {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    for (unsigned i = 0; i < el.size(); ++i) {
      if (el[i].tail_id() % 3 == 0) {
        sent_count.add(1);
        el[i].sendMsg(1);
      }
      if (el[i].tail_id() % 7 == 0)
        sent_mix.add(static_cast<unsigned long long>(v.id()) << 32 | el[i].tail_id());
    }
  }
};
struct Receive {
  void operator()(Vertex& v) const {
    if (v.combined_msg() >= 3) received_total.add(v.combined_msg());
  }
};
struct CountMessages {
  void operator()(int& m) const {
    if (m == 1) message_count.add(1);
  }
};
struct CountSlots {
  void operator()(Vertex& v, MessageList<int>& ml) const {
    if (v.id() % 2 == 0) slot_count.add(static_cast<int>(ml.size()));
  }
};
struct SendBack {
  void operator()(Vertex& v, InEdgeList<Edge>& in) const {
    for (unsigned i = 0; i < in.size(); ++i) {
      if (in[i].head_id() % 5 == 1) in_edge_count.add(1);
      if (in[i].head_id() % 2 == 0) in_edge_mix.add(mix32(in[i].head_id()) ^ v.id());
      in[i].sendMsg(1);
    }
  }
};

void Step() {
  EMV<VERTEX>::Run(CountVertices{});
  EMV<VERTEX>::Run(CountActive{}, Active);
  EMV<ELIST>::Run(CountFrontierEdges{}, Active);
  EMV<EDGE>::Run(CountEdges{});
  EMV<ELIST>::Run(CountInLoop{});
  InitMessageBuffer(0);
  EMV<ELIST>::Run(SendSome{});
  Combiner();
  EMV<VERTEX>::Run(Receive{});
  EMV<MESSAGE>::Run(CountMessages{});
  EMV<MLIST>::Run(CountSlots{});
  InitMessageBuffer(0);
  EMV<ELIST>::Run(SendBack{});
  Combiner();
}

// Step without the forms partitioned runs refuse.
void PartitionedStep() {
  EMV<VERTEX>::Run(CountVertices{});
  EMV<VERTEX>::Run(CountActive{}, Active);
  EMV<ELIST>::Run(CountFrontierEdges{}, Active);
  EMV<EDGE>::Run(CountEdges{});
  InitMessageBuffer(0);
  EMV<ELIST>::Run(SendSome{});
  Combiner();
  EMV<VERTEX>::Run(Receive{});
  EMV<MLIST>::Run(CountSlots{});
  InitMessageBuffer(0);
  EMV<ELIST>::Run(SendBack{});
  Combiner();
}

namespace {

// Out-edges of v: a ring, a chord, and an edge into one of four hubs (in-degree n / 4 each, so the
// Combiner folds high-degree vertices too); every 97th vertex also links to 300 others.
std::vector<std::vector<VertexId>> adjacency(VertexId n) {
  std::vector<std::vector<VertexId>> out(n);
  for (VertexId v = 0; v < n; ++v) {
    out[v] = {(v + 1) % n, (v * 7 + 3) % n, v % 4};
    if (v % 97 == 0)
      for (VertexId k = 1; k <= 300; ++k) out[v].push_back((v + k * 131) % n);
  }
  return out;
}

int value_of(VertexId v) { return static_cast<int>((v * 2654435761u) % 1000u); }

int failures = 0;
template <class T>
void expect(const char* name, T got, T want) {
  const bool ok = got == want;
  std::printf("%-15s %20llu  (want %llu)%s\n", name, static_cast<unsigned long long>(got),
              static_cast<unsigned long long>(want), ok ? "" : "  MISMATCH");
  if (!ok) ++failures;
}

}  // namespace

int main(int argc, char** argv) {
  const VertexId n = argc > 1 ? static_cast<VertexId>(std::strtoul(argv[1], nullptr, 10)) : 20000;
  const int parts = argc > 2 ? std::atoi(argv[2]) : 1;
  const auto out = adjacency(n);
  Graph<Vertex, Edge> graph;
  for (VertexId v = 0; v < n; ++v) graph.AddVertex(Vertex{{}, value_of(v)});
  for (VertexId v = 0; v < n; ++v)
    for (VertexId w : out[v]) graph.AddEdge(v, w);
  for (VertexId v = 0; v < n; v += 4) graph.SetActive(v);

  Config conf;
  conf.combinerOpType = MEDUSA_SUM;
  conf.maxIteration = 3;  // (every superstep counts the same: a fold that kept an earlier one shows)
  conf.gpuCount = parts;
  conf.partitionsPerGpu = parts;  // (CUDA: every partition on one GPU)
  if (parts > 1) {
    auto refusing = Init_Device_DS(graph, conf);
    try {
      refusing.Run(Step);
      std::printf("Step ran on %d partitions: its per-vertex ELIST loop's adds were not refused\n", parts);
      ++failures;
    } catch (const medusa::Error& e) {
      const bool named = std::strstr(e.what(), "ELIST functor whose edge loop runs one thread per vertex") != nullptr;
      std::printf("Step refused on %d partitions%s: %s\n", parts, named ? "" : " for another reason", e.what());
      if (!named) ++failures;
    }
  }
  auto device = Init_Device_DS(graph, conf);
  RunStats stats;
  if (parts > 1) stats = device.Run(PartitionedStep);
  else stats = device.Run(Step);

  // The same counts, straight from the graph.
  int vertices = 0, edges = 0, frontier = 0, loops = 0, sent = 0, received = 0, slots = 0, in_edges = 0;
  unsigned vmix = 0, emix = 0, imix = 0;
  unsigned long long smix = 0;
  long long active = 0;
  std::vector<int> in_sent(n, 0), in_degree(n, 0);
  for (VertexId v = 0; v < n; ++v) {
    const int x = value_of(v);
    vertices += x % 3 == 0 ? 1 : 0;
    if (x % 5 != 0) vmix ^= mix32(static_cast<unsigned>(x));
    if (v % 4 == 0 && x % 2 == 0) active += x;
    int above = 0;
    for (VertexId w : out[v]) {
      ++in_degree[w];
      if (v % 4 == 0 && w % 3 == 0) ++frontier;
      if (x % 2 == 0) ++edges;
      if (w % 2 == 1) emix ^= mix32(v) ^ w;
      above += w > v ? 1 : 0;
      if (w % 3 == 0) ++sent, ++in_sent[w];
      if (w % 7 == 0) smix ^= static_cast<unsigned long long>(v) << 32 | w;
      // SendBack: v is the head of its out-edge v -> w, which is one of w's in-edges.
      if (v % 5 == 1) ++in_edges;
      if (v % 2 == 0) imix ^= mix32(v) ^ w;
    }
    if (above >= 2) loops += above;
  }
  for (VertexId w = 0; w < n; ++w) {
    if (in_sent[w] >= 3) received += in_sent[w];
    if (w % 2 == 0) slots += in_degree[w];
  }

  std::printf("aggregate_forms: %u vertices, %d partitions, %u supersteps\n", n, parts, stats.supersteps);
  expect("vertex_count", vertex_count.value(), vertices);
  expect("vertex_mix", vertex_mix.value(), vmix);
  expect("active_values", active_values.value(), active);
  expect("frontier_edges", frontier_edges.value(), frontier);
  expect("edge_count", edge_count.value(), edges);
  expect("edge_mix", edge_mix.value(), emix);
  if (parts == 1) expect("loop_count", loop_count.value(), loops);
  expect("sent_count", sent_count.value(), sent);
  expect("sent_mix", sent_mix.value(), smix);
  expect("received_total", received_total.value(), received);
  if (parts == 1) expect("message_count", message_count.value(), sent);
  expect("slot_count", slot_count.value(), slots);
  expect("in_edge_count", in_edge_count.value(), in_edges);
  expect("in_edge_mix", in_edge_mix.value(), imix);
  if (stats.supersteps != 3) ++failures;
  std::printf("%s\n", failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
