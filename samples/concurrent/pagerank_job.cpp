// PageRank (samples/pagerank/pagerank.cpp) as a job of the concurrent sample.
#include <medusa/medusa.h>

#include "../pagerank/pagerank_cpu.h"
#include "jobs.h"

#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace pagerank_job {

using namespace medusa;

struct Vertex : VertexBase<float> {
  float rank;
};
struct Edge : EdgeBase<Vertex> {};

struct SendRank {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    float msg = v.rank / v.edge_count();
    for (unsigned int i = 0; i < el.size(); i++) el[i].sendMsg(msg);
  }
};

struct UpdateRank {
  void operator()(Vertex& v) const { v.rank = 0.15f + v.combined_msg() * 0.85f; }
};

void PageRank() {
  InitMessageBuffer(0.0f);
  EMV<ELIST>::Run(SendRank{});
  Combiner();
  EMV<VERTEX>::Run(UpdateRank{});
}

class Ranking : public samples::concurrent::Job {
 public:
  Ranking(const samples::EdgeList& edges, std::shared_ptr<const Graph<Vertex, Edge>> base, std::uint32_t iterations)
      : edges_(edges), base_(std::move(base)), iterations_(iterations) {}
  std::string name() const override { return "pagerank, " + std::to_string(iterations_) + " iterations"; }
  void prepare() override {
    graph_ = *base_;
    for (Vertex& v : graph_.vertices()) v.rank = 1.0f;
  }
  RunStats run(const Config& base) override {
    Config conf = base;
    conf.combinerOpType = MEDUSA_SUM;
    conf.maxIteration = iterations_;
    auto device = Init_Device_DS(graph_, conf);
    const RunStats stats = device.Run(PageRank);
    device.Dump_Result(graph_);
    return stats;
  }
  int validate() const override {
    // Single-precision sums in another order than the reference: relative tolerance 1e-4.
    const std::vector<double> expected = pagerank_cpu(edges_.vertex_count, edges_.src, edges_.dst, iterations_);
    return samples::validate_vertices(
        name() + ": ranks vs CPU reference, relative tolerance 1e-4", graph_.vertex_count(),
        [&](VertexId v) { return static_cast<double>(graph_.vertex(v).rank); },
        [&](VertexId v) { return expected[v]; },
        [](double got, double want) { return std::fabs(got - want) <= 1e-4 * std::fmax(1.0, std::fabs(want)); });
  }

 private:
  const samples::EdgeList& edges_;
  std::shared_ptr<const Graph<Vertex, Edge>> base_;
  std::uint32_t iterations_;
  Graph<Vertex, Edge> graph_;
};

}  // namespace pagerank_job

namespace medusa::samples::concurrent {

std::vector<std::unique_ptr<Job>> make_pagerank_jobs(const EdgeList& edges, std::uint32_t count,
                                                     std::uint32_t iterations) {
  auto base = std::make_shared<const Graph<pagerank_job::Vertex, pagerank_job::Edge>>(
      make_graph<pagerank_job::Vertex, pagerank_job::Edge>(edges));
  std::vector<std::unique_ptr<Job>> jobs;
  for (std::uint32_t i = 0; i < count; ++i)
    jobs.push_back(std::make_unique<pagerank_job::Ranking>(edges, base, iterations));
  return jobs;
}

}  // namespace medusa::samples::concurrent
