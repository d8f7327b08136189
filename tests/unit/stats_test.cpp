#include "common/stats.h"

#include <gtest/gtest.h>

#include <string>
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

// The column where a counter's value starts on its line of `text` (npos
// when the line is missing), checking the value.
std::size_t value_column(const std::string& text, const std::string& name, const std::string& value) {
  const std::size_t line = text.find("\n  " + name + " ");
  if (line == std::string::npos) return line;
  const std::size_t at = text.find_first_not_of(' ', line + 3 + name.size());
  if (at == std::string::npos || text.compare(at, value.size() + 1, value + "\n") != 0) return std::string::npos;
  return at - line;
}

// Other tests of the process register counters too, longer names among
// them: the values line up whatever the longest name is.
TEST(Stats, FormatListsCountersAligned) {
  counter("test.format.a").add(7);
  counter("test.format.longer_name").add(12);
  const std::string text = format_counters();
  EXPECT_EQ(text.rfind("npython stats:\n", 0), 0u);
  const std::size_t a = value_column(text, "test.format.a", "7");
  const std::size_t longer = value_column(text, "test.format.longer_name", "12");
  EXPECT_NE(a, std::string::npos) << text;
  EXPECT_EQ(a, longer) << text;
  EXPECT_GE(longer, std::string("\n  test.format.longer_name  ").size()) << text;
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
