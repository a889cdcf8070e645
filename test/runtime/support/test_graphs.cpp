#include "test_graphs.h"

#include "random_graph.h"

#include <memory>

namespace medusa_test {

namespace {
std::unique_ptr<EdgeList> load_shared(const char* file) {
  const std::string path = shared_graph(file);
  if (path.empty()) return nullptr;
  return std::make_unique<EdgeList>(read_matrix_market(path));
}
}  // namespace

std::vector<NamedGraph> integration_graphs(bool with_road) {
  static const std::unique_ptr<EdgeList> karate = load_shared("karate.mtx");
  static const EdgeList random = random_graph(3000, 24000, 42);
  std::vector<NamedGraph> graphs{{"karate", karate.get()}, {"random-3000", &random}};
  if (with_road) {
    static const std::unique_ptr<EdgeList> road = load_shared("road-NY.mtx.xz");
    graphs.push_back({"road-NY", road.get()});
  }
  return graphs;
}

std::string missing_graph_message(const std::string& name) {
  const std::string dir = graph_dir();
  return name + " skipped: not found in " +
         (dir.empty() ? std::string("the shared graph folder (MEDUSA_TEST_GRAPH_DIR is absent)") : dir);
}

}  // namespace medusa_test

namespace medusa_test {

int test_gpus() {
  const char* v = std::getenv("MEDUSA_TEST_GPUS");
  const int n = v ? std::atoi(v) : 1;
  return n >= 1 ? n : 1;
}

int test_mpi_ranks() {
  const char* ranks = std::getenv("MEDUSA_TEST_MPI_RANKS");
  return ranks == nullptr ? 0 : std::atoi(ranks);
}

std::vector<PartitionCase> partition_cases(bool multi_hop) {
  if (const int ranks = test_mpi_ranks(); ranks > 0) {
    PartitionCase per_rank{"one partition per MPI rank", 1, 1, medusa::PartitionMethod::Auto};
    PartitionCase two_per_rank{"two partitions per MPI rank", 2 * ranks, multi_hop ? 2u : 1u,
                               medusa::PartitionMethod::Contiguous};
    per_rank.distributed = two_per_rank.distributed = true;
    return {per_rank, two_per_rank};
  }
  std::vector<PartitionCase> cases = {
      {"1 partition", 1, 1, medusa::PartitionMethod::Auto},
      {"1 partition, vertices in degree order", 1, 1, medusa::PartitionMethod::Auto, medusa::VertexOrder::Degree},
      {"2 partitions", 2, 1, medusa::PartitionMethod::Auto},
      {"3 partitions", 3, 1, medusa::PartitionMethod::Auto},
      {"4 contiguous partitions", 4, 1, medusa::PartitionMethod::Contiguous},
      {"2 partitions, owned vertices in degree order", 2, 1, medusa::PartitionMethod::Auto,
       medusa::VertexOrder::Degree},
  };
  if (multi_hop) {
    cases.push_back({"2 partitions, 2-hop replicas", 2, 2, medusa::PartitionMethod::Auto});
    cases.push_back({"3 partitions, 3-hop replicas", 3, 3, medusa::PartitionMethod::Contiguous});
    cases.push_back({"2 partitions, hops from the cost model", 2, 0, medusa::PartitionMethod::Auto});
    cases.push_back({"3 partitions, 2-hop replicas, owned vertices in degree order", 3, 2,
                     medusa::PartitionMethod::Contiguous, medusa::VertexOrder::Degree});
  }
  return cases;
}

}  // namespace medusa_test
