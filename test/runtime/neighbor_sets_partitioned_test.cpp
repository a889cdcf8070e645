// Neighbour sets (neighbor_sets.h) on k partitions and MPI ranks, as medusa-cc emits them, written
// by hand: every edge u -> w of a directed graph (a hub, self loops) sends w a value of
// N(u) ∩ N(w) and of both rows (a size, a sum of IDs, the common IDs), from a
// thread-per-vertex ELIST and from an edge-parallel one. Each partition case equals a plain CPU
// computation, so k partitions equal one. Backend-neutral.
#define MEDUSA_GENERATED 1
#include <medusa/medusa.h>

#include "support/emv_launch.h"
#include "support/random_graph.h"
#include "support/test_graphs.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <iterator>
#include <vector>

namespace nbr_parts_test {
struct Vertex {
  unsigned long long heard = 0;
};
struct Edge {};

// What edge u -> w sends: the common IDs' (x + 1)^2, their count, |N(u)| and the sum of N(w)'s
// IDs (operator[]; the order of a row is the engine's, so only order-free values), mixed so that a
// wrong row, a local ID or a missed common ID changes it.
MEDUSA_HD inline unsigned long long edge_value(unsigned long long common_squares, std::uint32_t common,
                                               std::uint32_t head_size, unsigned long long tail_sum) {
  return common_squares + 7ULL * common + 1000003ULL * head_size + 10007ULL * tail_sum;
}
}  // namespace nbr_parts_test

template <>
struct medusa::ProgramTraits<nbr_parts_test::Vertex, nbr_parts_test::Edge> {
  using Vertex = nbr_parts_test::Vertex;
  using Edge = nbr_parts_test::Edge;
  using Message = unsigned long long;
  struct VertexArrays {
    unsigned long long* heard;
  };
  struct EdgeArrays {};
  static constexpr std::array<medusa::FieldSpec, 1> vertex_fields{{
      {"heard", offsetof(Vertex, heard), sizeof(unsigned long long), medusa::kDownload},
  }};
  static constexpr std::array<medusa::FieldSpec, 0> edge_fields{};
  static VertexArrays bind_vertex(void* const* a) { return {static_cast<unsigned long long*>(a[0])}; }
  static EdgeArrays bind_edge(void* const*) { return {}; }
  static constexpr medusa::ProgramUses uses = medusa::ProgramUses::of(
      medusa::kUsesMessages | medusa::kUsesCombinerConsumesSlots | medusa::kUsesNeighborSets);
};

namespace nbr_parts_test {
using Program = medusa::ProgramTraits<Vertex, Edge>;
using Ctx = medusa::KernelCtx<unsigned long long>;
namespace gen {
struct VertexProxy : medusa::VertexHandle<unsigned long long> {};
struct HeardProxy : medusa::VertexHandle<unsigned long long> {
  unsigned long long& heard;
};
struct EdgeProxy : medusa::EdgeHandle<unsigned long long> {
  using message_type = unsigned long long;
  using arrays_type = Program::EdgeArrays;
  MEDUSA_HD static EdgeProxy make(const Ctx& c, const Program::EdgeArrays&, medusa::EdgeIndex e,
                                  medusa::VertexId head, medusa::VertexId tail) {
    return EdgeProxy{{&c, e, head, tail}};
  }
};
MEDUSA_HD inline unsigned long long value_of(const VertexProxy& v, const EdgeProxy& e) {
  unsigned long long squares = 0;
  medusa::for_each_common(e.head_neighbors(), e.tail_neighbors(),
                          [&](medusa::VertexId x) { squares += (x + 1ULL) * (x + 1ULL); });
  const medusa::NeighborSet tail = e.tail_neighbors();
  unsigned long long tail_sum = 0;
  for (std::uint32_t i = 0; i < tail.size(); ++i) tail_sum += tail[i];
  return edge_value(squares, medusa::intersect_count(v.neighbors(), tail), v.neighbors().size(), tail_sum);
}
// One thread per vertex, over its edges.
struct Weigh {
  MEDUSA_HD void operator()(VertexProxy& v, medusa::EdgeList<EdgeProxy>& el) const {
    for (unsigned int i = 0; i < el.size(); i++) el[i].sendMsg(value_of(v, el[i]));
  }
};
struct Weigh_element {
  Weigh f;
  MEDUSA_HD void operator()(const Ctx& c, const Program::VertexArrays&, const Program::EdgeArrays& ea,
                            medusa::VertexId id) const {
    VertexProxy v{{&c, id}};
    medusa::EdgeList<EdgeProxy> el(&c, &ea, id);
    f(v, el);
  }
};
// The same, one (vertex, edge) pair per call (medusa-cc's edge-parallel form, as triangles gets).
struct WeighEdges {
  MEDUSA_HD void operator()(VertexProxy&, medusa::EdgeList<EdgeProxy>&) const {}
};
struct WeighEdges_element {
  WeighEdges f;
  MEDUSA_HD void operator()(const Ctx& c, const Program::VertexArrays&, const Program::EdgeArrays& ea,
                            medusa::VertexId id, std::uint32_t i) const {
    VertexProxy v{{&c, id}};
    medusa::EdgeList<EdgeProxy> el(&c, &ea, id);
    el[i].sendMsg(value_of(v, el[i]));
  }
};
struct Store {
  MEDUSA_HD void operator()(HeardProxy& v) const { v.heard = v.combined_msg(); }
};
struct Store_element {
  Store f;
  MEDUSA_HD void operator()(const Ctx& c, const Program::VertexArrays& va, const Program::EdgeArrays&,
                            medusa::VertexId id) const {
    HeardProxy v{{&c, id}, va.heard[id]};
    f(v);
  }
};
}  // namespace gen
using Weigh = gen::Weigh;
using WeighEdges = gen::WeighEdges;
using Store = gen::Store;
}  // namespace nbr_parts_test

