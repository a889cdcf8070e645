// What both connected-components programs (cc.cpp, cc_lp.cpp) do with their labels: --output, and
// --validate against the union-find reference (cc_cpu.h). Returns main's exit status.
#pragma once

#include "../common/sample_cli.h"
#include "cc_cpu.h"

#include <cstdio>
#include <vector>

namespace medusa::samples {

template <class Label>
int report_components(const Options& opt, const EdgeList& edges, VertexId vertex_count, const Label& label) {
  if (!opt.output.empty() && !write_results(opt.output, vertex_count, label)) return 1;
  if (!opt.validate) return 0;
  // Both follow out-edges only: on a directed graph their labels are not components.
  if (const std::int64_t e = edge_without_reverse(edges); e >= 0) {
    std::printf("validation: FAILED (component = smallest vertex id): the graph is not symmetric (edge %u -> %u "
                "has no reverse), and components need both directions: rerun with --symmetrize\n",
                edges.src[e], edges.dst[e]);
    return 1;
  }
  const std::vector<std::uint32_t> expected = components_cpu(edges.vertex_count, edges.src, edges.dst);
  return validate_vertices("component = smallest vertex id, vs union-find, exact", vertex_count, label,
                           [&](VertexId v) { return expected[v]; });
}

}  // namespace medusa::samples
