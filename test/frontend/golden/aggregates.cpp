// Golden input: global aggregates. Every vertex halves its value each superstep; a sum counts the
// vertices still above 1, a min and a max track the extremes, and a user's operator (largest
// absolute value) folds a float. The iteration function halts once a superstep counted nothing.
// Checks itself against a sequential computation.
#include <medusa/medusa.h>

#include <cmath>
#include <cstdio>

using namespace medusa;

struct Vertex : VertexBase<int> {
  int value;
  int received;  // the last superstep's sum of value * smallest (previous superstep) over in-edges
};
struct Edge : EdgeBase<Vertex> {};

struct AbsMax {
  float operator()(const float& a, const float& b) const { return std::fabs(a) < std::fabs(b) ? b : a; }
};

Aggregate<int, MEDUSA_SUM> above_one;
Aggregate<int, MEDUSA_MIN> smallest{0};  // 0 before the first superstep
Aggregate<long long, MEDUSA_MAX> largest;
CustomAggregate<float, AbsMax> widest{0.0f};

struct Halve {
  void operator()(Vertex& v) const {
    v.value = v.value / 2;
    if (v.value > 1) above_one.add(1);
    smallest.add(v.value);
    largest.add(v.value);
    widest.add(v.value % 2 == 0 ? static_cast<float>(v.value) : -static_cast<float>(v.value));
  }
};

// An edge-parallel ELIST whose message reads an aggregate: still computed once per source.
struct SendScaled {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    const int scale = smallest.value();
    for (unsigned i = 0; i < el.size(); ++i) el[i].sendMsg(v.value * scale);
  }
};
struct Receive {
  void operator()(Vertex& v) const { v.received = v.combined_msg(); }
};

void Step() {
  if (Superstep() > 0 && above_one.value() == 0) Halt();
  InitMessageBuffer(0);
  EMV<ELIST>::Run(SendScaled{});
  Combiner();
  EMV<VERTEX>::Run(Receive{});
  EMV<VERTEX>::Run(Halve{});
}

int main() {
  const int n = 5;
  const int start[] = {3, 100, 7, 40, 1};
  Graph<Vertex, Edge> my_graph;
  for (int i = 0; i < n; ++i) my_graph.AddVertex(Vertex{{}, start[i], 0});
  for (int e = 0; e + 1 < n; ++e) my_graph.AddEdge(e, e + 1);

  Config conf;
  conf.combinerOpType = MEDUSA_SUM;
  conf.maxIteration = 100;
  auto device = Init_Device_DS(my_graph, conf);
  RunStats stats = device.Run(Step);
  device.Dump_Result(my_graph);

  // Sequentially: the superstep that halts (the one after a superstep counted nothing) still runs.
  int value[n];
  for (int i = 0; i < n; ++i) value[i] = start[i];
  int steps = 0, count = 1, low = 0, high = 0, received[n] = {};
  float wide = 0.0f;
  for (int s = 0;; ++s) {
    const bool halts = s > 0 && count == 0;
    for (int i = 0; i < n; ++i) received[i] = 0;
    for (int e = 0; e + 1 < n; ++e) received[e + 1] += value[e] * low;  // (low: the last superstep's)
    count = 0, low = 1 << 30, high = -(1 << 30), wide = 0.0f;
    for (int i = 0; i < n; ++i) {
      value[i] /= 2;
      if (value[i] > 1) ++count;
      low = value[i] < low ? value[i] : low;
      high = value[i] > high ? value[i] : high;
      const float w = value[i] % 2 == 0 ? static_cast<float>(value[i]) : -static_cast<float>(value[i]);
      wide = std::fabs(wide) < std::fabs(w) ? w : wide;
    }
    ++steps;
    if (halts) break;
  }
  std::printf("supersteps %u (want %d), sum %d, min %d, max %lld, absmax %g\n", stats.supersteps, steps,
              above_one.value(), smallest.value(), largest.value(), widest.value());
  int bad = stats.supersteps == static_cast<unsigned>(steps) ? 0 : 1;
  for (int v = 0; v < n; ++v)
    if (my_graph.vertex(v).value != value[v] || my_graph.vertex(v).received != received[v]) ++bad;
  if (above_one.value() != count || smallest.value() != low || largest.value() != high || widest.value() != wide) ++bad;
  return bad == 0 ? 0 : 1;
}
