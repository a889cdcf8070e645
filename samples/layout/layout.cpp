// Force-directed graph layout (Fruchterman-Reingold), the Medusa overview paper's visualization
// workload. FR needs every pair of vertices to repel, so the program runs on the complete
// "layout graph": an edge u -> v for every pair, flagged `real` where the input has one. Each
// superstep every vertex broadcasts its position (ELIST); every vertex reads all positions it
// received (MLIST), is pushed away from all of them and pulled towards real neighbours, and moves
// at most the current temperature. Writes an SVG picture with --output <file>.svg.
#include <medusa/medusa.h>

#include "../common/sample_cli.h"
#include "layout_cpu.h"

#include <cmath>
#include <cstdio>
#include <string>

using namespace medusa;

struct Position {
  float x, y;
  unsigned int real;  // 1 if the edge it travelled along is an edge of the input graph
};
struct Vertex : VertexBase<Position> {
  float x, y;
};
struct Edge : EdgeBase<Vertex> {
  unsigned int real;
};

constexpr float kFrame = 1000.0f;  // the layout lives in [0, kFrame]^2

/* ELIST API: tell every other vertex where this one is */
struct Broadcast {
  void operator()(Vertex& v, EdgeList<Edge>& el) const {
    for (unsigned int i = 0; i < el.size(); i++) el[i].sendMsg(Position{v.x, v.y, el[i].real});
  }
};

/* MLIST API: sum the forces from every other vertex and move */
struct Displace {
  float ideal;        // ideal edge length k
  float temperature;  // largest move in the first superstep
  unsigned int steps;
  void operator()(Vertex& v, MessageList<Position>& ml) const {
    float fx = 0.0f, fy = 0.0f;
    for (unsigned int i = 0; i < ml.size(); i++) {
      const Position p = ml[i];
      const float dx = v.x - p.x, dy = v.y - p.y;
      const float d = std::sqrt(dx * dx + dy * dy) + 0.01f;
      float push = ideal * ideal / d;  // repulsion k^2/d
      if (p.real) push -= d * d / ideal;  // attraction d^2/k along real edges
      fx += dx / d * push;
      fy += dy / d * push;
    }
    const float length = std::sqrt(fx * fx + fy * fy) + 1e-6f;
    const float cool = temperature * (1.0f - static_cast<float>(Superstep()) / static_cast<float>(steps));
    const float move = length < cool ? length : cool;
    v.x = std::fmin(kFrame, std::fmax(0.0f, v.x + fx / length * move));
    v.y = std::fmin(kFrame, std::fmax(0.0f, v.y + fy / length * move));
  }
};

static Displace g_displace{1.0f, 1.0f, 1};

void LayoutStep() {
  InitMessageBuffer(Position{0.0f, 0.0f, 0});
  EMV<ELIST>::Run(Broadcast{});
  EMV<MLIST>::Run(g_displace);
}

int main(int argc, char** argv) try {
  samples::Options opt = samples::parse_options(
      argc, argv, "Force-directed layout (Fruchterman-Reingold) of a small graph; --output picture.svg");
  const samples::EdgeList input = samples::load_edges(opt);
  std::printf("%s\n", input.description.c_str());
  const VertexId n = input.vertex_count;
  if (n < 2 || n > 3000) {
    std::fprintf(stderr, "layout: needs 2 to 3000 vertices (the layout graph has n^2 edges), got %u\n", n);
    return 2;
  }

  // The complete layout graph, with the input's edges (either direction) flagged.
  std::vector<unsigned char> adjacent(static_cast<std::size_t>(n) * n, 0);
  for (std::size_t e = 0; e < input.src.size(); ++e) {
    adjacent[static_cast<std::size_t>(input.src[e]) * n + input.dst[e]] = 1;
    adjacent[static_cast<std::size_t>(input.dst[e]) * n + input.src[e]] = 1;
  }
  Graph<Vertex, Edge> my_graph;
  const std::vector<LayoutPoint> start = initial_layout(n, static_cast<unsigned int>(opt.seed), kFrame);
  for (VertexId v = 0; v < n; ++v) {
    Vertex x{};
    x.x = start[v].x;
    x.y = start[v].y;
    my_graph.AddVertex(x);
  }
  for (VertexId u = 0; u < n; ++u)
    for (VertexId w = 0; w < n; ++w)
      if (u != w) {
        Edge e{};
        e.real = adjacent[static_cast<std::size_t>(u) * n + w];
        my_graph.AddEdge(u, w, e);
      }

  const unsigned int steps = opt.iterations ? opt.iterations : 300;
  g_displace = Displace{kFrame / std::sqrt(static_cast<float>(n)) * 0.5f, kFrame / 10.0f, steps};
  Config conf;
  samples::configure(conf, opt);  // --gpus, partitions, --verbose
  conf.maxIteration = steps;
  auto device = Init_Device_DS(my_graph, conf);
  RunStats stats = device.Run(LayoutStep);
  device.Dump_Result(my_graph);
  samples::print_summary("layout", stats, my_graph.edge_count());

  std::vector<LayoutPoint> placed(n);
  for (VertexId v = 0; v < n; ++v) placed[v] = {my_graph.vertex(v).x, my_graph.vertex(v).y};
  if (!opt.output.empty() && !write_svg(opt.output, placed, input.src, input.dst, kFrame)) return 1;
  if (!opt.validate) return 0;
  const LayoutQuality before = layout_quality(start, adjacent, kFrame);
  const LayoutQuality after = layout_quality(placed, adjacent, kFrame);
  std::printf("layout: mean edge length %.1f (start %.1f), mean distance of other pairs %.1f\n",
              after.mean_edge_length, before.mean_edge_length, after.mean_other_distance);
  std::vector<std::string> problems = check_layout(before, after);
  return samples::report_validation("positions in the frame, edges under half their start length and 0.7 x other distances",
                                    problems.size(), problems);
} catch (const std::exception& e) {  // a bad graph file, too little device memory, ...
  return print_error(e);
}
