// Per-rank partition files (partition/rank_files.h): written by medusa-part --rank-files, read by
// each rank of a job run with Config::partitionFiles.
#include <medusa/error.h>
#include <medusa/partition/rank_files.h>
#include <medusa/transport/byte_block.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <glob.h>
#include <unistd.h>

namespace medusa {

namespace {

constexpr char kMagic[8] = {'M', 'D', 'S', 'A', 'R', 'A', 'N', 'K'};
constexpr const char* kBlock = "partition file";
// magic, version, ranks, rank, flags, graph id, partitioning id, payload bytes, payload checksum
constexpr std::size_t kHeaderBytes = 8 + 4 * 4 + 4 * 8;

// FNV-1a, 64 bits: the graph's and the partitioning's ids, and the payload's checksum.
struct Fnv {
  std::uint64_t value = 1469598103934665603ull;
  void add(const void* data, std::size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < bytes; ++i) value = (value ^ p[i]) * 1099511628211ull;
  }
  template <class T>
  void add_array(const std::vector<T>& values) {
    const std::uint64_t n = values.size();
    add(&n, sizeof n);
    add(values.data(), values.size() * sizeof(T));
  }
};

std::uint64_t graph_id_of(const io::EdgeListData& data) {
  Fnv h;
  h.add(&data.vertex_count, sizeof data.vertex_count);
  h.add_array(data.src);
  h.add_array(data.dst);
  h.add_array(data.weight);
  return h.value;
}

std::uint64_t partitioning_id_of(std::uint64_t graph_id, const PartitionAssignment& a, std::uint32_t hops,
                                 bool owned_rows) {
  Fnv h;
  h.add(&graph_id, sizeof graph_id);
  h.add(&a.parts, sizeof a.parts);
  h.add(&hops, sizeof hops);
  const std::uint8_t rows = owned_rows ? 1 : 0;
  h.add(&rows, sizeof rows);
  h.add_array(a.part_of);
  return h.value;
}

std::vector<std::byte> header_bytes(const RankFileHeader& h) {
  std::vector<std::byte> out;
  transport::put(out, kMagic, sizeof kMagic);
  const std::uint32_t words[4] = {h.version, h.ranks, h.rank, h.weighted ? 1u : 0u};
  transport::put(out, words, 4);
  const std::uint64_t longs[4] = {h.graph_id, h.partitioning_id, h.payload_bytes, h.payload_checksum};
  transport::put(out, longs, 4);
  return out;
}

// One file being written: the payload goes out as it is made, the header last (its checksum).
class RankFileWriter {
 public:
  RankFileWriter(std::string path, RankFileHeader header) : path_(std::move(path)), header_(header) {
    temp_ = path_ + ".tmp." + std::to_string(static_cast<long>(::getpid()));
    file_ = std::fopen(temp_.c_str(), "wb");
    if (!file_) throw Error(std::string("cannot write partition file: ") + std::strerror(errno), path_.c_str(), 0);
    write(header_bytes(header_), false);  // (a placeholder until the checksum is known)
  }
  ~RankFileWriter() {
    if (file_) {
      std::fclose(file_);
      std::remove(temp_.c_str());
    }
  }
  RankFileWriter(const RankFileWriter&) = delete;
  RankFileWriter& operator=(const RankFileWriter&) = delete;

  void append(const std::vector<std::byte>& bytes) {
    write(bytes, true);
    header_.payload_bytes += bytes.size();
  }
  // Writes the header and moves the file into place; returns its size.
  std::uint64_t finish() {
    header_.payload_checksum = checksum_.value;
    ok_ = ok_ && std::fseek(file_, 0, SEEK_SET) == 0;
    write(header_bytes(header_), false);
    const int saved_errno = errno;
    ok_ = std::fclose(file_) == 0 && ok_;
    file_ = nullptr;
    if (!ok_ || std::rename(temp_.c_str(), path_.c_str()) != 0) {
      const std::string reason = std::strerror(ok_ ? errno : saved_errno);
      std::remove(temp_.c_str());
      throw Error("cannot write partition file: " + reason, path_.c_str(), 0);
    }
    return kHeaderBytes + header_.payload_bytes;
  }