MEDUSA_TEST_EMV_LAUNCH(nbr_parts_test::Weigh, ELIST, nbr_parts_test::gen::Weigh_element, nbr_parts_test::Program)
MEDUSA_TEST_EMV_EDGES_LAUNCH(nbr_parts_test::WeighEdges, nbr_parts_test::gen::WeighEdges_element,
                             nbr_parts_test::Program)
MEDUSA_TEST_EMV_LAUNCH(nbr_parts_test::Store, VERTEX, nbr_parts_test::gen::Store_element, nbr_parts_test::Program)

namespace nbr_parts_test {
void per_vertex() {
  medusa::InitMessageBuffer(0ULL);
  medusa::EMV<medusa::ELIST>::Run(Weigh{});
  medusa::Combiner();
  medusa::EMV<medusa::VERTEX>::Run(Store{});
}
void per_edge() {
  medusa::InitMessageBuffer(0ULL);
  medusa::EMV<medusa::ELIST>::Run(WeighEdges{});
  medusa::Combiner();
  medusa::EMV<medusa::VERTEX>::Run(Store{});
}
}  // namespace nbr_parts_test

namespace {
constexpr medusa::VertexId kVertices = 400;

// A random directed graph without repeated edges, with self loops and a hub (vertex 17 -> every
// third vertex) whose row is long enough for binary-search intersections.
medusa_test::EdgeList neighbour_graph() {
  medusa_test::EdgeList g = medusa_test::random_graph(kVertices, 5000, 23);
  for (medusa::VertexId v = 0; v < kVertices; v += 3) g.src.push_back(17), g.dst.push_back(kVertices - 1 - v);
  std::vector<std::pair<medusa::VertexId, medusa::VertexId>> pairs;
  for (std::size_t e = 0; e < g.src.size(); ++e) pairs.emplace_back(g.src[e], g.dst[e]);
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  std::reverse(pairs.begin(), pairs.end());  // (rows out of order in the input)
  g.src.clear(), g.dst.clear();
  for (const auto& [u, w] : pairs) g.src.push_back(u), g.dst.push_back(w);
  return g;
}

// The CPU's answer: sorted rows and std::set_intersection.
std::vector<unsigned long long> expected_heard(const medusa_test::EdgeList& g) {
  std::vector<std::vector<medusa::VertexId>> row(kVertices);
  for (std::size_t e = 0; e < g.src.size(); ++e) row[g.src[e]].push_back(g.dst[e]);
  for (auto& r : row) std::sort(r.begin(), r.end());
  std::vector<unsigned long long> heard(kVertices, 0);
  for (std::size_t e = 0; e < g.src.size(); ++e) {
    const std::vector<medusa::VertexId>&nu = row[g.src[e]], &nw = row[g.dst[e]];
    std::vector<medusa::VertexId> common;
    std::set_intersection(nu.begin(), nu.end(), nw.begin(), nw.end(), std::back_inserter(common));
    unsigned long long squares = 0;
    for (medusa::VertexId x : common) squares += (x + 1ULL) * (x + 1ULL);
    unsigned long long tail_sum = 0;
    for (medusa::VertexId x : nw) tail_sum += x;
    heard[g.dst[e]] += nbr_parts_test::edge_value(squares, static_cast<std::uint32_t>(common.size()),
                                                  static_cast<std::uint32_t>(nu.size()), tail_sum);
  }
  return heard;
}
}  // namespace

TEST_CASE("Neighbour sets on k partitions and MPI ranks read whole rows in global IDs, as one partition",
          "[runtime][neighbor-sets]") {
  const medusa_test::EdgeList el = neighbour_graph();
  const std::vector<unsigned long long> want = expected_heard(el);
  for (void (*iteration)() : {nbr_parts_test::per_vertex, nbr_parts_test::per_edge}) {
    for (const medusa_test::PartitionCase& pc : medusa_test::partition_cases(/*multi_hop=*/true)) {
      INFO(pc.name << (iteration == nbr_parts_test::per_vertex ? ", thread per vertex" : ", edge-parallel"));
      medusa::Graph<nbr_parts_test::Vertex, nbr_parts_test::Edge> g(kVertices);
      g.SetEdges(el.src, el.dst);
      medusa::Config conf;
      conf.combinerOpType = medusa::MEDUSA_SUM;
      conf.maxIteration = 1;
      auto device = medusa::Init_Device_DS(g, pc.apply(conf));
      device.Run(iteration);
      device.Dump_Result(g);
      std::size_t wrong = 0;
      for (medusa::VertexId v = 0; v < kVertices; ++v) wrong += g.vertex(v).heard != want[v];
      CHECK(wrong == 0);
    }
  }
}

#if defined(MEDUSA_BACKEND_HOST)
// Partition files hold no whole rows: a run from them says so.
TEST_CASE("Neighbour sets from per-rank partition files are refused with the reason", "[runtime][neighbor-sets]") {
  medusa::Config conf;
  conf.distributed = true;
  conf.gpuCount = 2;
  conf.partitionFiles = "graph";
  CHECK_THROWS_WITH(medusa::common::check_rank_file_run<nbr_parts_test::Program>(conf, 2),
                    Catch::Contains("the program reads neighbour sets") &&
                        Catch::Contains("run it without partition files"));
}
#endif
