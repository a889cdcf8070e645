// Hand-written CUDA BFS, the "manual implementation" Medusa's BFS is measured against.
// Top-down, level-synchronous, frontier queue: one kernel per level expands the queue into the next
// one, and the only host round trip per level is the 4-byte size of the next queue. Load balance as
// in Merrill et al. (PPoPP 2012): a frontier vertex with >= 256 edges is expanded by its whole
// block, one with >= 32 by its warp, the rest by their own thread. A visited bitmap (one atomicOr
// per first discovery, a plain read filters the rest) decides who enqueues a vertex; queue slots are
// reserved with one atomicAdd per warp. No direction optimization (no bottom-up/pull steps).
#include "baseline_common.h"
#include "cuda_check.cuh"

#include <cooperative_groups.h>

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

__device__ __forceinline__ void visit(std::uint32_t w, std::uint32_t next_level, std::uint32_t* visited,
                                      std::uint32_t* level, std::uint32_t* out_q, std::uint32_t* out_n) {
  const std::uint32_t bit = 1u << (w & 31);
  std::uint32_t* word = &visited[w >> 5];
  if (*word & bit) return;  // cheap filter; the atomicOr below decides
  if (atomicOr(word, bit) & bit) return;
  level[w] = next_level;
  cg::coalesced_group g = cg::coalesced_threads();
  std::uint32_t slot = 0;
  if (g.thread_rank() == 0) slot = atomicAdd(out_n, g.size());
  out_q[g.shfl(slot, 0) + g.thread_rank()] = w;
}

__global__ void __launch_bounds__(kBlock)
    expand_level(const std::uint64_t* __restrict__ offset, const std::uint32_t* __restrict__ adj,
                 const std::uint32_t* __restrict__ in_q, std::uint32_t in_n, std::uint32_t* __restrict__ out_q,
                 std::uint32_t* out_n, std::uint32_t* visited, std::uint32_t* level, std::uint32_t next_level) {
  __shared__ int owner;
  __shared__ std::uint64_t block_beg, block_end;
  const unsigned lane = threadIdx.x & 31;
  for (std::uint64_t base = std::uint64_t{blockIdx.x} * kBlock; base < in_n;
       base += std::uint64_t{gridDim.x} * kBlock) {
    const std::uint64_t i = base + threadIdx.x;
    std::uint64_t beg = 0, end = 0;
    if (i < in_n) {
      const std::uint32_t v = in_q[i];
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
        visit(adj[e], next_level, visited, level, out_q, out_n);
      __syncthreads();
    }
    // Warp-cooperative: lists of 32..255 edges, one at a time per warp.
    unsigned want;
    while ((want = __ballot_sync(0xffffffffu, end - beg >= 32)) != 0) {
      const int leader = __ffs(want) - 1;
      const std::uint64_t wb = __shfl_sync(0xffffffffu, beg, leader);
      const std::uint64_t we = __shfl_sync(0xffffffffu, end, leader);
      if (static_cast<int>(lane) == leader) beg = end;
      for (std::uint64_t e = wb + lane; e < we; e += 32) visit(adj[e], next_level, visited, level, out_q, out_n);
    }
    // Short lists: each thread its own.
    for (std::uint64_t e = beg; e < end; ++e) visit(adj[e], next_level, visited, level, out_q, out_n);
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
  const baseline::Options opt =
      baseline::parse_options(argc, argv, "bfs_baseline: hand-written CUDA BFS (top-down frontier queue)");
  const baseline::Graph graph = baseline::load_graph(opt, false);
  const baseline::Csr& g = graph.out;
  std::printf("%s, source %u\n", graph.description.c_str(), opt.source);
  std::printf("variant: top-down frontier queue, block/warp/thread expansion by degree, visited bitmap\n");
  if (opt.source >= g.vertex_count) {
    std::fprintf(stderr, "bfs_baseline: source %u is not a vertex (the graph has %u)\n", opt.source, g.vertex_count);
    return 2;
  }
  const std::uint32_t n = g.vertex_count;
  const std::size_t words = (std::size_t{n} + 31) / 32;

  DeviceArray<std::uint64_t> d_offset(g.offset.size());
  // d_count[l]: size of the queue of level l, zeroed once per run, so a level needs no memset.
  DeviceArray<std::uint32_t> d_adj(g.index.size()), d_level(n), d_visited(words), d_q0(n), d_q1(n),
      d_count(std::size_t{n} + 2);
  d_offset.upload(g.offset.data());
  d_adj.upload(g.index.data());
  baseline::print_device_memory(d_offset.bytes() + d_adj.bytes() + d_level.bytes() + d_visited.bytes() +
                                    d_q0.bytes() + d_q1.bytes() + d_count.bytes(),
                                "CSR, levels, bitmap, two queues, queue sizes");

  int device = 0, sms = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const std::uint32_t max_blocks = static_cast<std::uint32_t>(sms) * (2048 / kBlock);
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::uint32_t* h_count = nullptr;
  CHECK(cudaMallocHost(&h_count, sizeof(std::uint32_t)));

  std::vector<std::uint32_t> level(n);
  std::uint64_t edges_visited = 0;
  for (int run = 0; run < opt.runs; ++run) {
    // Initial state (untimed, as the samples' Init_Device_DS): nothing visited but the source.
    const std::uint32_t zero = 0, src_bit = 1u << (opt.source & 31);
    CHECK(cudaMemsetAsync(d_level.p, 0xff, d_level.bytes(), stream));
    CHECK(cudaMemsetAsync(d_visited.p, 0, d_visited.bytes(), stream));
    CHECK(cudaMemsetAsync(d_count.p, 0, d_count.bytes(), stream));
    CHECK(cudaMemcpyAsync(d_level.p + opt.source, &zero, 4, cudaMemcpyHostToDevice, stream));
    CHECK(cudaMemcpyAsync(d_visited.p + opt.source / 32, &src_bit, 4, cudaMemcpyHostToDevice, stream));
    CHECK(cudaMemcpyAsync(d_q0.p, &opt.source, 4, cudaMemcpyHostToDevice, stream));
    CHECK(cudaStreamSynchronize(stream));

    std::uint32_t* in_q = d_q0.p;
    std::uint32_t* out_q = d_q1.p;
    std::uint32_t frontier = 1, levels = 0;
    CHECK(cudaEventRecord(start, stream));
    while (frontier > 0) {
      const std::uint32_t blocks = std::min((frontier + kBlock - 1) / kBlock, max_blocks);
      std::uint32_t* next_count = d_count.p + levels + 1;
      expand_level<<<blocks, kBlock, 0, stream>>>(d_offset.p, d_adj.p, in_q, frontier, out_q, next_count,
                                                  d_visited.p, d_level.p, levels + 1);
      CHECK(cudaGetLastError());
      CHECK(cudaMemcpyAsync(h_count, next_count, 4, cudaMemcpyDeviceToHost, stream));
      CHECK(cudaStreamSynchronize(stream));
      frontier = *h_count;
      std::swap(in_q, out_q);
      ++levels;
    }
    CHECK(cudaEventRecord(stop, stream));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));

    d_level.download(level.data());
    edges_visited = 0;  // every reached vertex's list is expanded once
    for (std::uint32_t v = 0; v < n; ++v)
      if (level[v] != kNotReached) edges_visited += g.offset[v + 1] - g.offset[v];
    baseline::print_summary("bfs_baseline", levels, ms, edges_visited, g.edge_count(), "empty frontier");
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
