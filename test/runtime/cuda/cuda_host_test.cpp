// Host-side pieces of the CUDA backend that need no GPU: the device-memory plan and the
// needed-vs-free error, the formatting of MEDUSA_CUDA_CHECK failures, and when supersteps run in
// batches. Built as plain C++
// (CUDA runtime API only) and run in CI without the `gpu` label.
#include <medusa/backend/cuda/batch_policy.h>
#include <medusa/backend/cuda/check.h>
#include <medusa/backend/cuda/memory_plan.h>
#include <medusa/error.h>

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

using namespace medusa;

namespace {
bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}
}  // namespace

TEST_CASE("memory plan counts every device array a Session allocates", "[cuda][runtime]") {
  gpu::GraphShape g;
  g.vertices = 1000;
  g.edges = 16000;
  g.messages_per_edge = 1;
  g.message_bytes = 4;
  g.vertex_fields = {{"rank", 4}, {"sum", 8}};
  g.edge_fields = {{"length", 4}};
  const std::uint64_t base = 2 * 1001 * 8      // out_offsets, in_offsets
                             + 16000 * (4 + 4 + 8)  // out_dst, edge_src, rid
                             + 1000 * 12 + 16000 * 4  // fields
                             + 16000 * 4            // message buffer
                             + 1000 * 4             // combined
                             + 64;                  // step counters
  CHECK(gpu::plan_memory(g).total() == base);

  g.vertex_frontier = true;
  g.edge_frontier = true;
  g.received = true;
  g.temp_bytes = 512;
  CHECK(gpu::plan_memory(g).total() == base + 1000 * 5 + 16000 * 9 + 1000 + 512);

  g.messages_per_edge = 3;  // three slots per edge, per-edge send counts, scaled offsets
  CHECK(gpu::plan_memory(g).total() ==
        base + 1000 * 5 + 16000 * 9 + 1000 + 512 + 16000 * 4 * 2 + 16000 * 4 + 1001 * 8);
}

TEST_CASE("memory plan counts the receiver queues and the queued frontier of batched supersteps",
          "[cuda][runtime]") {
  gpu::GraphShape g;
  g.vertices = 1000;
  g.edges = 16000;
  g.message_bytes = 4;
  const std::uint64_t without = gpu::plan_memory(g).total();
  g.receiver_queues = true;  // two queues, spare combined values (4 bytes) and flags (1)
  CHECK(gpu::plan_memory(g).total() == without + 1000 * (2 * 4 + 4 + 1));
  g.queued_frontier = true;
  CHECK(gpu::plan_memory(g).total() == without + 1000 * (3 * 4 + 4 + 1));
  // A partition also lands its replicas' flags apart (a byte per vertex), beside its global maps.
  g.partitioned = true;
  g.queued_frontier = false;
  const std::uint64_t partitioned = gpu::plan_memory(g).total();
  g.queued_frontier = true;
  CHECK(gpu::plan_memory(g).total() == partitioned + 1000 * (4 + 1));
}

TEST_CASE("memory plan counts the priority slots and far piles of SetActive(priority)", "[cuda][runtime]") {
  gpu::GraphShape g;
  g.vertices = 1000;
  g.edges = 16000;
  g.message_bytes = 4;
  const std::uint64_t without = gpu::plan_memory(g).total();
  // The priorities given in a superstep and the waiting ones (8 bytes each), the activated vertices
  // and two far piles (4-byte ids), and the pile flags (a byte).
  g.priority_slots = true;
  CHECK(gpu::plan_memory(g).total() == without + 1000 * (2 * 8 + 3 * 4 + 1));
}

TEST_CASE("memory plan counts the neighbour rows of partitioned neighbour sets", "[cuda][runtime]") {
  gpu::GraphShape g;
  g.vertices = 1000;
  g.edges = 16000;
  g.message_bytes = 4;
  g.partitioned = true;
  const std::uint64_t without = gpu::plan_memory(g).total();
  // Offsets (8 bytes per local vertex, and one) and the rows' 4-byte global IDs.
  g.neighbor_rows = true;
  g.neighbor_row_entries = 40000;
  CHECK(gpu::plan_memory(g).total() == without + 1001 * 8 + 40000 * 4);
}

