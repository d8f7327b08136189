#include "jit/cpu_kernels.h"
#include "jit/kernel_cache.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace npy::jit {
namespace {

// A kernel that counts how many of its kind exist, so that a test sees
// which ones the cache let go of.
struct CountedKernel : ChainKernel {
  static int alive;
  CountedKernel() { ++alive; }
  ~CountedKernel() override { --alive; }
};
int CountedKernel::alive = 0;

// The cache's kernel for `key`; a new one has `points` set to `mark`.
std::shared_ptr<const ChainKernel> counted_kernel_for(CodeCache<ChainKernel>& cache, const std::string& key,
                                                       int& compiled, int mark = 0) {
  return cached_code(
      cache, *cpu_compiler(), key, ChainKernel{},
      [&] {
        ++compiled;
        auto kernel = std::make_unique<CountedKernel>();
        kernel->points = mark;
        return std::unique_ptr<ChainKernel>(std::move(kernel));
      },
      [](const ChainKernel&) { return std::string(); });
}

TEST(KernelCache, EverNewKernelsStayBoundedAndAHeldKernelOutlivesTheCache) {
  CodeCache<ChainKernel> cache;
  int compiled = 0;
  const std::shared_ptr<const ChainKernel> held = counted_kernel_for(cache, "held", compiled, 7);
  const std::weak_ptr<const ChainKernel> dropped = counted_kernel_for(cache, "dropped", compiled);
  for (std::size_t i = 0; i < 3 * kMaxCachedKernels; ++i) {
    counted_kernel_for(cache, "kernel " + std::to_string(i), compiled);
    ASSERT_LE(cache.size(), kMaxCachedKernels);
  }
  EXPECT_EQ(compiled, static_cast<int>(3 * kMaxCachedKernels) + 2);
  EXPECT_LE(CountedKernel::alive, static_cast<int>(kMaxCachedKernels) + 1);
  // Let go of by the cache: gone where nobody holds it, whole where held.
  EXPECT_TRUE(dropped.expired());
  EXPECT_EQ(cache.count("held"), 0u);
  EXPECT_EQ(held.use_count(), 1);
  EXPECT_EQ(held->points, 7);
  // A kernel the cache still has is reused, not compiled again.
  const std::string last = "kernel " + std::to_string(3 * kMaxCachedKernels - 1);
  EXPECT_EQ(counted_kernel_for(cache, last, compiled).get(), cache.at(last).get());
  EXPECT_EQ(compiled, static_cast<int>(3 * kMaxCachedKernels) + 2);
}

}  // namespace
}  // namespace npy::jit
