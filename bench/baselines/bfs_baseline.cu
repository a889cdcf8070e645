// Hand-written CUDA BFS, the "manual implementation" Medusa's BFS is measured against.
// Top-down, level-synchronous, frontier queue: one kernel per level expands the queue into the next
// one, and the only host round trip per level is the 4-byte size of the next queue. Load balance as
// in Merrill et al. (PPoPP 2012): a frontier vertex with >= 256 edges is expanded by its whole
// block, one with >= 32 by its warp, the rest by their own thread. A visited bitmap (one atomicOr
// per first discovery, a plain read filters the rest) decides who enqueues a vertex; queue slots are
// reserved with one atomicAdd per warp.
// --direction-optimizing adds Beamer et al.'s bottom-up steps (SC 2012): while the frontier's edges
// outnumber a fraction (1/alpha, alpha = 14) of the unexplored vertices' edges, each unvisited vertex
// scans its in-edges for a parent in a frontier bitmap and stops at the first; back to top-down when
// the frontier shrinks below n/beta (beta = 24) vertices. The default is top-down only, like
// Medusa's BFS-Q, so that the Medusa/baseline ratio measures the framework and not the algorithm.
#include "baseline_common.h"
#include "cuda_check.cuh"

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <utility>
#include <vector>

namespace cg = cooperative_groups;

