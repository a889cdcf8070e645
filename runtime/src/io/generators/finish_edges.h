// The options every generator shares: self-loop and duplicate removal, symmetrization, weights.
#pragma once

#include <medusa/io/generators.h>

#include <string>
#include <vector>

namespace medusa::io::detail {

// Turns generated edges into the final edge list. `already_symmetric` says the generator produced
// both directions itself (grid).
EdgeListData finish_edges(VertexId vertex_count, std::vector<VertexId> src, std::vector<VertexId> dst,
                          const GeneratorOptions& options, const std::string& format, bool already_symmetric);

// Throws medusa::Error unless the options make sense (weight range lo <= hi).
void check_generator_options(const GeneratorOptions& options);

}  // namespace medusa::io::detail
