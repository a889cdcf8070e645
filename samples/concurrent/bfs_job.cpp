// BFS-Q (samples/bfs/bfs_q.cpp) as a job of the concurrent sample: a search from one source in its
// own Session, so that several run at once on one GPU.
#include <medusa/medusa.h>

#include "../bfs/bfs_cpu.h"
#include "jobs.h"

#include <climits>
#include <memory>
#include <string>
#include <vector>

namespace bfs_job {

using namespace medusa;

struct Vertex : VertexBase<unsigned int> {
  unsigned int level;
};
struct Edge : EdgeBase<Vertex> {};

struct Expand {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    unsigned int next = v.level + 1;
    for (unsigned int i = 0; i < el.size(); i++) el[i].sendMsg(next);
  }
};

struct Visit {
  void operator()(Vertex& v) const {
    unsigned int level = v.combined_msg();
    if (level < v.level) {
      v.level = level;
      v.SetActive();
      Continue();
    }
  }
};

void BFS() {
  InitMessageBuffer(UINT_MAX);
  EMV<ELIST>::Run(Expand{}, Active);
  Combiner();
  EMV<VERTEX>::Run(Visit{}, Received);
}

class Search : public samples::concurrent::Job {
 public:
  Search(const samples::EdgeList& edges, std::shared_ptr<const Graph<Vertex, Edge>> base, VertexId source)
      : edges_(edges), base_(std::move(base)), source_(source) {}
  std::string name() const override { return "bfs_q from " + std::to_string(source_); }
  void prepare() override {
    graph_ = *base_;
    for (Vertex& v : graph_.vertices()) v.level = UINT_MAX;
    graph_.vertex(source_).level = 0;
    graph_.ClearActive();
    graph_.SetActive(source_);
  }
  RunStats run(const Config& base) override {
    Config conf = base;
    conf.combinerOpType = MEDUSA_MIN;
    auto device = Init_Device_DS(graph_, conf);
    const RunStats stats = device.Run(BFS);
    device.Dump_Result(graph_);
    return stats;
  }
  int validate() const override {
    const std::vector<std::uint32_t> expected = bfs_cpu(edges_.vertex_count, edges_.src, edges_.dst, source_);
    return samples::validate_vertices(
        name() + ": levels vs queue BFS, exact", graph_.vertex_count(),
        [&](VertexId v) { return graph_.vertex(v).level; }, [&](VertexId v) { return expected[v]; });
  }

 private:
  const samples::EdgeList& edges_;
  std::shared_ptr<const Graph<Vertex, Edge>> base_;
  VertexId source_;
  Graph<Vertex, Edge> graph_;
};

}  // namespace bfs_job

namespace medusa::samples::concurrent {

std::vector<std::unique_ptr<Job>> make_bfs_jobs(const EdgeList& edges, const std::vector<VertexId>& sources) {
  auto base = std::make_shared<const Graph<bfs_job::Vertex, bfs_job::Edge>>(
      make_graph<bfs_job::Vertex, bfs_job::Edge>(edges));
  std::vector<std::unique_ptr<Job>> jobs;
  for (VertexId s : sources) jobs.push_back(std::make_unique<bfs_job::Search>(edges, base, s));
  return jobs;
}

std::string jobs_backend() { return compiled_backend(); }

}  // namespace medusa::samples::concurrent
