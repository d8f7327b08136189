#include "jit/host.h"

#include <gtest/gtest.h>

#include <omp.h>

#include <cstdlib>
#include <string>

namespace npy::jit {
namespace {

TEST(Host, ThreadCountParsing) {
  EXPECT_EQ(parse_thread_count("4"), 4);
  EXPECT_EQ(parse_thread_count("1"), 1);
  EXPECT_EQ(parse_thread_count("65536"), 65536);
  EXPECT_EQ(parse_thread_count("0"), 0);
  EXPECT_EQ(parse_thread_count("-2"), 0);
  EXPECT_EQ(parse_thread_count("3x"), 0);
  EXPECT_EQ(parse_thread_count(""), 0);
  EXPECT_EQ(parse_thread_count("99999999999999999999"), 0);
}

TEST(Host, ThreadsFollowNpyThreads) {
  setenv("NPY_THREADS", "3", 1);
  EXPECT_EQ(host_threads(), 3);
  setenv("NPY_THREADS", "65536", 1);
  EXPECT_EQ(host_threads(), kMaxThreads);
  unsetenv("NPY_THREADS");
  EXPECT_EQ(host_threads(), omp_get_num_procs());
}

TEST(Host, VectorIsaIsOneOfTheKnown) {
  const std::string name = vector_isa_name(host_vector_isa());
  EXPECT_TRUE(name == "sse2" || name == "avx2" || name == "avx512") << name;
}

}  // namespace
}  // namespace npy::jit
