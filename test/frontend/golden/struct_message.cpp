// Golden input: a struct message type with a user-defined combiner operator. Every vertex
// offers (its cost + edge cost, its id) to its out-neighbours; each vertex keeps the cheapest
// offer (ties: smallest id).
#include <medusa/medusa.h>

#include <cfloat>
#include <climits>
#include <cstdio>

using namespace medusa;

struct Offer {
  float cost;
  unsigned from;
};

// Defined before the graph types: its launcher follows the program description.
struct CheaperOffer {
  Offer operator()(const Offer& a, const Offer& b) const {
    if (a.cost != b.cost) return a.cost < b.cost ? a : b;
    return a.from < b.from ? a : b;
  }
};

struct Vertex : VertexBase<Offer> {
  float cost;
  float best_cost;
  unsigned best_from;
};
struct Edge : EdgeBase<Vertex> {
  float cost;
};

struct MakeOffers {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    for (unsigned i = 0; i < el.size(); ++i) {
      Offer offer{v.cost + el[i].cost, v.id()};
      el[i].sendMsg(offer);
    }
  }
};

struct TakeBest {
  void operator()(Vertex& v) const {
    Offer best = v.combined_msg();
    v.best_cost = best.cost;
    v.best_from = best.from;
  }
};

void Round() {
  InitMessageBuffer(Offer{FLT_MAX, UINT_MAX});
  EMV<ELIST>::Run(MakeOffers{});
  Combiner(CheaperOffer{});
  EMV<VERTEX>::Run(TakeBest{});
}

int main() {
  const int n = 4;
  const int src[] = {0, 1, 2, 0, 3};
  const int dst[] = {2, 2, 3, 3, 1};
  const float edge_cost[] = {1.0f, 0.5f, 2.0f, 4.0f, 1.0f};
  const float vertex_cost[] = {1.0f, 1.5f, 0.0f, 3.0f};
  Graph<Vertex, Edge> my_graph;
  for (int i = 0; i < n; ++i) my_graph.AddVertex(Vertex{{}, vertex_cost[i], 0.0f, 0});
  for (int e = 0; e < 5; ++e) my_graph.AddEdge(src[e], dst[e], Edge{{}, edge_cost[e]});

  Config conf;
  conf.maxIteration = 1;
  auto device = Init_Device_DS(my_graph, conf);
  device.Run(Round);
  device.Dump_Result(my_graph);

  // Expected: 0 gets nothing; 1 <- 3 (4.0); 2 <- 0 (2.0) and 1 (2.0): tie, smaller id 0;
  // 3 <- 2 (2.0) beats 0 (5.0).
  const float want_cost[] = {FLT_MAX, 4.0f, 2.0f, 2.0f};
  const unsigned want_from[] = {UINT_MAX, 3, 0, 2};
  int bad = 0;
  for (int v = 0; v < n; ++v) {
    const Vertex& x = my_graph.vertex(v);
    std::printf("%d %g %u\n", v, x.best_cost, x.best_from);
    if (x.best_cost != want_cost[v] || x.best_from != want_from[v]) ++bad;
  }
  return bad == 0 ? 0 : 1;
}