 private:
  void write(const std::vector<std::byte>& bytes, bool payload) {
    ok_ = ok_ && std::fwrite(bytes.data(), 1, bytes.size(), file_) == bytes.size();
    if (payload) checksum_.add(bytes.data(), bytes.size());
  }
  std::string path_, temp_;
  RankFileHeader header_;
  std::FILE* file_ = nullptr;
  Fnv checksum_;
  bool ok_ = true;
};

std::vector<std::byte> plan_header_bytes(const PartitionPlan& p) {
  std::vector<std::byte> out;
  const std::uint64_t words[5] = {p.parts, p.hops, static_cast<std::uint64_t>(p.owned_order), p.global_vertices,
                                  p.global_edges};
  transport::put(out, words, 5);
  const std::vector<char> method(p.method.begin(), p.method.end());
  transport::put_array(out, method);
  return out;
}

// Partition l's local edges as the user's graph of its rank holds them (local CSR order).
std::vector<std::byte> local_edge_bytes(const PartitionLayout& l, const io::EdgeListData& data) {
  std::vector<VertexId> src(l.input_edge.size()), dst(l.input_edge.size());
  std::vector<double> weight(data.weighted() ? l.input_edge.size() : 0);
  for (std::size_t j = 0; j < l.input_edge.size(); ++j) {
    const EdgeIndex e = l.input_edge[j];
    src[j] = data.src[e];
    dst[j] = data.dst[e];
    if (!weight.empty()) weight[j] = data.weight[e];
  }
  std::vector<std::byte> out;
  transport::put_array(out, src);
  transport::put_array(out, dst);
  transport::put_array(out, weight);
  return out;
}

// The rank files that exist for `prefix`, as "<prefix>.0-of-K" names (for a missing file's message).
std::vector<std::string> files_of_other_jobs(const std::string& prefix) {
  glob_t found{};
  std::vector<std::string> names;
  if (::glob((prefix + ".0-of-*").c_str(), 0, nullptr, &found) == 0)
    for (std::size_t i = 0; i < found.gl_pathc; ++i) names.emplace_back(found.gl_pathv[i]);
  ::globfree(&found);
  return names;
}

std::vector<std::byte> read_whole(const std::string& path, std::uint32_t rank, std::uint32_t ranks,
                                  const std::string& prefix) {
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) {
    std::string message = "rank " + std::to_string(rank) + " of " + std::to_string(ranks) +
                          " cannot open its partition file: " + std::strerror(errno);
    const std::vector<std::string> others = files_of_other_jobs(prefix);
    if (!others.empty()) message += " (there is " + others.front() + ": the files were made for another number of ranks)";
    message += "; make the files with medusa-part <graph> -k " + std::to_string(ranks) + " --rank-files " + prefix;
    throw Error(message, path.c_str(), 0);
  }
  std::vector<std::byte> bytes;
  std::byte buffer[1 << 16];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, file.get())) > 0;)
    bytes.insert(bytes.end(), buffer, buffer + n);
  if (std::ferror(file.get()))
    throw Error(std::string("cannot read partition file: ") + std::strerror(errno), path.c_str(), 0);
  return bytes;
}

RankFileHeader check_header(const std::vector<std::byte>& bytes, const std::string& path, std::uint32_t rank,
                            std::uint32_t ranks) {
  const auto fail = [&](const std::string& why) { throw Error(why, path.c_str(), 0); };
  if (bytes.size() < kHeaderBytes || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    fail("not a Medusa partition file (make it with medusa-part --rank-files)");
  std::size_t at = sizeof kMagic;
  RankFileHeader h;
  h.version = transport::get<std::uint32_t>(bytes, at, kBlock);
  if (h.version != kRankFileVersion)
    fail("partition file format version " + std::to_string(h.version) + ", this build reads version " +
         std::to_string(kRankFileVersion) + ": make the files again with this build's medusa-part");
  h.ranks = transport::get<std::uint32_t>(bytes, at, kBlock);
  h.rank = transport::get<std::uint32_t>(bytes, at, kBlock);
  h.weighted = transport::get<std::uint32_t>(bytes, at, kBlock) != 0;
  h.graph_id = transport::get<std::uint64_t>(bytes, at, kBlock);
  h.partitioning_id = transport::get<std::uint64_t>(bytes, at, kBlock);
  h.payload_bytes = transport::get<std::uint64_t>(bytes, at, kBlock);
  h.payload_checksum = transport::get<std::uint64_t>(bytes, at, kBlock);
  if (h.ranks != ranks || h.rank != rank)
    fail("the file was made for rank " + std::to_string(h.rank) + " of " + std::to_string(h.ranks) +
         " ranks, and rank " + std::to_string(rank) + " of " + std::to_string(ranks) + " reads it (was it renamed?)");
  Fnv checksum;
  checksum.add(bytes.data() + kHeaderBytes, bytes.size() - kHeaderBytes);
  if (bytes.size() - kHeaderBytes != h.payload_bytes || checksum.value != h.payload_checksum)
    fail("the partition file is damaged: " + std::to_string(bytes.size() - kHeaderBytes) + " bytes after its header (" +
         std::to_string(h.payload_bytes) + " written), checksum " +
         (checksum.value == h.payload_checksum ? "equal" : "different") + ": make the files again");
  return h;
}

}  // namespace

std::string rank_file_name(const std::string& prefix, std::uint32_t rank, std::uint32_t ranks) {
  return prefix + "." + std::to_string(rank) + "-of-" + std::to_string(ranks);
}

