// Hand-written CUDA PageRank, the "manual implementation" Medusa's PageRank is measured against.
// Same formula as samples/pagerank: rank'(v) = 0.15 + 0.85 * sum over in-neighbours u of
// rank(u) / outdeg(u), float, a fixed number of iterations (default 30), all ranks start at 1.
// Pull over the reverse CSR (in-edges), no atomics: each vertex gathers contrib(u) = rank(u) /
// outdeg(u), which the previous iteration wrote next to its rank, so an in-edge costs one 4-byte
// gather. One kernel per iteration; vertices are binned once by in-degree: >= 2048 in-edges get a
// block, >= 32 a warp, the rest a thread (blocks for the big bins are scheduled first).
#include "baseline_common.h"
#include "cuda_check.cuh"

#include <cub/block/block_reduce.cuh>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

namespace {

constexpr int kBlock = 256;
constexpr std::uint64_t kBlockDegree = 2048, kWarpDegree = 32;

__device__ __forceinline__ void finish(std::uint32_t v, float sum, const std::uint32_t* out_degree, float* rank,
                                       float* contrib_next) {
  const float r = 0.15f + sum * 0.85f;
  rank[v] = r;
  const std::uint32_t d = out_degree[v];
  contrib_next[v] = d ? r / static_cast<float>(d) : 0.0f;
}

struct Bins {
  const std::uint32_t *block, *warp, *thread;  // vertex ids
  std::uint32_t n_block, n_warp, n_thread, warp_blocks;
};

__global__ void __launch_bounds__(kBlock)
    pull_iteration(const std::uint64_t* __restrict__ offset, const std::uint32_t* __restrict__ in_src,
                   const std::uint32_t* __restrict__ out_degree, const float* __restrict__ contrib, Bins bins,
                   float* __restrict__ rank, float* __restrict__ contrib_next) {
  std::uint32_t b = blockIdx.x;
  if (b < bins.n_block) {  // a block per vertex
    using Reduce = cub::BlockReduce<float, kBlock>;
    __shared__ typename Reduce::TempStorage tmp;
    const std::uint32_t v = bins.block[b];
    float sum = 0;
    const std::uint64_t end = offset[v + 1];
    for (std::uint64_t e = offset[v] + threadIdx.x; e < end; e += kBlock) sum += contrib[in_src[e]];
    sum = Reduce(tmp).Sum(sum);
    if (threadIdx.x == 0) finish(v, sum, out_degree, rank, contrib_next);
    return;
  }
  b -= bins.n_block;
  if (b < bins.warp_blocks) {  // a warp per vertex
    const std::uint32_t w = b * (kBlock / 32) + threadIdx.x / 32, lane = threadIdx.x & 31;
    if (w >= bins.n_warp) return;
    const std::uint32_t v = bins.warp[w];
    float sum = 0;
    const std::uint64_t end = offset[v + 1];
    for (std::uint64_t e = offset[v] + lane; e < end; e += 32) sum += contrib[in_src[e]];
    for (int d = 16; d > 0; d >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, d);
    if (lane == 0) finish(v, sum, out_degree, rank, contrib_next);
    return;
  }
  b -= bins.warp_blocks;  // a thread per vertex
  const std::uint32_t t = b * kBlock + threadIdx.x;
  if (t >= bins.n_thread) return;
  const std::uint32_t v = bins.thread[t];
  float sum = 0;
  const std::uint64_t end = offset[v + 1];
  for (std::uint64_t e = offset[v]; e < end; ++e) sum += contrib[in_src[e]];
  finish(v, sum, out_degree, rank, contrib_next);
}

// Double-precision reference with the sample's formula (pull order; OpenMP over vertices).
std::vector<double> pagerank_cpu(const baseline::Csr& in, const std::vector<std::uint32_t>& out_degree,
                                 std::uint32_t iterations) {
  const std::int64_t n = in.vertex_count;
  std::vector<double> rank(n, 1.0), contrib(n), next(n);
  for (std::uint32_t it = 0; it < iterations; ++it) {
#pragma omp parallel for schedule(static)
    for (std::int64_t u = 0; u < n; ++u) contrib[u] = out_degree[u] ? rank[u] / out_degree[u] : 0.0;
#pragma omp parallel for schedule(dynamic, 1024)
    for (std::int64_t v = 0; v < n; ++v) {
      double sum = 0;
      for (std::uint64_t e = in.offset[v]; e < in.offset[v + 1]; ++e) sum += contrib[in.index[e]];
      next[v] = 0.15 + 0.85 * sum;
    }
    std::swap(rank, next);
  }
  return rank;
}

}  // namespace

