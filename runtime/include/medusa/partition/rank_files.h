// Per-rank partition files: what one rank of a k-rank MPI job needs to run its partition without
// any rank reading the whole graph (docs/multi-gpu.md, "Partition files per rank"). medusa-part
// --rank-files PREFIX writes PREFIX.<r>-of-<k> for r = 0 .. k-1; rank r of the job reads its own
// (Config::partitionFiles). A file holds:
//   header   magic "MDSARANK", format version, k, r, whether the edges carry weights, the graph's id
//            (a hash of its edges and weights), the partitioning's id (the graph's, the
//            assignment's, the hops), the payload's size and checksum;
//   payload  the plan's header (parts, hops, vertex order, method, the whole graph's counts); per
//            partition p its layout (plan.h: write_layout), whole for p = r, else its sizes and the
//            routes rank r sends along (sizes_and_routes); then partition r's local edges in local
//            CSR order as the user's graph holds them: global source, target, and weight.
#pragma once

#include <medusa/io/graph_file.h>
#include <medusa/partition/assignment.h>
#include <medusa/partition/plan.h>
#include <medusa/topology.h>

#include <cstdint>
#include <string>
#include <vector>

namespace medusa {

// 2: layouts carry owned out-rows; 3: and neighbour rows (empty in files: a program that reads
// neighbour sets is refused partition files)
inline constexpr std::uint32_t kRankFileVersion = 3;

struct RankFileHeader {
  std::uint32_t version = kRankFileVersion;
  std::uint32_t ranks = 0, rank = 0;
  bool weighted = false;
  std::uint64_t graph_id = 0, partitioning_id = 0;
  std::uint64_t payload_bytes = 0, payload_checksum = 0;
};

// "<prefix>.<rank>-of-<ranks>"
std::string rank_file_name(const std::string& prefix, std::uint32_t rank, std::uint32_t ranks);

// What medusa-part reports of the files it wrote.
struct RankFilesWritten {
  std::vector<std::string> paths;
  std::vector<std::uint64_t> bytes;  // per file
  std::uint64_t graph_id = 0;
};

// Lays out `a.parts` partitions of the graph `data` (its topology `t`) with one hop of replicas and
// the owned vertices in ascending ID order, and writes one file per partition (= per rank), each
// made beside its target and renamed. Throws medusa::Error naming the file that failed.
// `owned_rows`: the layouts hold each owned vertex's whole out-row (PartitionLayout::owned_row_offsets),
// which programs with in-edge functors (InEdgeList) need.
RankFilesWritten write_rank_files(const std::string& prefix, const io::EdgeListData& data, const Topology& t,
                                  const PartitionAssignment& a, bool owned_rows = false);

enum class RankFilePart { Plan, Edges };

// One rank's file as read: the plan (Plan: every partition, this rank's held) or its partition's
// local edges (Edges: in local CSR order, global IDs; weights when the file has them).
struct RankFile {
  std::string path;
  RankFileHeader header;
  PartitionPlan plan;       // (Plan)
  io::EdgeListData edges;   // (Edges; vertex_count is the whole graph's)
};

// Reads rank `rank`'s file of an N-rank job (`ranks`) made with `prefix`. Throws medusa::Error
// naming the file and the rank: a missing file (and, when there are files for another number of
// ranks, how many), not a partition file, another format version, a file made for another rank or
// number of ranks, a damaged payload (checksum).
RankFile read_rank_file(const std::string& prefix, std::uint32_t rank, std::uint32_t ranks, RankFilePart part);

}  // namespace medusa
