// PageRank (the paper's Figure 2) hand-translated as medusa-cc would, checked against a plain CPU
// PageRank. Floats: relative tolerance 1e-4 (summation order differs). Backend-neutral.
#define MEDUSA_GENERATED 1
#include <medusa/medusa.h>

#include "support/cpu_reference.h"
#include "support/emv_launch.h"
#include "support/random_graph.h"
#include "support/scoped_env.h"
#include "support/test_graphs.h"

#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <vector>

namespace pagerank_test {
struct Vertex {
  float rank = 1.0f;
};
struct Edge {};
}  // namespace pagerank_test

template <>
struct medusa::ProgramTraits<pagerank_test::Vertex, pagerank_test::Edge> {
  using Vertex = pagerank_test::Vertex;
  using Edge = pagerank_test::Edge;
  using Message = float;
  struct VertexArrays {
    float* rank;  // read by SendRank, UpdateRank; written by UpdateRank
  };
  struct EdgeArrays {};
  static constexpr std::array<medusa::FieldSpec, 1> vertex_fields{{
      {"rank", offsetof(Vertex, rank), sizeof(float), medusa::kUpload | medusa::kDownload |
       medusa::kEdgeRead}}};
  static constexpr std::array<medusa::FieldSpec, 0> edge_fields{};
  static VertexArrays bind_vertex(void* const* a) { return {static_cast<float*>(a[0])}; }
  static EdgeArrays bind_edge(void* const*) { return {}; }
  static constexpr medusa::ProgramUses uses = medusa::ProgramUses::of(medusa::kUsesMessages);
};

namespace pagerank_test {
using medusa_program = medusa::ProgramTraits<Vertex, Edge>;

namespace medusa_gen_SendRank {
struct Vertex : medusa::VertexHandle<float> {
  float& rank;
};
struct Edge : medusa::EdgeHandle<float> {
  using message_type = float;
  using arrays_type = medusa_program::EdgeArrays;
  static MEDUSA_HD Edge make(const medusa::KernelCtx<float>& c, const arrays_type&,
                             medusa::EdgeIndex e, medusa::VertexId head, medusa::VertexId tail) {
    return Edge{{&c, e, head, tail}};
  }
};
struct SendRank {
  MEDUSA_HD void operator()(Vertex& v, medusa::EdgeList<Edge>& el) const {
    const int edge_count = static_cast<int>(v.edge_count());
    if (edge_count == 0) return;
    const float msg = v.rank / static_cast<float>(edge_count);
    // el.size(), not edge_count: a partition holds only some of a vertex's out-edges.
    for (std::uint32_t i = 0; i < el.size(); i++) el[i].sendMsg(msg);
  }
};
struct SendRank_element {
  SendRank f;
  MEDUSA_HD void operator()(const medusa::KernelCtx<float>& c, const medusa_program::VertexArrays& va,
                            const medusa_program::EdgeArrays& ea, medusa::VertexId id) const {
    Vertex v{{&c, id}, va.rank[id]};
    medusa::EdgeList<Edge> el(&c, &ea, id);
    f(v, el);
  }
};
}  // namespace medusa_gen_SendRank
using SendRank = medusa_gen_SendRank::SendRank;

namespace medusa_gen_UpdateRank {
struct Vertex : medusa::VertexHandle<float> {
  float& rank;
};
struct UpdateRank {
  MEDUSA_HD void operator()(Vertex& v) const { v.rank = 0.15f + 0.85f * v.combined_msg(); }
};
struct UpdateRank_element {
  UpdateRank f;
  MEDUSA_HD void operator()(const medusa::KernelCtx<float>& c, const medusa_program::VertexArrays& va,
                            const medusa_program::EdgeArrays&, medusa::VertexId id) const {
    Vertex v{{&c, id}, va.rank[id]};
    f(v);
  }
};
}  // namespace medusa_gen_UpdateRank
using UpdateRank = medusa_gen_UpdateRank::UpdateRank;

// The paper's iteration function.
void PageRank() {
  medusa::InitMessageBuffer(0);
  medusa::EMV<medusa::ELIST>::Run(SendRank{});
  medusa::Combiner();
  medusa::EMV<medusa::VERTEX>::Run(UpdateRank{});
}
}  // namespace pagerank_test

MEDUSA_TEST_EMV_LAUNCH(pagerank_test::SendRank, ELIST, pagerank_test::medusa_gen_SendRank::SendRank_element, pagerank_test::medusa_program)
MEDUSA_TEST_EMV_LAUNCH(pagerank_test::UpdateRank, VERTEX, pagerank_test::medusa_gen_UpdateRank::UpdateRank_element, pagerank_test::medusa_program)