int main(int argc, char** argv) {
  const baseline::Options opt =
      baseline::parse_options(argc, argv, "pagerank_baseline: hand-written CUDA PageRank (pull, reverse CSR)");
  const std::uint32_t iterations = opt.iterations ? opt.iterations : 30;
  const baseline::Graph graph = baseline::load_graph(opt, true);
  const std::uint32_t n = graph.in.vertex_count;
  std::printf("%s\n", graph.description.c_str());
  std::printf("variant: pull over in-edges, block/warp/thread per vertex by in-degree, %u iterations\n", iterations);

  std::vector<std::uint32_t> out_degree(n), bin_block, bin_warp, bin_thread;
  std::vector<float> contrib0(n);
  for (std::uint32_t v = 0; v < n; ++v) {
    out_degree[v] = static_cast<std::uint32_t>(graph.out.offset[v + 1] - graph.out.offset[v]);
    contrib0[v] = out_degree[v] ? 1.0f / static_cast<float>(out_degree[v]) : 0.0f;
    const std::uint64_t d = graph.in.offset[v + 1] - graph.in.offset[v];
    (d >= kBlockDegree ? bin_block : d >= kWarpDegree ? bin_warp : bin_thread).push_back(v);
  }
  std::printf("bins: %zu vertices by block, %zu by warp, %zu by thread\n", bin_block.size(), bin_warp.size(),
              bin_thread.size());

  DeviceArray<std::uint64_t> d_offset(graph.in.offset.size());
  DeviceArray<std::uint32_t> d_src(graph.in.index.size()), d_out_degree(n), d_block(bin_block.size()),
      d_warp(bin_warp.size()), d_thread(bin_thread.size());
  DeviceArray<float> d_rank(n), d_contrib(n), d_contrib_next(n);
  d_offset.upload(graph.in.offset.data());
  d_src.upload(graph.in.index.data());
  d_out_degree.upload(out_degree.data());
  d_block.upload(bin_block.data());
  d_warp.upload(bin_warp.data());
  d_thread.upload(bin_thread.data());
  baseline::print_device_memory(d_offset.bytes() + d_src.bytes() + d_out_degree.bytes() + d_block.bytes() +
                                    d_warp.bytes() + d_thread.bytes() + d_rank.bytes() + d_contrib.bytes() +
                                    d_contrib_next.bytes(),
                                "reverse CSR, out-degrees, bins, rank, two contribution arrays");

  Bins bins{d_block.p, d_warp.p, d_thread.p, static_cast<std::uint32_t>(bin_block.size()),
            static_cast<std::uint32_t>(bin_warp.size()), static_cast<std::uint32_t>(bin_thread.size()), 0};
  bins.warp_blocks = (bins.n_warp + kBlock / 32 - 1) / (kBlock / 32);
  const std::uint32_t grid = bins.n_block + bins.warp_blocks + (bins.n_thread + kBlock - 1) / kBlock;

  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::vector<float> rank(n);
  for (int run = 0; run < opt.runs; ++run) {
    // Initial state (untimed): rank 1 everywhere, so contrib = 1 / outdeg.
    d_contrib.upload(contrib0.data());
    float* contrib = d_contrib.p;
    float* contrib_next = d_contrib_next.p;
    CHECK(cudaEventRecord(start, stream));
    for (std::uint32_t it = 0; it < iterations && grid > 0; ++it) {
      pull_iteration<<<grid, kBlock, 0, stream>>>(d_offset.p, d_src.p, d_out_degree.p, contrib, bins, d_rank.p,
                                                  contrib_next);
      CHECK(cudaGetLastError());
      std::swap(contrib, contrib_next);
    }
    CHECK(cudaEventRecord(stop, stream));
    CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    baseline::print_summary("pagerank_baseline", iterations, ms, graph.in.edge_count() * iterations,
                            graph.in.edge_count(), "maxIteration");
  }
  d_rank.download(rank.data());
  if (!opt.validate) return 0;

  // Single-precision sums in another order than the reference: relative tolerance 1e-4 (as the sample).
  const std::vector<double> expected = pagerank_cpu(graph.in, out_degree, iterations);
  std::size_t mismatches = 0;
  for (std::uint32_t v = 0; v < n; ++v) {
    if (std::fabs(rank[v] - expected[v]) > 1e-4 * std::fmax(1.0, std::fabs(expected[v])) && ++mismatches <= 5)
      std::printf("  vertex %u: got %.9g, expected %.9g\n", v, rank[v], expected[v]);
  }
  if (mismatches) {
    std::printf("validation: FAILED (PageRank vs CPU reference, relative tolerance 1e-4): %zu mismatches\n",
                mismatches);
    return 1;
  }
  std::printf("validation: PASSED (PageRank vs CPU reference, relative tolerance 1e-4)\n");
  return 0;
}