TEST_CASE("supersteps are batched after a streak of pushed frontiers, every one when forced",
          "[cuda][runtime]") {
  const std::uint64_t edges = 8000;  // frontiers of fewer than 1000 out-edges are pushed
  SECTION("auto") {
    gpu::BatchPolicy p(gpu::BatchMode::Auto);
    CHECK(p.allow(true));
    for (std::uint32_t i = 1; i < gpu::BatchPolicy::kSparseStreak; ++i) CHECK_FALSE(p.should_start(true, 999, edges));
    CHECK(p.should_start(true, 999, edges));
    p.reset_streak();
    for (std::uint32_t i = 1; i < gpu::BatchPolicy::kSparseStreak; ++i) CHECK_FALSE(p.should_start(true, 10, edges));
    CHECK_FALSE(p.should_start(true, 1000, edges));  // pulled: the streak starts over
    for (std::uint32_t i = 1; i < gpu::BatchPolicy::kSparseStreak; ++i) CHECK_FALSE(p.should_start(true, 0, edges));
    CHECK_FALSE(p.should_start(false, 0, edges));  // an operation no batch can run
    p.reset_streak();
    CHECK(p.should_start(true, 0, edges, /*frontier=*/false));  // no frontier to grow: at once
    CHECK_FALSE(p.should_start(false, 0, edges, /*frontier=*/false));
    CHECK(p.continues(999, edges));
    CHECK_FALSE(p.continues(1000, edges));
    CHECK(p.continues(0, 0));  // no frontier (a VERTEX-only program)
  }
  SECTION("priority buckets: only while the bucketed vertices are sparse") {
    const std::uint64_t vertices = 800;  // fewer than 100 bucketed vertices qualify
    CHECK(gpu::BatchPolicy::sparse_buckets(0, vertices));  // no buckets
    CHECK(gpu::BatchPolicy::sparse_buckets(99, vertices));
    CHECK_FALSE(gpu::BatchPolicy::sparse_buckets(100, vertices));
    gpu::BatchPolicy p(gpu::BatchMode::Auto);
    CHECK(p.allow(true));
    for (std::uint32_t i = 1; i < gpu::BatchPolicy::kSparseStreak; ++i) CHECK_FALSE(p.should_start(true, 10, edges));
    CHECK_FALSE(p.should_start(true, 10, edges, true, /*buckets_sparse=*/false));  // the streak starts over
    for (std::uint32_t i = 1; i < gpu::BatchPolicy::kSparseStreak; ++i) CHECK_FALSE(p.should_start(true, 10, edges));
    CHECK(p.should_start(true, 10, edges, true, true));
    CHECK(p.continues(10, edges, true));
    CHECK_FALSE(p.continues(10, edges, false));
    gpu::BatchPolicy forced(gpu::BatchMode::Always);
    CHECK(forced.allow(true));
    CHECK(forced.should_start(true, 10, edges, true, false));  // forced batches ignore it
    CHECK(forced.continues(10, edges, false));
  }
  SECTION("always") {
    gpu::BatchPolicy p(gpu::BatchMode::Always);
    CHECK(p.allow(true));
    CHECK(p.should_start(true, edges, edges));
    CHECK_FALSE(p.should_start(false, 0, edges));
    CHECK(p.continues(edges, edges));
  }
  SECTION("off, or not allowed by the engine") {
    gpu::BatchPolicy off(gpu::BatchMode::Off);
    CHECK_FALSE(off.allow(true));
    gpu::BatchPolicy refused(gpu::BatchMode::Auto);
    CHECK_FALSE(refused.allow(false));
    for (int i = 0; i < 20; ++i) {
      CHECK_FALSE(off.should_start(true, 0, edges));
      CHECK_FALSE(refused.should_start(true, 0, edges));
    }
  }
  SECTION("queued frontiers") {
    gpu::BatchPolicy automatic(gpu::BatchMode::Auto), always(gpu::BatchMode::Always);
    CHECK(automatic.queues_frontier(1024, 16 * 1024));  // a bound of 1024 (frontier 256) in 16384 vertices
    CHECK_FALSE(automatic.queues_frontier(1024, 16 * 1024 - 1));
    CHECK(always.queues_frontier(1024, 10));
  }
  SECTION("grid bounds") {
    CHECK(gpu::BatchPolicy::bounds(10, 25).vertices == gpu::BatchPolicy::kMinVertexBound);
    CHECK(gpu::BatchPolicy::bounds(10, 25).vertex_edges == gpu::BatchPolicy::kMinVertexBound * 4);  // (3072 up)
    CHECK(gpu::BatchPolicy::bounds(1000, 2500).vertices == 4096);                 // (4000 up)
    CHECK(gpu::BatchPolicy::bounds(1000, 2500).vertex_edges == 16384);            // (4096 * 3 up)
    CHECK(gpu::BatchPolicy::bounds(1024, 1024).vertices == 4096);                 // (a power of two stays)
    CHECK(gpu::BatchPolicy::bounds(1024, 1024).vertex_edges == 4096);
    CHECK(gpu::BatchPolicy::bounds(0, 0).vertex_edges == gpu::BatchPolicy::kMinVertexBound);
  }
}

