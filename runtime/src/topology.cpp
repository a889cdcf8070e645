// Topology::build: stable counting sorts by source (forward CSR) and by destination (reverse CSR),
// O(V + E). Each sort runs in two cache-friendly passes (bucketed_sort below): a scattered write
// per edge into a V-sized array of rows misses the cache every time once the graph is large.
#include <medusa/error.h>
#include <medusa/populated_vector.h>
#include <medusa/topology.h>

#include <algorithm>
#include <cstdint>
#include <string>

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace medusa {

namespace {

void check_ids(VertexId vertex_count, const std::vector<VertexId>& ids, const char* which) {
  const auto n = static_cast<std::int64_t>(ids.size());
  std::int64_t first_bad = n;
  // Parallel scan for the first bad index; the report names the smallest one.
#pragma omp parallel for schedule(static) reduction(min : first_bad) if (n > 65536)
  for (std::int64_t i = 0; i < n; ++i) {
    if (ids[static_cast<std::size_t>(i)] >= vertex_count && i < first_bad) first_bad = i;
  }
  if (first_bad == n) return;
  MEDUSA_THROW("edge " + std::to_string(first_bad) + ": " + which + " vertex id " +
               std::to_string(ids[static_cast<std::size_t>(first_bad)]) +
               " is out of range (the graph has " + std::to_string(vertex_count) +
               " vertices, ids 0.." +
               (vertex_count == 0 ? std::string("none") : std::to_string(vertex_count - 1)) +
               "); add the vertices before building the device data");
}

int max_threads() {
#if defined(_OPENMP)
  return omp_get_max_threads();
#else
  return 1;
#endif
}

// A stable sort of n items by key (< V) in two passes. Pass 1 (`stage`, parallel over chunks of
// the input) moves each item, in input order, to its bucket's range of the output: a bucket is
// 2^shift consecutive keys, and with about a thousand buckets every bucket's write position stays
// in cache. Pass 2 (`order`, parallel over buckets) orders each bucket's range by key with a
// counting sort whose counters fit in cache. Both keep input order among equal keys.
class BucketedSort {
 public:
  BucketedSort(const VertexId* keys, std::size_t n, VertexId vertex_count) : keys_(keys), n_(n), v_(vertex_count) {
    while (shift_ < kMaxShift && (std::uint64_t{v_} >> shift_) > kTargetBuckets) ++shift_;
    buckets_ = static_cast<std::size_t>((std::uint64_t{v_} + (std::uint64_t{1} << shift_) - 1) >> shift_);
    chunks_ = std::max<std::size_t>(1, std::min<std::size_t>(static_cast<std::size_t>(max_threads()), n_ >> 16));
    next_.assign(chunks_ * buckets_, 0);
    const auto T = static_cast<std::int64_t>(chunks_);
#pragma omp parallel for schedule(static, 1) if (T > 1)
    for (std::int64_t t = 0; t < T; ++t) {
      EdgeIndex* count = next_.data() + static_cast<std::size_t>(t) * buckets_;
      for (std::size_t i = chunk_begin(t), end = chunk_begin(t + 1); i < end; ++i) ++count[keys_[i] >> shift_];
    }
    // Bucket-major, chunk-minor starts: chunk t's items of a bucket follow chunk t - 1's.
    bucket_begin_.assign(buckets_ + 1, 0);
    EdgeIndex run = 0;
    for (std::size_t b = 0; b < buckets_; ++b) {
      bucket_begin_[b] = run;
      for (std::size_t t = 0; t < chunks_; ++t) {
        EdgeIndex& slot = next_[t * buckets_ + b];
        const EdgeIndex c = slot;
        slot = run;
        run += c;
      }
    }
    bucket_begin_[buckets_] = run;
  }

  unsigned shift() const { return shift_; }

  // Calls stage(i, position) once per item, in input order within each chunk.
  template <class Stage>
  void stage(const Stage& place) {
    const auto T = static_cast<std::int64_t>(chunks_);
#pragma omp parallel for schedule(static, 1) if (T > 1)
    for (std::int64_t t = 0; t < T; ++t) {
      EdgeIndex* next = next_.data() + static_cast<std::size_t>(t) * buckets_;
      for (std::size_t i = chunk_begin(t), end = chunk_begin(t + 1); i < end; ++i) place(i, next[keys_[i] >> shift_]++);
    }
  }

  // For each bucket: counts its keys (key_of(j): the bucket-local key, key - the bucket's first key,
  // of the staged item at position j), fills their `offsets` (V + 1 in all: exclusive prefix sums
  // of the key counts) and calls permute(scratch, begin, end, next), which moves the staged items
  // [begin, end) to their final positions: next[k] is where the first item of local key k goes.
  // `scratch` is one Scratch per thread, for copying a bucket aside. Buckets whose items are in
  // order already (one key, or fewer than two items) are not permuted.
  template <class Scratch, class KeyOf, class Permute>
  void order(std::vector<EdgeIndex>& offsets, const KeyOf& key_of, const Permute& permute) {
    offsets.resize(std::size_t{v_} + 1);
    offsets[v_] = n_;
    const auto B = static_cast<std::int64_t>(buckets_);
#pragma omp parallel if (B > 1 && n_ > 65536)
    {
      Scratch scratch;
      std::vector<EdgeIndex> next(std::size_t{1} << shift_);
#pragma omp for schedule(dynamic, 1)
      for (std::int64_t b = 0; b < B; ++b) {
        const EdgeIndex begin = bucket_begin_[b], end = bucket_begin_[b + 1];
        const std::uint64_t first_key = static_cast<std::uint64_t>(b) << shift_;
        const auto keys = static_cast<std::size_t>(std::min<std::uint64_t>(v_ - first_key, next.size()));
        std::fill(next.begin(), next.begin() + static_cast<std::ptrdiff_t>(keys), 0);
        for (EdgeIndex j = begin; j < end; ++j) ++next[key_of(j)];
        EdgeIndex run = begin;
        for (std::size_t k = 0; k < keys; ++k) {
          const EdgeIndex c = next[k];
          next[k] = run;
          offsets[first_key + k] = run;
          run += c;
        }
        if (end - begin >= 2 && keys > 1) permute(scratch, begin, end, next.data());
      }
    }
  }

 private:
  static constexpr unsigned kMaxShift = 16;  // bucket-local keys fit 16 bits
  static constexpr std::uint64_t kTargetBuckets = 1024;
  std::size_t chunk_begin(std::int64_t t) const { return n_ * static_cast<std::size_t>(t) / chunks_; }

  const VertexId* keys_;
  std::size_t n_;
  VertexId v_;
  unsigned shift_ = 0;
  std::size_t buckets_ = 0, chunks_ = 1;
  std::vector<EdgeIndex> next_;          // [chunk * buckets + bucket]: that chunk's next position
  std::vector<EdgeIndex> bucket_begin_;  // buckets + 1
};

}  // namespace

Topology Topology::build(VertexId vertex_count, const std::vector<VertexId>& src,
                         const std::vector<VertexId>& dst) {
  MEDUSA_REQUIRE(src.size() == dst.size(),
                 "Topology::build: " + std::to_string(src.size()) + " sources but " +
                     std::to_string(dst.size()) + " destinations");
  check_ids(vertex_count, src, "source");
  check_ids(vertex_count, dst, "destination");

  Topology t;
  t.vertex_count = vertex_count;
  t.edge_count = src.size();
  const std::size_t E = src.size();

  // Forward CSR, stable by source: input edge i lands after the earlier edges of its source. The
  // output arrays hold the staged edges between the passes.
  resize_populated(t.out_dst, E);
  resize_populated(t.edge_src, E);
  resize_populated(t.input_edge, E);
  {
    BucketedSort by_source(src.data(), E, vertex_count);
    by_source.stage([&](std::size_t i, EdgeIndex q) {
      t.edge_src[q] = src[i];
      t.out_dst[q] = dst[i];
      t.input_edge[q] = i;
    });
    const VertexId key_mask = (VertexId{1} << by_source.shift()) - 1;
    struct Rows {
      std::vector<VertexId> src, dst;
      std::vector<EdgeIndex> input;
    };
    by_source.order<Rows>(
        t.out_offsets, [&](EdgeIndex q) { return t.edge_src[q] & key_mask; },
        [&](Rows& copy, EdgeIndex begin, EdgeIndex end, EdgeIndex* next) {
          copy.src.assign(t.edge_src.begin() + begin, t.edge_src.begin() + end);
          copy.dst.assign(t.out_dst.begin() + begin, t.out_dst.begin() + end);
          copy.input.assign(t.input_edge.begin() + begin, t.input_edge.begin() + end);
          for (std::size_t j = 0; j < copy.src.size(); ++j) {
            const EdgeIndex e = next[copy.src[j] & key_mask]++;
            t.edge_src[e] = copy.src[j];
            t.out_dst[e] = copy.dst[j];
            t.input_edge[e] = copy.input[j];
          }
        });
  }

  // Reverse CSR, stable by destination over CSR positions: the in-edges of a vertex appear in
  // CSR order, so one vertex's rIDs are consecutive and ordered by their sources. Between the
  // passes in_edge holds the CSR position with the bucket-local destination in its top 16 bits.
  resize_populated(t.in_src, E);
  resize_populated(t.in_edge, E);
  resize_populated(t.rid, E);
  {
    constexpr unsigned kKeyBits = 48;  // (edge counts stay far below 2^48)
    MEDUSA_REQUIRE(E < (EdgeIndex{1} << kKeyBits), "Topology::build: more than 2^48 edges");
    constexpr EdgeIndex kPositionMask = (EdgeIndex{1} << kKeyBits) - 1;
    BucketedSort by_target(t.out_dst.data(), E, vertex_count);
    const VertexId key_mask = (VertexId{1} << by_target.shift()) - 1;
    by_target.stage([&](std::size_t e, EdgeIndex q) {
      t.in_src[q] = t.edge_src[e];
      t.in_edge[q] = e | (static_cast<EdgeIndex>(t.out_dst[e] & key_mask) << kKeyBits);
    });
    struct InEdges {
      std::vector<VertexId> src;
      std::vector<EdgeIndex> edge;
    };
    by_target.order<InEdges>(
        t.in_offsets, [&](EdgeIndex q) { return t.in_edge[q] >> kKeyBits; },
        [&](InEdges& copy, EdgeIndex begin, EdgeIndex end, EdgeIndex* next) {
          copy.src.assign(t.in_src.begin() + begin, t.in_src.begin() + end);
          copy.edge.assign(t.in_edge.begin() + begin, t.in_edge.begin() + end);
          for (std::size_t j = 0; j < copy.src.size(); ++j) {
            const EdgeIndex r = next[copy.edge[j] >> kKeyBits]++;
            t.in_src[r] = copy.src[j];
            t.in_edge[r] = copy.edge[j];
          }
        });
    // Drop the keys and record each edge's position in the reverse CSR.
    const auto n = static_cast<std::int64_t>(E);
#pragma omp parallel for schedule(static) if (n > 65536)
    for (std::int64_t r = 0; r < n; ++r) {
      const EdgeIndex e = t.in_edge[static_cast<std::size_t>(r)] & kPositionMask;
      t.in_edge[static_cast<std::size_t>(r)] = e;
      t.rid[e] = static_cast<EdgeIndex>(r);
    }
  }
  return t;
}
Topology Topology::with_sorted_rows() const {
  // Rows sorted in place, then rebuilt: the stable build keeps each row's new order, and
  // input_edge is composed through the permutation.
  std::vector<EdgeIndex> order(edge_count);
  for (EdgeIndex e = 0; e < edge_count; ++e) order[e] = e;
  const auto V = static_cast<std::int64_t>(vertex_count);
#pragma omp parallel for schedule(dynamic, 1024)
  for (std::int64_t v = 0; v < V; ++v) {
    const auto begin = order.begin() + static_cast<std::ptrdiff_t>(out_offsets[v]);
    const auto end = order.begin() + static_cast<std::ptrdiff_t>(out_offsets[v + 1]);
    if (!std::is_sorted(begin, end, [&](EdgeIndex a, EdgeIndex b) { return out_dst[a] < out_dst[b]; }))
      std::stable_sort(begin, end, [&](EdgeIndex a, EdgeIndex b) { return out_dst[a] < out_dst[b]; });
  }
  std::vector<VertexId> src(edge_count), dst(edge_count);
  for (EdgeIndex i = 0; i < edge_count; ++i) {
    src[i] = edge_src[order[i]];
    dst[i] = out_dst[order[i]];
  }
  Topology sorted = build(vertex_count, src, dst);
  for (EdgeIndex& e : sorted.input_edge) e = input_edge[order[e]];
  return sorted;
}

}  // namespace medusa