TEST_CASE("PageRank matches a plain CPU PageRank (karate, random, road-NY)", "[runtime]") {
  using namespace pagerank_test;
  constexpr int kIterations = 10;
  for (const medusa_test::NamedGraph& input : medusa_test::integration_graphs()) {
    if (input.graph == nullptr) {
      WARN(medusa_test::missing_graph_message(input.name));
      continue;
    }
    const medusa_test::EdgeList& el = *input.graph;
    const std::vector<float> expected = medusa_test::pagerank_reference(el, kIterations);
    bool one_partition_fuses = false;
    for (const medusa_test::PartitionCase& pc : medusa_test::partition_cases(/*multi_hop=*/true)) {
      INFO("graph " << input.name << ", " << pc.name);
      medusa::Graph<Vertex, Edge> graph(el.vertex_count);
      graph.SetEdges(el.src, el.dst);
      medusa::Config conf;
      conf.combinerOpType = medusa::MEDUSA_SUM;
      conf.maxIteration = kIterations;
      auto device = medusa::Init_Device_DS(graph, pc.apply(conf));
      const medusa::RunStats stats = device.Run(PageRank);
      CHECK(stats.supersteps == static_cast<std::uint32_t>(kIterations));
      // Outer replicas of a multi-hop run repeat some edges.
      if (device.replication_hops() == 1) CHECK(stats.edges_visited == kIterations * el.src.size());
      // One engine for 1 and k partitions: the fused pull pass runs on every partition (one hop of
      // replicas keeps a vertex's in-edges in one partition) whenever it runs on one.
      if (pc.parts == 1) one_partition_fuses = device.pull_fusion();
      else CHECK(device.pull_fusion() == (one_partition_fuses && device.replication_hops() == 1));
      device.Dump_Result(graph);

      std::size_t mismatches = 0;
      for (medusa::VertexId v = 0; v < el.vertex_count; ++v) {
        const float got = graph.vertex(v).rank;
        if (std::fabs(got - expected[v]) > 1e-4f * std::fabs(expected[v]) + 1e-6f) {
          if (mismatches++ < 5) UNSCOPED_INFO("vertex " << v << ": " << got << " vs " << expected[v]);
        }
      }
      CHECK(mismatches == 0);
    }
  }
}

// VertexOrder::Auto on partitions: a program without a frontier reads every vertex each superstep,
// so a graph with a hub gets each partition's vertices (and replicas) in degree order, and the
// ranks equal the input order's bit for bit.
TEST_CASE("PageRank on 2 partitions: auto orders a hub graph by degree, same ranks bit for bit", "[runtime][partition]") {
  using namespace pagerank_test;
  const medusa_test::EdgeList el = medusa_test::hub_graph(70000, 100000, 4321, 3);
  // (The default combiner: CUB's segmented sums group a row's messages by the row's alignment,
  // which a renumbering moves, so under MEDUSA_COMBINER=cub the last bits may differ.)
  const medusa_test::ScopedEnv combiner("MEDUSA_COMBINER", nullptr);
  std::vector<float> ranks[2];
  for (const medusa::VertexOrder order : {medusa::VertexOrder::Input, medusa::VertexOrder::Auto}) {
    INFO((order == medusa::VertexOrder::Auto ? "auto" : "input"));
    medusa::Graph<Vertex, Edge> graph(el.vertex_count);
    graph.SetEdges(el.src, el.dst);
    medusa::Config conf =
        medusa_test::PartitionCase{"2 contiguous partitions", 2, 1, medusa::PartitionMethod::Contiguous, order}.apply({});
    conf.combinerOpType = medusa::MEDUSA_SUM;
    conf.maxIteration = 3;
    auto device = medusa::Init_Device_DS(graph, conf);
    const bool automatic = order == medusa::VertexOrder::Auto;
    CHECK(device.plan().owned_order == (automatic ? medusa::VertexOrder::Degree : medusa::VertexOrder::Input));
    if (automatic) CHECK_THAT(device.report(), Catch::Contains("by descending degree (auto: no frontier; the top 1%"));
    device.Run(PageRank);
    device.Dump_Result(graph);
    for (medusa::VertexId v = 0; v < el.vertex_count; ++v) ranks[automatic].push_back(graph.vertex(v).rank);
  }
  CHECK(std::memcmp(ranks[0].data(), ranks[1].data(), ranks[0].size() * sizeof(float)) == 0);
}