RankFilesWritten write_rank_files(const std::string& prefix, const io::EdgeListData& data, const Topology& t,
                                  const PartitionAssignment& a, bool owned_rows) {
  MEDUSA_REQUIRE(a.parts >= 2, "partition files per rank: a job needs at least 2 ranks, got " + std::to_string(a.parts));
  MEDUSA_REQUIRE(data.edge_count() == t.edge_count && data.vertex_count == t.vertex_count,
                 "write_rank_files: the topology is not the edge list's");
  constexpr std::uint32_t hops = 1;
  RankFilesWritten out;
  out.graph_id = graph_id_of(data);
  RankFileHeader header;
  header.ranks = a.parts;
  header.weighted = data.weighted();
  header.graph_id = out.graph_id;
  header.partitioning_id = partitioning_id_of(out.graph_id, a, hops, owned_rows);
  std::vector<std::unique_ptr<RankFileWriter>> files;
  for (std::uint32_t r = 0; r < a.parts; ++r) {
    header.rank = r;
    out.paths.push_back(rank_file_name(prefix, r, a.parts));
    files.push_back(std::make_unique<RankFileWriter>(out.paths.back(), header));
  }
  PartitionPlan header_only;
  header_only.parts = a.parts;
  header_only.hops = hops;
  header_only.owned_order = VertexOrder::Input;
  header_only.method = a.method;
  header_only.global_vertices = t.vertex_count;
  header_only.global_edges = t.edge_count;
  for (auto& f : files) f->append(plan_header_bytes(header_only));
  std::vector<bool> held(a.parts, false);
  // One layout at a time: each file gets it (whole, or its sizes and routes), then it is dropped.
  build_partition_plan(t, a, hops, VertexOrder::Input, {}, [&](PartitionLayout& l) {
    for (std::uint32_t r = 0; r < a.parts; ++r) {
      std::vector<std::byte> block;
      if (r == l.index) {
        write_layout(block, l);
        const std::vector<std::byte> edges = local_edge_bytes(l, data);
        block.insert(block.end(), edges.begin(), edges.end());
      } else {
        held.assign(a.parts, false);
        held[r] = true;
        write_layout(block, sizes_and_routes(l, held));
      }
      files[r]->append(block);
    }
    l = PartitionLayout{};
  }, owned_rows);
  for (auto& f : files) out.bytes.push_back(f->finish());
  return out;
}

RankFile read_rank_file(const std::string& prefix, std::uint32_t rank, std::uint32_t ranks, RankFilePart part) {
  RankFile f;
  f.path = rank_file_name(prefix, rank, ranks);
  const std::vector<std::byte> bytes = read_whole(f.path, rank, ranks, prefix);
  f.header = check_header(bytes, f.path, rank, ranks);
  try {
    std::size_t at = kHeaderBytes;
    PartitionPlan& p = f.plan;
    p.parts = static_cast<std::uint32_t>(transport::get<std::uint64_t>(bytes, at, kBlock));
    p.hops = static_cast<std::uint32_t>(transport::get<std::uint64_t>(bytes, at, kBlock));
    p.owned_order = static_cast<VertexOrder>(transport::get<std::uint64_t>(bytes, at, kBlock));
    p.global_vertices = static_cast<VertexId>(transport::get<std::uint64_t>(bytes, at, kBlock));
    p.global_edges = transport::get<std::uint64_t>(bytes, at, kBlock);
    const std::vector<char> method = transport::get_array<char>(bytes, at, kBlock);
    p.method.assign(method.begin(), method.end());
    MEDUSA_REQUIRE(p.parts == ranks, "the plan has " + std::to_string(p.parts) + " partitions for " +
                                         std::to_string(ranks) + " ranks");
    p.partitions.resize(p.parts);
    for (std::uint32_t q = 0; q < p.parts; ++q) {
      p.partitions[q] = read_layout(bytes, at);
      MEDUSA_REQUIRE(p.partitions[q].index == q && p.partitions[q].held == (q == rank),
                     "partition " + std::to_string(p.partitions[q].index) + " in place of " + std::to_string(q));
      if (q != rank) continue;
      f.edges.vertex_count = p.global_vertices;
      f.edges.src = transport::get_array<VertexId>(bytes, at, kBlock);
      f.edges.dst = transport::get_array<VertexId>(bytes, at, kBlock);
      f.edges.weight = transport::get_array<double>(bytes, at, kBlock);
      f.edges.format = "medusa partition file";
      MEDUSA_REQUIRE(f.edges.src.size() == p.partitions[q].topology.edge_count &&
                         f.edges.dst.size() == f.edges.src.size() &&
                         f.edges.weight.size() == (f.header.weighted ? f.edges.src.size() : 0),
                     "the local edges do not match the partition's layout");
    }
    MEDUSA_REQUIRE(at == bytes.size(), std::to_string(bytes.size() - at) + " bytes after the last partition");
  } catch (const Error& e) {
    throw Error("rank " + std::to_string(rank) + ": malformed partition file (" + e.message() + ")", f.path.c_str(), 0);
  }
  if (part == RankFilePart::Plan) f.edges = io::EdgeListData{};
  else f.plan = PartitionPlan{};
  return f;
}

}  // namespace medusa
