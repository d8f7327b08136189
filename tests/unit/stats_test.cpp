#include "common/stats.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace npy {
namespace {

std::uint64_t value_of(const std::string& name) {
  for (const auto& [n, v] : snapshot_counters()) {
    if (n == name) return v;
  }
  ADD_FAILURE() << name << " not registered";
  return 0;
}

TEST(Stats, SameNameSameCounter) {
  Counter& a = counter("test.same");
  Counter& b = counter("test.same");
  EXPECT_EQ(&a, &b);
  a.add(2);
  b.add();
  EXPECT_EQ(value_of("test.same"), 3u);
}

TEST(Stats, ConcurrentAddsAreNotLost) {
  Counter& c = counter("test.concurrent");
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&c] {
      for (int i = 0; i < 100000; ++i) c.add();
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(c.value(), 800000u);
}

TEST(Stats, FormatListsCountersAligned) {
  counter("test.format.a").add(7);
  counter("test.format.longer_name").add(12);
  const std::string text = format_counters();
  EXPECT_EQ(text.rfind("npython stats:\n", 0), 0u);
  EXPECT_NE(text.find("  test.format.a            7\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  test.format.longer_name  12\n"), std::string::npos) << text;
}

TEST(Stats, JsonHoldsEveryCounter) {
  counter("test.json.value").add(41);
  const std::string json = format_counters_json();
  EXPECT_EQ(json.front(), '{');
  EXPECT_EQ(json.substr(json.size() - 2), "}\n");
  EXPECT_NE(json.find("\"test.json.value\": 41"), std::string::npos) << json;
}

}  // namespace
}  // namespace npy
