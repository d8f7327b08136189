#include "common/stats.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

namespace npy {
namespace {

struct Registry {
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<Counter>> counters;
};

Registry& registry() {
  // Never destroyed: counters may be bumped by threads still running while
  // the process exits.
  static Registry* instance = new Registry;
  return *instance;
}

std::chrono::steady_clock::time_point g_run_start;
// Nanoseconds, by TimeShare.
std::atomic<std::uint64_t> g_share_ns[3];

}  // namespace

Counter& counter(const std::string& name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::unique_ptr<Counter>& slot = r.counters[name];
  if (!slot) slot = std::make_unique<Counter>();
  return *slot;
}

std::vector<std::pair<std::string, std::uint64_t>> snapshot_counters() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<std::pair<std::string, std::uint64_t>> out;
  out.reserve(r.counters.size());
  for (const auto& [name, c] : r.counters) out.emplace_back(name, c->value());
  return out;
}

std::string format_counters() {
  std::ostringstream text;
  text << "npython stats:\n";
  const auto counters = snapshot_counters();
  std::size_t width = 0;
  for (const auto& entry : counters) width = std::max(width, entry.first.size());
  for (const auto& [name, value] : counters) {
    text << "  " << name << std::string(width - name.size() + 2, ' ') << value << '\n';
  }
  return text.str();
}

std::string format_counters_json() {
  // Counter names are npython's own identifiers: letters, digits, '.', '_'.
  std::ostringstream text;
  text << '{';
  bool first = true;
  for (const auto& [name, value] : snapshot_counters()) {
    text << (first ? "" : ", ") << '"' << name << "\": " << value;
    first = false;
  }
  text << "}\n";
  return text.str();
}

void start_time_shares() {
  g_run_start = std::chrono::steady_clock::now();
  g_time_shares = true;
}

void add_time(TimeShare share, double seconds) {
  if (seconds <= 0) return;
  g_share_ns[static_cast<int>(share)].fetch_add(static_cast<std::uint64_t>(seconds * 1e9),
                                                std::memory_order_relaxed);
}

TimeShares time_shares() {
  TimeShares shares;
  if (!g_time_shares) return shares;
  shares.diagnostics = static_cast<double>(g_share_ns[2].load(std::memory_order_relaxed)) * 1e-9;
  shares.total = std::chrono::duration<double>(std::chrono::steady_clock::now() - g_run_start).count();
  shares.diagnostics = std::min(shares.diagnostics, shares.total);
  shares.total -= shares.diagnostics;
  shares.compiled_regions = static_cast<double>(g_share_ns[0].load(std::memory_order_relaxed)) * 1e-9;
  shares.eager_numpy = static_cast<double>(g_share_ns[1].load(std::memory_order_relaxed)) * 1e-9;
  // Threads of the program may overlap: the shares never exceed the run.
  shares.compiled_regions = std::min(shares.compiled_regions, shares.total);
  shares.eager_numpy = std::min(shares.eager_numpy, shares.total - shares.compiled_regions);
  shares.interpreter = shares.total - shares.compiled_regions - shares.eager_numpy;
  return shares;
}

std::string format_time_shares(const TimeShares& shares) {
  const double total = shares.total > 0 ? shares.total : 1;
  char text[384];
  std::snprintf(text, sizeof text,
                "run time %.3f s: %.1f%% in compiled regions (%.3f s), %.1f%% in eager NumPy calls (%.3f s), "
                "%.1f%% in the interpreter (%.3f s: Python code, imports and start-up); recording these "
                "diagnostics took %.3f s more",
                shares.total, 100 * shares.compiled_regions / total, shares.compiled_regions,
                100 * shares.eager_numpy / total, shares.eager_numpy, 100 * shares.interpreter / total,
                shares.interpreter, shares.diagnostics);
  return text;
}

}  // namespace npy
