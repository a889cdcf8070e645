// A CUDA session's admission through the GPU memory ledger (backend/cuda/admission.h): it holds its
// plan's bytes while it lives, fails at once or waits as Config::sharing says, and is admitted when
// the holder releases. Each case uses its own ledger folder. Needs a GPU (ctest label `gpu`).
#define MEDUSA_GENERATED 1
#include <medusa/medusa.h>

#include <medusa/backend/cuda/admission.h>
#include <medusa/backend/cuda/device.h>
#include <medusa/ledger/memory_ledger.h>

#include "support/scoped_env.h"

#include <catch2/catch.hpp>

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>

namespace admission_test {
struct Vertex {
  float value = 0;
};
struct Edge {};
}  // namespace admission_test

template <>
struct medusa::ProgramTraits<admission_test::Vertex, admission_test::Edge> {
  using Vertex = admission_test::Vertex;
  using Edge = admission_test::Edge;
  using Message = float;
  struct VertexArrays {
    float* value;
  };
  struct EdgeArrays {};
  static constexpr std::array<medusa::FieldSpec, 1> vertex_fields{{
      {"value", offsetof(Vertex, value), sizeof(float), medusa::kUpload | medusa::kDownload},
  }};
  static constexpr std::array<medusa::FieldSpec, 0> edge_fields{};
  static VertexArrays bind_vertex(void* const* a) { return {static_cast<float*>(a[0])}; }
  static EdgeArrays bind_edge(void* const*) { return {}; }
  static constexpr medusa::ProgramUses uses = medusa::ProgramUses::of(medusa::kUsesMessages);
};

namespace {

using admission_test::Edge;
using admission_test::Vertex;

struct TempLedger {
  std::string dir;
  medusa_test::ScopedEnv env;
  static std::string make() {
    char name[] = "/tmp/medusa-admission-test-XXXXXX";
    return mkdtemp(name) != nullptr ? name : "/tmp";
  }
  TempLedger() : dir(make()), env("MEDUSA_LEDGER_DIR", dir.c_str()) {}
  ~TempLedger() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

medusa::Graph<Vertex, Edge> ring(medusa::VertexId n) {
  medusa::Graph<Vertex, Edge> g(n);
  for (medusa::VertexId v = 0; v < n; ++v) g.AddEdge(v, (v + 1) % n);
  return g;
}

std::string init_error(medusa::Graph<Vertex, Edge>& g) {
  try {
    auto device = medusa::Init_Device_DS(g);
  } catch (const medusa::Error& e) {
    return e.message();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("a CUDA session holds its plan in the GPU memory ledger while it lives", "[cuda][gpu]") {
  const TempLedger t;
  const medusa::gpu::DeviceInfo d = medusa::gpu::select_device(0);
  const medusa::ledger::Ledger ledger(t.dir);
  const std::string key = medusa::gpu::ledger_key(d);
  CHECK(key.rfind("GPU-", 0) == 0);
  auto g = ring(1000);
  {
    auto device = medusa::Init_Device_DS(g);
    const auto held = ledger.holdings(key);
    REQUIRE(held.size() == 2);  // the process's CUDA context, then the session
    CHECK(held[0].bytes == medusa::gpu::kProcessShareBytes);
    CHECK(held[1].owner.find("Session of 1000 vertices, 1000 edges") != std::string::npos);
    CHECK(held[1].bytes > 1000 * sizeof(float));
    CHECK(device.report().find("admission: ") != std::string::npos);
  }
  CHECK(ledger.holdings(key).empty());
}

TEST_CASE("a CUDA session larger than the ledger's capacity fails at once", "[cuda][gpu]") {
  const TempLedger t;
  const medusa_test::ScopedEnv capacity("MEDUSA_GPU_CAPACITY", "1K");
  const auto start = std::chrono::steady_clock::now();
  auto g = ring(1000);
  const std::string m = init_error(g);
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  CHECK(m.find("has only 1.0 KiB (1024 bytes) for all programs together, so waiting would never help") !=
        std::string::npos);
}

TEST_CASE("a CUDA session fails at once, gives up, or waits while the GPU is held", "[cuda][gpu]") {
  const TempLedger t;
  const medusa::gpu::DeviceInfo d = medusa::gpu::select_device(0);
  const medusa::ledger::Ledger ledger(t.dir);
  medusa::ledger::Request r;
  r.device_key = medusa::gpu::ledger_key(d);
  r.device_label = "the test's GPU";
  r.capacity = d.total_bytes;
  r.bytes = d.total_bytes - (1u << 20);
  r.owner = "admission test holder";
  medusa::ledger::Reservation holder = ledger.reserve(r);
  auto g = ring(1000);
  {
    const medusa_test::ScopedEnv fail("MEDUSA_GPU_ADMISSION", "fail");
    const std::string m = init_error(g);
    CHECK(m.find("not enough GPU memory now") != std::string::npos);
    CHECK(m.find("admission test holder") != std::string::npos);
  }
  {
    const medusa_test::ScopedEnv wait("MEDUSA_GPU_WAIT_SECONDS", "0.2");
    CHECK(init_error(g).find("gave up waiting for GPU memory after 0.2") != std::string::npos);
  }
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    holder.release();
  });
  std::string m = "(no error)";
  try {
    auto device = medusa::Init_Device_DS(g);  // waits for the release
  } catch (const medusa::Error& e) {
    m = e.message();
  }
  release.join();
  CHECK(m == "(no error)");
}
