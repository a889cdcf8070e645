// Edge weights of a loaded edge list: what an unweighted input's edges weigh (only what the program
// asks for), and the checked conversion of a weight to the type of the field that receives it.
#pragma once

#include <medusa/io/graph_file.h>
#include <medusa/types.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

namespace medusa::io {

// Integer weights drawn uniformly from [lo, hi]. Each depends on the seed and the edge's two
// endpoints only, so both directions of an undirected edge weigh the same.
struct RandomWeights {
  std::uint64_t seed = 1;
  std::uint32_t lo = 1, hi = 255;
};

// For an input without weights: every edge weighs default_weight, or a random weight. Set at most
// one; with neither, a weight field cannot be filled and loading it is an error. An input with
// weights always keeps its own.
struct WeightOptions {
  std::optional<double> default_weight;
  std::optional<RandomWeights> random;
};

// Makes data weighted: leaves the input's own weights, else fills them as `options` asks, else
// throws medusa::Error saying that `source` has no weights. Errors about weights read
// "<source>:0: ..." (line 0: the file as a whole, as graph_file.h's errors do).
void require_weights(EdgeListData& data, const std::string& source, const WeightOptions& options);

// Sets data.weight to random weights (replacing any the input had).
void set_random_weights(EdgeListData& data, const RandomWeights& random);

// "unsigned 32-bit integer", "float", ...: for messages.
template <class T>
std::string weight_type_name() {
  if constexpr (std::is_floating_point_v<T>)
    return std::is_same_v<T, float> ? "float" : std::is_same_v<T, double> ? "double" : "long double";
  else
    return std::string(std::is_signed_v<T> ? "signed " : "unsigned ") + std::to_string(sizeof(T) * 8) +
           "-bit integer";
}

// Throws medusa::Error: edge e of `source` has a weight that a field of type `type_name` cannot
// hold, because it `why` ("is negative", "is not an integer", ...).
[[noreturn]] void throw_weight_error(const EdgeListData& data, EdgeIndex e, const std::string& source,
                                     const std::string& type_name, const char* why);

// Edge e's weight as a T: an integer type takes only whole numbers within its range (no silent
// truncation or wrap-around), a floating-point type any weight it can represent.
template <class T>
T weight_as(const EdgeListData& data, EdgeIndex e, const std::string& source) {
  static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>,
                "the weight field must be an integer or floating-point type (or use a callback)");
  const double w = data.weight[e];
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isfinite(w) && std::fabs(w) > static_cast<double>(std::numeric_limits<T>::max()))
      throw_weight_error(data, e, source, weight_type_name<T>(), "is too large");
    return static_cast<T>(w);
  } else {
    if (w < 0 && !std::is_signed_v<T>) throw_weight_error(data, e, source, weight_type_name<T>(), "is negative");
    if (!std::isfinite(w) || w != std::trunc(w))
      throw_weight_error(data, e, source, weight_type_name<T>(), "is not an integer");
    // 2^digits is exact in a double; every whole number below it (and at or above -2^digits for
    // signed types) fits.
    const double limit = std::ldexp(1.0, std::numeric_limits<T>::digits);
    if (w >= limit || w < -limit) throw_weight_error(data, e, source, weight_type_name<T>(), "is out of range");
    return static_cast<T>(w);
  }
}

}  // namespace medusa::io
