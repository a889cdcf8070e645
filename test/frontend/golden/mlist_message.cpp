// Golden input: MESSAGE and MLIST functors. Every vertex sends its value along its out-edges, a
// MESSAGE functor halves every message slot, and an MLIST functor over Domain::Received sums
// the messages of the vertices that got any. Broadcast also records on each edge what it sent
// (an edge field written on the device, copied back in input order).
#include <medusa/medusa.h>

#include <cmath>
#include <cstdio>
#include <vector>

using namespace medusa;

struct Vertex : VertexBase<double> {
  double value;
};
struct Edge : EdgeBase<Vertex> {
  double sent;
};

struct Broadcast {
  void operator()(EdgeList<Edge>& el, const Vertex& v) const {
    for (unsigned i = 0; i < el.size(); ++i) {
      el[i].sendMsg(v.value);
      el[i].sent = v.value;
    }
  }
};

struct Halve {
  void operator()(double& m) const { m *= 0.5; }
};

struct SumMessages {
  void operator()(Vertex& v, MessageList<double>& ml) const {
    double sum = 0;
    for (unsigned i = 0; i < ml.size(); ++i) sum += ml[i];
    v.value = sum;
  }
};

void Step() {
  InitMessageBuffer(0.0);
  EMV<ELIST>::Run(Broadcast{});
  EMV<MESSAGE>::Run(Halve{});
  EMV<MLIST>::Run(SumMessages{}, Domain::Received);
}

int main() {
  const int n = 4;
  const int src[] = {0, 1, 2, 0};
  const int dst[] = {1, 2, 1, 2};
  Graph<Vertex, Edge> my_graph;
  for (int i = 0; i < n; ++i) my_graph.AddVertex(Vertex{{}, 1.0 + i});
  for (int e = 0; e < 4; ++e) my_graph.AddEdge(src[e], dst[e]);

  Config conf;
  conf.maxIteration = 3;
  auto device = Init_Device_DS(my_graph, conf);
  device.Run(Step);
  device.Dump_Result(my_graph);

  std::vector<double> value{1, 2, 3, 4}, before_last;
  for (int it = 0; it < 3; ++it) {
    before_last = value;
    std::vector<double> sum(n, 0.0);
    std::vector<bool> received(n, false);
    for (int e = 0; e < 4; ++e) {
      sum[dst[e]] += 0.5 * value[src[e]];
      received[dst[e]] = true;
    }
    for (int v = 0; v < n; ++v)
      if (received[v]) value[v] = sum[v];
  }
  int bad = 0;
  for (int v = 0; v < n; ++v) {
    std::printf("%d %.6f\n", v, my_graph.vertex(v).value);
    if (std::fabs(my_graph.vertex(v).value - value[v]) > 1e-9) ++bad;
  }
  // In the last superstep each edge sent its source's value from before that superstep.
  for (int e = 0; e < 4; ++e) {
    std::printf("edge %d sent %.6f\n", e, my_graph.edge(e).sent);
    if (std::fabs(my_graph.edge(e).sent - before_last[src[e]]) > 1e-9) ++bad;
  }
  return bad == 0 ? 0 : 1;
}
