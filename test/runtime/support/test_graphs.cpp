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
