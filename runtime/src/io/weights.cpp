// Weights for unweighted inputs, and the message of a weight its field cannot hold.
#include <medusa/io/weights.h>

#include <medusa/error.h>

#include <algorithm>
#include <cstdio>

namespace medusa::io {
namespace {

// splitmix64: weights must not depend on the standard library's distributions.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

std::string number(double w) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", w);
  return buf;
}

}  // namespace

void set_random_weights(EdgeListData& data, const RandomWeights& random) {
  MEDUSA_REQUIRE(random.lo <= random.hi, "random weights: lo (" + std::to_string(random.lo) +
                                             ") is larger than hi (" + std::to_string(random.hi) + "); set lo <= hi");
  const std::uint64_t span = std::uint64_t{random.hi} - random.lo + 1;
  data.weight.resize(data.src.size());
  for (std::size_t e = 0; e < data.src.size(); ++e) {
    const VertexId a = std::min(data.src[e], data.dst[e]), b = std::max(data.src[e], data.dst[e]);
    data.weight[e] = static_cast<double>(random.lo + mix(random.seed ^ ((std::uint64_t{a} << 32) | b)) % span);
  }
}

void require_weights(EdgeListData& data, const std::string& source, const WeightOptions& options) {
  if (data.weighted() || data.src.empty()) {
    data.weight.resize(data.src.size());  // (an empty input has nothing to fill)
    return;
  }
  if (options.default_weight && options.random)
    throw Error("WeightOptions sets both default_weight and random; set one of them", source.c_str(), 0);
  if (options.random) {
    set_random_weights(data, *options.random);
  } else if (options.default_weight) {
    data.weight.assign(data.src.size(), *options.default_weight);
  } else {
    throw Error("the " + data.format +
                    " file has no edge weights, so the weight field cannot be filled: set "
                    "WeightOptions::default_weight (for example 1) or WeightOptions::random in the "
                    "LoadOptions, use a weighted file, or load the graph without a weight field",
                source.c_str(), 0);
  }
}

void throw_weight_error(const EdgeListData& data, EdgeIndex e, const std::string& source,
                        const std::string& type_name, const char* why) {
  throw Error("edge " + std::to_string(e) + " (" + std::to_string(data.src[e]) + " -> " +
               std::to_string(data.dst[e]) + ", vertices counted from 0) has weight " +
               number(data.weight[e]) + ", which the edge field (" + type_name + ") cannot hold: it " + why +
                  ". Correct the file, give the field a type that holds the weight (float, double or a "
                  "signed integer), or load the weights through a callback (Edge& e, double w)",
              source.c_str(), 0);
}

}  // namespace medusa::io
