// Catch2 main for the GPU tests: without a usable GPU it says so and fails, instead of every test
// failing (or crashing) on its own. Listing tests needs no GPU.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <medusa/backend/cuda/device.h>
#include <medusa/error.h>

#include <cstdio>
#include <cstring>

int main(int argc, char* argv[]) {
  bool listing = false;
  for (int i = 1; i < argc; ++i)
    if (std::strncmp(argv[i], "--list", 6) == 0 || std::strcmp(argv[i], "-l") == 0 ||
        std::strcmp(argv[i], "-h") == 0 || std::strcmp(argv[i], "--help") == 0)
      listing = true;
  if (!listing) {
    try {
      const medusa::gpu::DeviceInfo d = medusa::gpu::select_device(0);
      std::printf("GPU tests on %s (sm_%d%d, %d SMs)\n", d.name.c_str(), d.compute_major,
                  d.compute_minor, d.sm_count);
    } catch (const medusa::Error& e) {
      std::fprintf(stderr,
                   "These tests need a CUDA GPU and none is usable:\n  %s\n"
                   "(On machines without a GPU run `ctest -LE gpu` to skip them.)\n",
                   e.what());
      return 2;
    }
  }
  return Catch::Session().run(argc, argv);
}