namespace {

constexpr int kBlock = 256;
constexpr std::uint32_t kNotReached = 0xffffffffu;
constexpr std::uint64_t kAlpha = 14, kBeta = 24;

// Per level: vertices found, and (direction-optimizing only) the sum of their out-degrees.
struct LevelCount {
  unsigned long long vertices, edges;
};

// Called by the threads that found vertex w: one atomic per warp for the count (and the queue slot,
// when out_q is given) and, when offset is given, for the found vertices' out-degrees.
__device__ __forceinline__ void found(std::uint32_t w, LevelCount* count, std::uint32_t* out_q,
                                      const std::uint64_t* offset) {
  cg::coalesced_group g = cg::coalesced_threads();
  unsigned long long slot = 0;
  if (g.thread_rank() == 0) slot = atomicAdd(&count->vertices, static_cast<unsigned long long>(g.size()));
  if (out_q) out_q[g.shfl(slot, 0) + g.thread_rank()] = w;
  if (offset) {
    const unsigned long long edges =
        cg::reduce(g, static_cast<unsigned long long>(offset[w + 1] - offset[w]), cg::plus<unsigned long long>());
    if (g.thread_rank() == 0) atomicAdd(&count->edges, edges);
  }
}

__device__ __forceinline__ void visit(std::uint32_t w, std::uint32_t next_level, std::uint32_t* visited,
                                      std::uint32_t* level, std::uint32_t* out_q, LevelCount* count,
                                      const std::uint64_t* degree_offset) {
  const std::uint32_t bit = 1u << (w & 31);
  std::uint32_t* word = &visited[w >> 5];
  if (*word & bit) return;  // cheap filter; the atomicOr below decides
  if (atomicOr(word, bit) & bit) return;
  level[w] = next_level;
  found(w, count, out_q, degree_offset);
}

// One level, top-down: the grid expands in_q into out_q. The queue is read from L2 (__ldcg): in the
// persistent kernel other SMs wrote it, and an earlier level may have left its lines in this SM's L1.
__device__ __forceinline__ void expand_queue(const std::uint64_t* __restrict__ offset, const std::uint32_t* __restrict__ adj,
                                             const std::uint32_t* in_q, std::uint32_t in_n, std::uint32_t* out_q,
                                             LevelCount* count, std::uint32_t* visited, std::uint32_t* level,
                                             std::uint32_t next_level, const std::uint64_t* degree_offset) {
  __shared__ int owner;
  __shared__ std::uint64_t block_beg, block_end;
  const unsigned lane = threadIdx.x & 31;
  for (std::uint64_t base = std::uint64_t{blockIdx.x} * kBlock; base < in_n;
       base += std::uint64_t{gridDim.x} * kBlock) {
    const std::uint64_t i = base + threadIdx.x;
    std::uint64_t beg = 0, end = 0;
    if (i < in_n) {
      const std::uint32_t v = __ldcg(in_q + i);
      beg = offset[v];
      end = offset[v + 1];
    }
    // Block-cooperative: one large adjacency list at a time, all threads of the block.
    for (;;) {
      if (threadIdx.x == 0) owner = -1;
      __syncthreads();
      if (end - beg >= kBlock) owner = threadIdx.x;
      __syncthreads();
      if (owner < 0) break;
      if (owner == static_cast<int>(threadIdx.x)) {
        block_beg = beg;
        block_end = end;
        beg = end;
      }
      __syncthreads();
      for (std::uint64_t e = block_beg + threadIdx.x; e < block_end; e += kBlock)
        visit(adj[e], next_level, visited, level, out_q, count, degree_offset);
      __syncthreads();
    }
    // Warp-cooperative: lists of 32..255 edges, one at a time per warp.
    unsigned want;
    while ((want = __ballot_sync(0xffffffffu, end - beg >= 32)) != 0) {
      const int leader = __ffs(want) - 1;
      const std::uint64_t wb = __shfl_sync(0xffffffffu, beg, leader);
      const std::uint64_t we = __shfl_sync(0xffffffffu, end, leader);
      if (static_cast<int>(lane) == leader) beg = end;
      for (std::uint64_t e = wb + lane; e < we; e += 32) visit(adj[e], next_level, visited, level, out_q, count, degree_offset);
    }
    // Short lists: each thread its own.
    for (std::uint64_t e = beg; e < end; ++e) visit(adj[e], next_level, visited, level, out_q, count, degree_offset);
  }
}

__global__ void __launch_bounds__(kBlock)
    expand_level(const std::uint64_t* __restrict__ offset, const std::uint32_t* __restrict__ adj,
                 const std::uint32_t* __restrict__ in_q, std::uint32_t in_n, std::uint32_t* __restrict__ out_q,
                 LevelCount* count, std::uint32_t* visited, std::uint32_t* level, std::uint32_t next_level,
                 const std::uint64_t* degree_offset) {
  expand_queue(offset, adj, in_q, in_n, out_q, count, visited, level, next_level, degree_offset);
}

// Every level in one cooperative launch (--persistent): a grid barrier stands where one level's
// kernel ends and the next one's begins, and no size goes to the host. counts[l] holds what level l
// found; counts[0] is the source. *levels_run: the levels with a non-empty frontier.
__global__ void __launch_bounds__(kBlock)
    persistent_levels(const std::uint64_t* __restrict__ offset, const std::uint32_t* __restrict__ adj, std::uint32_t* q0,
                      std::uint32_t* q1, LevelCount* counts, std::uint32_t* visited, std::uint32_t* level,
                      std::uint32_t* levels_run) {
  cg::grid_group grid = cg::this_grid();
  std::uint32_t* in_q = q0;
  std::uint32_t* out_q = q1;
  for (std::uint32_t l = 0;; ++l) {
    const auto n = static_cast<std::uint32_t>(__ldcg(&counts[l].vertices));
    if (n == 0) {
      if (grid.thread_rank() == 0) *levels_run = l;
      return;
    }
    expand_queue(offset, adj, in_q, n, out_q, counts + l + 1, visited, level, l + 1, nullptr);
    grid.sync();
    std::uint32_t* const expanded = in_q;
    in_q = out_q;
    out_q = expanded;
  }
}

// Bottom-up step: every unvisited vertex looks for a parent in the frontier bitmap among its
// in-neighbours and stops at the first one.
__global__ void __launch_bounds__(kBlock)
    bottom_up(const std::uint64_t* __restrict__ in_offset, const std::uint32_t* __restrict__ in_adj,
              const std::uint32_t* __restrict__ frontier, std::uint32_t* next_frontier, std::uint32_t* level,
              std::uint32_t n, std::uint32_t next_level, LevelCount* count, const std::uint64_t* out_offset) {
  for (std::uint32_t v = blockIdx.x * kBlock + threadIdx.x; v < n; v += gridDim.x * kBlock) {
    if (level[v] != kNotReached) continue;
    const std::uint64_t end = in_offset[v + 1];
    for (std::uint64_t e = in_offset[v]; e < end; ++e) {
      const std::uint32_t u = in_adj[e];
      if (frontier[u >> 5] & (1u << (u & 31))) {
        level[v] = next_level;
        atomicOr(&next_frontier[v >> 5], 1u << (v & 31));
        found(v, count, nullptr, out_offset);
        break;
      }
    }
  }
}

// Queue -> bitmap (switching to bottom-up).
__global__ void queue_to_bitmap(const std::uint32_t* __restrict__ q, std::uint32_t qn, std::uint32_t* bits) {
  for (std::uint32_t i = blockIdx.x * kBlock + threadIdx.x; i < qn; i += gridDim.x * kBlock)
    atomicOr(&bits[q[i] >> 5], 1u << (q[i] & 31));
}

// Level array -> queue of the vertices at `depth` and the visited bitmap (switching to top-down).
// A warp handles 32 consecutive vertices, so the ballot is one bitmap word.
__global__ void __launch_bounds__(kBlock)
    levels_to_queue(const std::uint32_t* __restrict__ level, std::uint32_t n, std::uint32_t depth,
                    std::uint32_t* visited, std::uint32_t* q, LevelCount* count) {
  const std::uint64_t rounded = (std::uint64_t{n} + 31) / 32 * 32;
  for (std::uint64_t v = std::uint64_t{blockIdx.x} * kBlock + threadIdx.x; v < rounded;
       v += std::uint64_t{gridDim.x} * kBlock) {
    const std::uint32_t l = v < n ? level[v] : kNotReached;
    const unsigned word = __ballot_sync(0xffffffffu, l != kNotReached);
    if ((threadIdx.x & 31) == 0) visited[v >> 5] = word;
    if (l == depth) found(static_cast<std::uint32_t>(v), count, q, nullptr);
  }
}

std::vector<std::uint32_t> bfs_cpu(const baseline::Csr& g, std::uint32_t source) {
  std::vector<std::uint32_t> level(g.vertex_count, kNotReached);
  std::deque<std::uint32_t> queue{source};
  level[source] = 0;
  while (!queue.empty()) {
    const std::uint32_t v = queue.front();
    queue.pop_front();
    for (std::uint64_t e = g.offset[v]; e < g.offset[v + 1]; ++e) {
      const std::uint32_t w = g.index[e];
      if (level[w] == kNotReached) {
        level[w] = level[v] + 1;
        queue.push_back(w);
      }
    }
  }
  return level;
}

}  // namespace

