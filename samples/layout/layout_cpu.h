// Layout helpers written without Medusa: the seeded start positions, a quality measure, the checks
// --validate applies, and the SVG writer.
#pragma once

#include <string>
#include <vector>

struct LayoutPoint {
  float x, y;
};

// Seeded start positions spread uniformly over the frame.
std::vector<LayoutPoint> initial_layout(unsigned int n, unsigned int seed, float frame);

struct LayoutQuality {
  bool inside = true;              // every coordinate finite and within [0, frame]
  double mean_edge_length = 0;     // over pairs adjacent in the input
  double mean_other_distance = 0;  // over pairs not adjacent
};
LayoutQuality layout_quality(const std::vector<LayoutPoint>& p, const std::vector<unsigned char>& adjacent, float frame);

// What a force-directed layout must achieve: positions in the frame; the mean edge length below
// half of the start's and below 0.7 x the mean distance of non-adjacent pairs. Returns the failures.
std::vector<std::string> check_layout(const LayoutQuality& before, const LayoutQuality& after);

// The picture (--output); in a distributed run rank 0 alone writes it.
bool write_svg(const std::string& path, const std::vector<LayoutPoint>& p, const std::vector<unsigned int>& src,
               const std::vector<unsigned int>& dst, float frame);
