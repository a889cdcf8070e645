// gpu::atomic_fold under bitwise or / and (push_combine.cuh: one atomicOr / atomicAnd on the
// message's bits): thousands of threads fold into a few words at once, signed and unsigned, 4 and
// 8 bytes, read through L1 and in L2, against the same fold on the host.
#include <medusa/backend/common/combiner_ops.h>
#include <medusa/backend/cuda/push_combine.cuh>

#include <catch2/catch.hpp>

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>
#include <vector>

namespace {

template <class T, class Op>
__global__ void fold_kernel(T* words, std::uint32_t word_count, const T* values, std::uint32_t n, Op op,
                            bool in_l2) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) medusa::gpu::atomic_fold(words + i % word_count, values[i], op, in_l2);
}

std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Values with few bits set (or few cleared, under and), so that the folds do not saturate.
template <class T, class Op>
void check_fold(bool in_l2) {
  constexpr bool is_or = std::is_same_v<Op, medusa::common::BitOrOp<T>>;
  const std::uint32_t n = 1 << 16, word_count = 5;
  std::vector<T> values(n), words(word_count);
  for (std::uint32_t i = 0; i < n; ++i) {
    const auto bit = static_cast<T>(std::make_unsigned_t<T>(1) << (mix(i) % (8 * sizeof(T))));
    values[i] = mix(i + n) % 1024 == 0 ? static_cast<T>(is_or ? bit : ~bit) : static_cast<T>(is_or ? 0 : ~T(0));
  }
  for (std::uint32_t w = 0; w < word_count; ++w) words[w] = static_cast<T>(is_or ? T(1) << w : ~(T(1) << w));
  std::vector<T> expected = words;
  const Op op;
  for (std::uint32_t i = 0; i < n; ++i) expected[i % word_count] = op(expected[i % word_count], values[i]);

  T* d_words = nullptr;
  T* d_values = nullptr;
  REQUIRE(cudaMalloc(&d_words, word_count * sizeof(T)) == cudaSuccess);
  REQUIRE(cudaMalloc(&d_values, n * sizeof(T)) == cudaSuccess);
  REQUIRE(cudaMemcpy(d_words, words.data(), word_count * sizeof(T), cudaMemcpyHostToDevice) == cudaSuccess);
  REQUIRE(cudaMemcpy(d_values, values.data(), n * sizeof(T), cudaMemcpyHostToDevice) == cudaSuccess);
  fold_kernel<<<n / 256, 256>>>(d_words, word_count, d_values, n, op, in_l2);
  REQUIRE(cudaGetLastError() == cudaSuccess);
  REQUIRE(cudaMemcpy(words.data(), d_words, word_count * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
  cudaFree(d_words);
  cudaFree(d_values);
  CHECK(words == expected);
}

template <class T>
void check_both(bool in_l2) {
  INFO("sizeof " << sizeof(T) << ", signed " << std::is_signed_v<T> << ", in L2 " << in_l2);
  check_fold<T, medusa::common::BitOrOp<T>>(in_l2);
  check_fold<T, medusa::common::BitAndOp<T>>(in_l2);
}

}  // namespace

TEST_CASE("atomic_fold under bitwise or / and equals the host's fold", "[cuda][gpu]") {
  for (const bool in_l2 : {false, true}) {
    check_both<std::uint32_t>(in_l2);
    check_both<std::int32_t>(in_l2);
    check_both<std::uint64_t>(in_l2);
    check_both<std::int64_t>(in_l2);
  }
}
