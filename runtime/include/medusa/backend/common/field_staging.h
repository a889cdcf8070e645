// Moving user fields between the host graph (array of structs, the user's Vertex/Edge) and the
// structure-of-arrays the device works on. Both backends stage through these on the host; the
// CUDA backend then copies the contiguous buffers to the GPU.
#pragma once

#include <medusa/program.h>
#include <medusa/types.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace medusa::common {

namespace detail {

// Copies `count` elements of `size` bytes; record i of the source / destination is found through
// the strides and, when given, the permutation `order` (applied on the record side). `Size` is a
// std::integral_constant for the common sizes, so that memcpy becomes a single load/store.
template <class Size, class Index>
inline void copy_elements(const std::byte* src, std::size_t src_stride, std::byte* dst, std::size_t dst_stride,
                          Size size, std::size_t count, const Index* order, bool order_on_src) {
  const auto n = static_cast<std::int64_t>(count);
#pragma omp parallel for schedule(static) if (n > 65536)
  for (std::int64_t i = 0; i < n; ++i) {
    const std::size_t k = order ? static_cast<std::size_t>(order[i]) : static_cast<std::size_t>(i);
    const std::size_t si = order_on_src ? k : static_cast<std::size_t>(i);
    const std::size_t di = order_on_src ? static_cast<std::size_t>(i) : k;
    std::memcpy(dst + di * dst_stride, src + si * src_stride, static_cast<std::size_t>(size));
  }
}

template <class Index>
inline void copy_elements_any(const std::byte* src, std::size_t src_stride, std::byte* dst,
                              std::size_t dst_stride, std::size_t size, std::size_t count,
                              const Index* order, bool order_on_src) {
  auto copy = [&](auto fixed) { copy_elements(src, src_stride, dst, dst_stride, fixed, count, order, order_on_src); };
  switch (size) {
    case 1: return copy(std::integral_constant<std::size_t, 1>{});
    case 2: return copy(std::integral_constant<std::size_t, 2>{});
    case 4: return copy(std::integral_constant<std::size_t, 4>{});
    case 8: return copy(std::integral_constant<std::size_t, 8>{});
    case 16: return copy(std::integral_constant<std::size_t, 16>{});
    default: return copy(size);
  }
}

}  // namespace detail

// Whether a field's host values go to the device. Written fields go too: a functor may write a
// field for only some elements (Domain::Active/Received), and Dump_Result copies the whole field
// back, so the others must come back unchanged rather than zeroed.
inline bool needs_upload(const FieldSpec& spec) { return (spec.direction & (kUpload | kDownload)) != 0; }

// Gathers field `spec` of `count` records (each `record_size` bytes, e.g. sizeof(Vertex)) into the
// contiguous array `soa` (count * spec.size bytes). With `order`, soa[i] comes from record
// order[i]: pass Topology::input_edge.data() for edges so the array is in CSR order.
template <class Index = EdgeIndex>
inline void gather_field(const void* records, std::size_t record_size, std::size_t count,
                         const FieldSpec& spec, void* soa, const Index* order = nullptr) {
  if (count == 0) return;
  detail::copy_elements_any(static_cast<const std::byte*>(records) + spec.offset, record_size,
                            static_cast<std::byte*>(soa), spec.size, spec.size, count, order,
                            /*order_on_src=*/true);
}

// The inverse of gather_field: record order[i] (or i) gets soa[i].
template <class Index = EdgeIndex>
inline void scatter_field(const void* soa, const FieldSpec& spec, void* records,
                          std::size_t record_size, std::size_t count,
                          const Index* order = nullptr) {
  if (count == 0) return;
  detail::copy_elements_any(static_cast<const std::byte*>(soa), spec.size,
                            static_cast<std::byte*>(records) + spec.offset, record_size, spec.size,
                            count, order, /*order_on_src=*/false);
}

// Typed conveniences for vectors of user structs.
template <class Record, class Index = EdgeIndex>
void gather_field(const Record* records, std::size_t count, const FieldSpec& spec, void* soa,
                  const Index* order = nullptr) {
  gather_field(static_cast<const void*>(records), sizeof(Record), count, spec, soa, order);
}
template <class Record, class Index = EdgeIndex>
void scatter_field(const void* soa, const FieldSpec& spec, Record* records, std::size_t count,
                   const Index* order = nullptr) {
  scatter_field(soa, spec, static_cast<void*>(records), sizeof(Record), count, order);
}

// Bytes of the structure-of-arrays for `count` elements of every field in `specs`.
template <class Specs>
std::size_t soa_bytes(const Specs& specs, std::size_t count) {
  std::size_t bytes = 0;
  for (const FieldSpec& f : specs) bytes += f.size * count;
  return bytes;
}

}  // namespace medusa::common
