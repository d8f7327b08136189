#include "jit/disk_cache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace npy::jit {
namespace {

constexpr std::int64_t kNow = 2'000'000'000;

std::vector<std::string> sorted(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  return names;
}

TEST(DiskCache, PartialFilesGoOnceNoWriterCanStillOwnThem) {
  const std::vector<CacheEntry> entries = {
      {".writing-12-0", 100, kNow - kPartialSeconds - 1},
      {".writing-13-0", 100, kNow - kPartialSeconds + 5},
      {"00000000000000aa.kernel", 100, kNow},
  };
  EXPECT_EQ(entries_to_remove(entries, kNow, 1 << 20), std::vector<std::string>{".writing-12-0"});
}

TEST(DiskCache, KernelsUnusedForALongTimeGo) {
  const std::vector<CacheEntry> entries = {
      {"00000000000000aa.kernel", 100, kNow - kUnusedSeconds - 1},
      {"00000000000000bb.kernel", 100, kNow - kUnusedSeconds + 60},
  };
  EXPECT_EQ(entries_to_remove(entries, kNow, 1 << 20), std::vector<std::string>{"00000000000000aa.kernel"});
}

TEST(DiskCache, OverTheLimitTheLeastRecentlyUsedGoDownToThreeQuarters) {
  std::vector<CacheEntry> entries;
  for (int i = 0; i < 10; ++i) {
    entries.push_back({"k" + std::to_string(i) + ".kernel", 100, kNow - 1000 + (i * 7) % 10});
  }
  // 1,000 bytes against a limit of 800: down to 600, the four oldest out.
  EXPECT_EQ(sorted(entries_to_remove(entries, kNow, 800)),
            sorted({"k0.kernel", "k3.kernel", "k6.kernel", "k9.kernel"}));
  EXPECT_TRUE(entries_to_remove(entries, kNow, 1000).empty());
}

TEST(DiskCache, OtherFilesAreNotTheCaches) {
  const std::vector<CacheEntry> entries = {
      {".tidied", 0, 0},
      {"notes.txt", 5000, 0},
      {"kernel", 5000, 0},
      {".kernel", 5000, 0},
  };
  EXPECT_TRUE(entries_to_remove(entries, kNow, 100).empty());
}

}  // namespace
}  // namespace npy::jit