TEST_CASE("a graph too large for the GPU fails before allocating, with needed vs free",
          "[cuda][runtime]") {
  // Kronecker scale 30 with edge factor 16, symmetrized: far beyond any single GPU.
  gpu::GraphShape g;
  g.vertices = 1ull << 30;
  g.edges = 1ull << 35;
  g.messages_per_edge = 2;
  g.message_bytes = 8;
  g.vertex_fields = {{"level", 4}};
  const gpu::MemoryPlan plan = gpu::plan_memory(g);
  const std::uint64_t free_bytes = 80ull << 30;
  REQUIRE(plan.total() > free_bytes);
  try {
    gpu::require_fits(plan, g, free_bytes, "NVIDIA H100 80GB HBM3");
    FAIL("require_fits did not throw");
  } catch (const Error& e) {
    const std::string m = e.message();
    CHECK(contains(m, "graph needs " + std::to_string(plan.total()) + " bytes"));
    CHECK(contains(m, "on NVIDIA H100 80GB HBM3, only " + std::to_string(free_bytes)));
    CHECK(contains(m, "1073741824 vertices, 34359738368 edges, m=2"));
    CHECK(contains(m, "message buffer"));  // the largest items are listed
    CHECK(contains(m, "gpuCount"));        // and what to do
    CHECK(contains(e.what(), "memory_plan.cpp:"));  // located
  }
  // Exactly enough is enough.
  CHECK_NOTHROW(gpu::require_fits(plan, g, plan.total(), "x"));
  CHECK_THROWS_AS(gpu::require_fits(plan, g, plan.total() - 1, "x"), Error);
}

TEST_CASE("memory plan saturates instead of wrapping around", "[cuda][runtime]") {
  gpu::GraphShape g;
  g.vertices = 1;
  g.edges = ~0ull / 2;
  g.messages_per_edge = 1u << 31;
  g.message_bytes = 64;
  const gpu::MemoryPlan plan = gpu::plan_memory(g);
  CHECK(plan.total() == ~0ull);
  CHECK_THROWS_WITH(gpu::require_fits(plan, g, 1ull << 40, "x"),
                    Catch::Matchers::Contains("more than 16 EiB"));
}

TEST_CASE("human_bytes", "[cuda][runtime]") {
  CHECK(gpu::human_bytes(512) == "512 B");
  CHECK(gpu::human_bytes(3ull << 29) == "1.50 GiB");
}

TEST_CASE("MEDUSA_CUDA_CHECK throws medusa::Error with location, call, name and advice",
          "[cuda][runtime]") {
  // cudaGetErrorName/String work without a GPU, so failing "calls" can be simulated.
  try {
    MEDUSA_CUDA_CHECK(cudaErrorMemoryAllocation);
    FAIL("no throw");
  } catch (const Error& e) {
    const std::string what = e.what();
    CHECK(contains(what, "cuda_host_test.cpp:"));
    CHECK(contains(e.message(), "cudaErrorMemoryAllocation failed: cudaErrorMemoryAllocation ("));
    CHECK(contains(e.message(), "out of memory"));
    CHECK(contains(e.message(), "messagesPerEdge"));
  }
  CHECK_NOTHROW([] { MEDUSA_CUDA_CHECK(cudaSuccess); }());
  const std::string nodev = gpu::format_cuda_error(cudaErrorNoDevice, "cudaSetDevice(0)");
  CHECK(contains(nodev, "cudaSetDevice(0) failed: cudaErrorNoDevice"));
  // Both kinds of user learn what to run: medusa_add_program's <name>_host (named after this
  // program), or the macro.
  const std::string host_build =
      "run the host-backend build of this program (medusa_add_program() makes it as "
      "medusa_cuda_host_tests_host)";
  CHECK(contains(nodev, host_build));
  CHECK(contains(nodev, "-DMEDUSA_BACKEND_HOST"));
  const std::string nodriver = gpu::format_cuda_error(cudaErrorInsufficientDriver, "x");
  CHECK(contains(nodriver, "update the driver"));
  CHECK(contains(nodriver, host_build));
  CHECK(contains(nodriver, "-DMEDUSA_BACKEND_HOST"));
  CHECK(contains(gpu::format_cuda_error(cudaErrorNoKernelImageForDevice, "x"),
                 "CMAKE_CUDA_ARCHITECTURES"));
  // An error without specific advice still names itself.
  CHECK(gpu::format_cuda_error(cudaErrorInvalidValue, "f()") ==
        std::string("f() failed: cudaErrorInvalidValue (") + cudaGetErrorString(cudaErrorInvalidValue) +
            ").");
}

TEST_CASE("MEDUSA_CUDA_CHECK_LAUNCH reports a pending launch error", "[cuda][runtime]") {
  // Without a kernel launch the last error is whatever the runtime recorded; on a machine
  // without a GPU that is cudaErrorNoDevice (or success when a GPU is present). Either way the
  // macro must not throw for success and must throw medusa::Error otherwise.
  const cudaError_t pending = cudaPeekAtLastError();
  if (pending == cudaSuccess) {
    CHECK_NOTHROW([] { MEDUSA_CUDA_CHECK_LAUNCH("nothing"); }());
  } else {
    CHECK_THROWS_WITH([] { MEDUSA_CUDA_CHECK_LAUNCH("nothing"); }(),
                      Catch::Matchers::Contains("launch of nothing failed"));
  }
}
