#include "layout_cpu.h"

#include "../common/sample_cli.h"

#include <cmath>
#include <cstdio>

std::vector<LayoutPoint> initial_layout(unsigned int n, unsigned int seed, float frame) {
  std::vector<LayoutPoint> p(n);
  unsigned long long state = 0x9e3779b97f4a7c15ull ^ seed;
  auto next = [&]() {  // splitmix64, 24 bits
    unsigned long long z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return static_cast<float>((z ^ (z >> 31)) >> 40) / 16777216.0f;
  };
  for (auto& q : p) {
    q.x = next() * frame;
    q.y = next() * frame;
  }
  return p;
}

LayoutQuality layout_quality(const std::vector<LayoutPoint>& p, const std::vector<unsigned char>& adjacent, float frame) {
  LayoutQuality q;
  const std::size_t n = p.size();
  double edge_sum = 0, other_sum = 0;
  std::size_t edges = 0, others = 0;
  for (std::size_t u = 0; u < n; ++u) {
    if (!std::isfinite(p[u].x) || !std::isfinite(p[u].y) || p[u].x < 0 || p[u].y < 0 || p[u].x > frame ||
        p[u].y > frame)
      q.inside = false;
    for (std::size_t w = u + 1; w < n; ++w) {
      const double d = std::hypot(double(p[u].x) - p[w].x, double(p[u].y) - p[w].y);
      if (adjacent[u * n + w]) edge_sum += d, ++edges;
      else other_sum += d, ++others;
    }
  }
  q.mean_edge_length = edges ? edge_sum / edges : 0;
  q.mean_other_distance = others ? other_sum / others : 0;
  return q;
}

std::vector<std::string> check_layout(const LayoutQuality& before, const LayoutQuality& after) {
  std::vector<std::string> problems;
  if (!after.inside) problems.push_back("a position is not finite or lies outside the frame");
  if (!(after.mean_edge_length < 0.5 * before.mean_edge_length))
    problems.push_back("mean edge length " + std::to_string(after.mean_edge_length) + " is not below half the start's " +
                       std::to_string(before.mean_edge_length));
  if (!(after.mean_edge_length < 0.7 * after.mean_other_distance))
    problems.push_back("neighbours (mean " + std::to_string(after.mean_edge_length) +
                       ") are not clearly closer than non-neighbours (mean " + std::to_string(after.mean_other_distance) +
                       ", limit 0.7 x)");
  return problems;
}

bool write_svg(const std::string& path, const std::vector<LayoutPoint>& p, const std::vector<unsigned int>& src,
               const std::vector<unsigned int>& dst, float frame) {
  if (!medusa::samples::reports_here()) return true;  // (rank 0 has the input's edges and writes the picture)
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (!out) {
    std::fprintf(stderr, "cannot write %s\n", path.c_str());
    return false;
  }
  const float margin = 20.0f, size = frame + 2 * margin;
  std::fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n",
               size, size, size, size);
  std::fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n<g stroke=\"#8899aa\" stroke-width=\"1.5\">\n");
  for (std::size_t e = 0; e < src.size(); ++e)
    std::fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", p[src[e]].x + margin,
                 p[src[e]].y + margin, p[dst[e]].x + margin, p[dst[e]].y + margin);
  std::fprintf(out, "</g>\n<g fill=\"#d9534f\" stroke=\"#333\" font-family=\"sans-serif\" font-size=\"11\">\n");
  for (std::size_t v = 0; v < p.size(); ++v)
    std::fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"7\"/><text x=\"%.1f\" y=\"%.1f\" stroke=\"none\" fill=\"#222\">%zu</text>\n",
                 p[v].x + margin, p[v].y + margin, p[v].x + margin + 9, p[v].y + margin + 4, v);
  std::fprintf(out, "</g>\n</svg>\n");
  return std::fclose(out) == 0;
}
