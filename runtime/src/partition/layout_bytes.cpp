// PartitionLayout as bytes (plan.h: write_layout, read_layout): what rank 0 sends each rank of a
// distributed run about each partition (transport/byte_block.h).
#include <medusa/partition/plan.h>
#include <medusa/transport/byte_block.h>

namespace medusa {

namespace {

constexpr const char* kBlock = "partition layout";

template <class T>
void put(std::vector<std::byte>& out, const T& value) {
  transport::put(out, &value, 1);
}
template <class T>
T get(const std::vector<std::byte>& in, std::size_t& at) {
  return transport::get<T>(in, at, kBlock);
}
template <class T>
std::vector<T> get_array(const std::vector<std::byte>& in, std::size_t& at) {
  return transport::get_array<T>(in, at, kBlock);
}
using transport::put_array;

}  // namespace

void write_layout(std::vector<std::byte>& out, const PartitionLayout& l) {
  put(out, l.index);
  put(out, static_cast<std::uint8_t>(l.held));
  const Topology& t = l.topology;
  put(out, t.vertex_count);
  put(out, t.edge_count);
  for (const auto* a : {&t.out_offsets, &t.rid, &t.in_offsets, &t.in_edge, &t.input_edge}) put_array(out, *a);
  for (const auto* a : {&t.out_dst, &t.edge_src, &t.in_src}) put_array(out, *a);
  put_array(out, l.global_id);
  put_array(out, l.hop_begin);
  put_array(out, l.out_degree);
  put_array(out, l.in_degree);
  put_array(out, l.input_edge);
  put_array(out, l.owned_row_offsets);
  put_array(out, l.owned_row_dst);
  put(out, static_cast<std::uint64_t>(l.replicas.size()));
  for (const ReplicaRoute& r : l.replicas) {
    put(out, r.owner);
    put(out, r.begin);
    put(out, r.end);
    put_array(out, r.owner_local);
  }
  put_array(out, l.neighbor_rows.offsets);
  put_array(out, l.neighbor_rows.ids);
  put(out, l.neighbor_row_bytes);
}

PartitionLayout read_layout(const std::vector<std::byte>& in, std::size_t& at) {
  PartitionLayout l;
  l.index = get<std::uint32_t>(in, at);
  l.held = get<std::uint8_t>(in, at) != 0;
  Topology& t = l.topology;
  t.vertex_count = get<VertexId>(in, at);
  t.edge_count = get<EdgeIndex>(in, at);
  for (auto* a : {&t.out_offsets, &t.rid, &t.in_offsets, &t.in_edge, &t.input_edge}) *a = get_array<EdgeIndex>(in, at);
  for (auto* a : {&t.out_dst, &t.edge_src, &t.in_src}) *a = get_array<VertexId>(in, at);
  l.global_id = get_array<VertexId>(in, at);
  l.hop_begin = get_array<VertexId>(in, at);
  l.out_degree = get_array<std::uint32_t>(in, at);
  l.in_degree = get_array<std::uint32_t>(in, at);
  l.input_edge = get_array<EdgeIndex>(in, at);
  l.owned_row_offsets = get_array<EdgeIndex>(in, at);
  l.owned_row_dst = get_array<VertexId>(in, at);
  l.replicas.resize(get<std::uint64_t>(in, at));
  for (ReplicaRoute& r : l.replicas) {
    r.owner = get<std::uint32_t>(in, at);
    r.begin = get<VertexId>(in, at);
    r.end = get<VertexId>(in, at);
    r.owner_local = get_array<VertexId>(in, at);
  }
  l.neighbor_rows.offsets = get_array<EdgeIndex>(in, at);
  l.neighbor_rows.ids = get_array<VertexId>(in, at);
  l.neighbor_row_bytes = get<std::uint64_t>(in, at);
  return l;
}

}  // namespace medusa
