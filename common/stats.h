// The one place every part of npython reports its counters to: named,
// monotonically increasing, safe to bump from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace npy {

class Counter {
 public:
  void add(std::uint64_t n = 1) { value_.fetch_add(n, std::memory_order_relaxed); }
  // For a counter that is only ever bumped under one lock (CPython's GIL):
  // a plain increment, without the locked instruction `add` costs on every
  // Python frame.
  void add_serialized(std::uint64_t n = 1) {
    value_.store(value_.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
  }
  std::uint64_t value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<std::uint64_t> value_{0};
};

// Returns the counter registered under `name`, creating it at zero on first
// use. The reference stays valid for the life of the process, so hot paths
// look a counter up once and keep the reference.
Counter& counter(const std::string& name);

// Every registered counter, sorted by name.
std::vector<std::pair<std::string, std::uint64_t>> snapshot_counters();

// The counters as the text NPY_JIT_STATS=1 prints at exit.
std::string format_counters();

// The counters as a JSON object, as NPY_JIT_STATS=FILE.json writes them.
std::string format_counters_json();

// Where a run's time goes, for --explain and NPY_JIT_STATS=1: the seconds in
// compiled regions and in NumPy calls npython ran eagerly, measured at those
// boundaries only while diagnostics are on (a normal run reads no clock for
// them); the interpreter's share is the rest of the run.
// kDiagnostics: the diagnostics' own bookkeeping (naming, recording and
// logging eager calls), left out of the run's time.
enum class TimeShare { kCompiledRegions, kEagerNumpy, kDiagnostics };

// Turns the measurement on and marks the start of the run. Once, at start-up.
void start_time_shares();
inline bool g_time_shares = false;  // whether start_time_shares was called
void add_time(TimeShare share, double seconds);

struct TimeShares {
  double total = 0;  // since start_time_shares, less the diagnostics' bookkeeping
  double compiled_regions = 0;
  double eager_numpy = 0;
  double interpreter = 0;  // total less the other two
  double diagnostics = 0;  // the bookkeeping left out
};
TimeShares time_shares();
// One line, "run time 1.234 s: 12.3% in compiled regions (0.152 s), ...;
// recording these diagnostics took 0.012 s more".
std::string format_time_shares(const TimeShares& shares);

}  // namespace npy
