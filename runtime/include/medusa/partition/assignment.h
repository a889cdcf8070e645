// Which partition (GPU) each vertex belongs to: METIS k-way, contiguous ID ranges, or a
// gpmetis-format partition file (docs/graph-formats.md, "Partition files").
#pragma once

#include <medusa/config.h>
#include <medusa/topology.h>

#include <cstdint>
#include <string>
#include <vector>

namespace medusa {

struct PartitionAssignment {
  std::uint32_t parts = 1;
  std::vector<std::uint32_t> part_of;  // one entry per vertex, each < parts
  std::string method;                  // "single", "metis k-way", "contiguous", "file <path>"
};

struct PartitionQuality {
  std::uint64_t cut_edges = 0;  // directed edges whose endpoints lie in different parts
  std::vector<std::uint64_t> vertices, edges;  // per part: vertices owned, in-edges of owned vertices
  double vertex_imbalance = 1.0, edge_imbalance = 1.0;  // max / avg (1.0 when the total is 0)
};

// True when Medusa was built with METIS (libmetis-dev found at configure time).
bool metis_available();

// Splits t's vertices into `parts` (>= 1) parts.
// - parts == 1: every vertex in part 0, method "single"; METIS is never called.
// - Metis requested but not built in: throws medusa::Error (checked before the tiny-graph rule, so
//   a missing METIS shows up on small test graphs too).
// - Tiny graphs (fewer than 64 vertices per part, or no edges): Contiguous, even for Metis / Auto.
// - Auto: Metis when available, else Contiguous.
// - Metis: METIS_PartGraphKway on the symmetrised, self-loop-free, duplicate-free graph, balanced
//   by vertices and by in+out degree (two constraints), edge-cut objective, seeded by `seed`.
// - Contiguous: consecutive ID ranges with about equal sum of (1 + in-degree + out-degree).
PartitionAssignment partition_vertices(const Topology& t, std::uint32_t parts, PartitionMethod method,
                                       std::uint64_t seed = 1);

// Cut edges, per-part sizes and imbalance. Throws medusa::Error if `a` does not fit `t`.
PartitionQuality measure_partition(const Topology& t, const PartitionAssignment& a);

// gpmetis' output format: one partition number per line, line i = vertex i. Written to a temporary
// file beside `path` and renamed, so readers never see half a file. Throws medusa::Error.
void save_partition(const std::string& path, const PartitionAssignment& a);

// Reads that format (plain, .gz or .xz by magic bytes). Throws medusa::Error "path:line: ..." for
// a malformed line, a number >= parts, fewer or more lines than vertex_count, or an unreadable file.
PartitionAssignment load_partition(const std::string& path, VertexId vertex_count, std::uint32_t parts);

}  // namespace medusa