int main(int argc, char** argv) {
  const baseline::Options opt = baseline::parse_options(
      argc, argv, "bfs_baseline: hand-written CUDA BFS (top-down frontier queue; --direction-optimizing: "
                  "top-down/bottom-up)");
  const bool diropt = opt.direction_optimizing;
  const bool persistent = opt.persistent_blocks >= 0;
  const char* name = diropt ? "bfs_baseline_do" : persistent ? "bfs_baseline_persistent" : "bfs_baseline";
  const baseline::Graph graph = baseline::load_graph(opt, diropt);
  const baseline::Csr& g = graph.out;
  std::printf("%s, source %u\n", graph.description.c_str(), opt.source);
  std::printf("variant: %s, block/warp/thread expansion by degree, visited bitmap\n",
              diropt ? "direction-optimizing (top-down queue / bottom-up bitmap, alpha 14, beta 24)"
              : persistent ? "top-down frontier queue, every level in one cooperative kernel"
                           : "top-down frontier queue");
  if (opt.source >= g.vertex_count) {
    std::fprintf(stderr, "%s: source %u is not a vertex (the graph has %u)\n", name, opt.source, g.vertex_count);
    return 2;
  }
  const std::uint32_t n = g.vertex_count;
  const std::size_t words = (std::size_t{n} + 31) / 32;

  DeviceArray<std::uint64_t> d_offset(g.offset.size()), d_in_offset(diropt ? graph.in.offset.size() : 0);
  DeviceArray<std::uint32_t> d_adj(g.index.size()), d_in_adj(diropt ? graph.in.index.size() : 0), d_level(n),
      d_visited(words), d_q0(n), d_q1(n), d_bits0(diropt ? words : 0), d_bits1(diropt ? words : 0);
  // counts[l]: what level l found, zeroed once per run so that a level needs no memset; the last
  // slot is scratch for levels_to_queue.
  DeviceArray<LevelCount> d_counts(std::size_t{n} + 3);
  d_offset.upload(g.offset.data());
  d_adj.upload(g.index.data());
  if (diropt) {
    d_in_offset.upload(graph.in.offset.data());
    d_in_adj.upload(graph.in.index.data());
  }
  baseline::print_device_memory(d_offset.bytes() + d_adj.bytes() + d_in_offset.bytes() + d_in_adj.bytes() +
                                    d_level.bytes() + d_visited.bytes() + d_q0.bytes() + d_q1.bytes() +
                                    d_bits0.bytes() + d_bits1.bytes() + d_counts.bytes(),
                                diropt ? "CSR and reverse CSR, levels, bitmaps, two queues, level counts"
                                       : "CSR, levels, bitmap, two queues, level counts");

  int device = 0, sms = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const std::uint32_t max_blocks = static_cast<std::uint32_t>(sms) * (2048 / kBlock);
  auto blocks_for = [&](std::uint64_t items) {
    return static_cast<std::uint32_t>(std::max<std::uint64_t>(1, std::min<std::uint64_t>((items + kBlock - 1) / kBlock, max_blocks)));
  };
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  LevelCount* h_count = nullptr;
  CHECK(cudaMallocHost(&h_count, sizeof(LevelCount)));
  LevelCount* scratch = d_counts.p + n + 2;
  DeviceArray<std::uint32_t> d_levels_run(1);
  std::uint32_t persistent_grid = 0;
  if (opt.persistent_blocks >= 0) {
    int per_sm = 0, cooperative = 0;
    CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, persistent_levels, kBlock, 0));
    const std::uint32_t fit = static_cast<std::uint32_t>(per_sm) * static_cast<std::uint32_t>(sms);
    if (!cooperative || fit == 0) {
      std::fprintf(stderr, "%s: this GPU cannot launch the cooperative kernel of --persistent\n", name);
      return 2;
    }
    persistent_grid = opt.persistent_blocks == 0 ? fit : std::min<std::uint32_t>(opt.persistent_blocks, fit);
    std::printf("persistent: %u blocks of %d threads (%u fit at once)\n", persistent_grid, kBlock, fit);
  }

  std::vector<std::uint32_t> level(n);
  std::uint64_t edges_visited = 0;
  for (int run = 0; run < opt.runs; ++run) {
    // Initial state (untimed, as the samples' Init_Device_DS): nothing visited but the source.
    const std::uint32_t zero = 0, src_bit = 1u << (opt.source & 31);
    CHECK(cudaMemsetAsync(d_level.p, 0xff, d_level.bytes(), stream));
    CHECK(cudaMemsetAsync(d_visited.p, 0, d_visited.bytes(), stream));
    CHECK(cudaMemsetAsync(d_counts.p, 0, d_counts.bytes(), stream));
    CHECK(cudaMemcpyAsync(d_level.p + opt.source, &zero, 4, cudaMemcpyHostToDevice, stream));
    CHECK(cudaMemcpyAsync(d_visited.p + opt.source / 32, &src_bit, 4, cudaMemcpyHostToDevice, stream));
    CHECK(cudaMemcpyAsync(d_q0.p, &opt.source, 4, cudaMemcpyHostToDevice, stream));
    CHECK(cudaStreamSynchronize(stream));

    std::uint32_t* in_q = d_q0.p;
    std::uint32_t* out_q = d_q1.p;
    std::uint32_t* bits = d_bits0.p;
    std::uint32_t* next_bits = d_bits1.p;
    std::uint32_t frontier = 1, levels = 0, bottom_up_levels = 0, previous = 0;
    // Beamer's quantities: edges out of the frontier and out of the vertices not yet visited.
    std::uint64_t frontier_edges = g.offset[opt.source + 1] - g.offset[opt.source];
    std::uint64_t unexplored_edges = g.edge_count() - frontier_edges;
    bool bottom = false;
    if (opt.persistent_blocks >= 0) {
      const LevelCount source{1, 0};
      CHECK(cudaMemcpyAsync(d_counts.p, &source, sizeof source, cudaMemcpyHostToDevice, stream));
      CHECK(cudaEventRecord(start, stream));
      void* args[] = {&d_offset.p, &d_adj.p, &in_q, &out_q, &d_counts.p, &d_visited.p, &d_level.p, &d_levels_run.p};
      CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(persistent_levels), persistent_grid, kBlock, args, 0,
                                        stream));
      CHECK(cudaMemcpyAsync(&levels, d_levels_run.p, 4, cudaMemcpyDeviceToHost, stream));
      frontier = 0;
    } else {
      CHECK(cudaEventRecord(start, stream));
    }
    while (frontier > 0) {
      LevelCount* next_count = d_counts.p + levels + 1;
      if (diropt && !bottom && frontier_edges > unexplored_edges / kAlpha) {
        CHECK(cudaMemsetAsync(bits, 0, words * 4, stream));
        queue_to_bitmap<<<blocks_for(frontier), kBlock, 0, stream>>>(in_q, frontier, bits);
        bottom = true;
      } else if (bottom && frontier < n / kBeta && frontier < previous) {  // small and shrinking
        levels_to_queue<<<blocks_for(n), kBlock, 0, stream>>>(d_level.p, n, levels, d_visited.p, in_q, scratch);
        CHECK(cudaMemsetAsync(scratch, 0, sizeof(LevelCount), stream));
        bottom = false;
      }
      if (bottom) {
        CHECK(cudaMemsetAsync(next_bits, 0, words * 4, stream));
        bottom_up<<<blocks_for(n), kBlock, 0, stream>>>(d_in_offset.p, d_in_adj.p, bits, next_bits, d_level.p, n,
                                                        levels + 1, next_count, d_offset.p);
        std::swap(bits, next_bits);
        ++bottom_up_levels;
      } else {
        expand_level<<<blocks_for(frontier), kBlock, 0, stream>>>(d_offset.p, d_adj.p, in_q, frontier, out_q,
                                                                  next_count, d_visited.p, d_level.p, levels + 1,
                                                                  diropt ? d_offset.p : nullptr);
        std::swap(in_q, out_q);
      }
      CHECK(cudaGetLastError());
      CHECK(cudaMemcpyAsync(h_count, next_count, sizeof(LevelCount), cudaMemcpyDeviceToHost, stream));
      CHECK(cudaStreamSynchronize(stream));
      const std::uint32_t found_before = frontier;
      frontier = static_cast<std::uint32_t>(h_count->vertices);
      frontier_edges = h_count->edges;
      unexplored_edges -= std::min(unexplored_edges, frontier_edges);
      ++levels;
      previous = found_before;
    }
    CHECK(cudaEventRecord(stop, stream));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));

    d_level.download(level.data());
    edges_visited = 0;  // every reached vertex's list is expanded once (top-down count, also for diropt)
    for (std::uint32_t v = 0; v < n; ++v)
      if (level[v] != kNotReached) edges_visited += g.offset[v + 1] - g.offset[v];
    if (diropt) std::printf("levels bottom-up: %u of %u\n", bottom_up_levels, levels);
    baseline::print_summary(name, levels, ms, edges_visited, g.edge_count(), "empty frontier");
  }
  CHECK(cudaFreeHost(h_count));
  if (!opt.validate) return 0;

  const std::vector<std::uint32_t> expected = bfs_cpu(g, opt.source);
  std::size_t mismatches = 0;
  for (std::uint32_t v = 0; v < n; ++v) {
    if (level[v] != expected[v] && ++mismatches <= 5)
      std::printf("  vertex %u: got level %u, expected %u\n", v, level[v], expected[v]);
  }
  if (mismatches) {
    std::printf("validation: FAILED (BFS levels vs CPU reference): %zu mismatches\n", mismatches);
    return 1;
  }
  std::printf("validation: PASSED (BFS levels vs CPU reference)\n");
  return 0;
}
