#include "jit/team_size.h"

#include <algorithm>
#include <atomic>
#include <chrono>

#include "common/stats.h"

namespace npy::jit {
namespace {

using Clock = std::chrono::steady_clock;

// A thread is late when it starts this long after its run did and after
// half the run: waking a sleeping core takes tens of microseconds, a core
// another process holds is given back after its time slice. Teams shrink
// after two late runs in a row: a first run after the threads slept may
// wait for a virtual machine's cores to wake, but then finds them awake.
constexpr std::int64_t kLateNs = 300'000;
constexpr int kLateRunsToShrink = 2;
constexpr std::int64_t kFirstRetryNs = 20'000'000;
constexpr std::int64_t kLastRetryNs = 2'000'000'000;

// Relaxed atomics: runs from several Python threads may race here, and a
// lost update only changes when the next retry comes.
std::atomic<int> g_limit{0};  // threads a run gets at most; 0: all it asks for
std::atomic<std::int64_t> g_retry_at{0};  // Clock nanoseconds of the next run on all threads
std::atomic<std::int64_t> g_retry_after{kFirstRetryNs};
std::atomic<int> g_late_in_a_row{0};  // runs, retries aside

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count();
}

}  // namespace

int team_size(int asked) { return team_size_at(asked, now_ns()); }

void note_team_run(int team, std::int64_t last_start_ns, std::int64_t end_ns) {
  note_team_run_at(team, last_start_ns, end_ns, now_ns());
}

int team_size_at(int asked, std::int64_t now) {
  const int limit = g_limit.load(std::memory_order_relaxed);
  if (limit == 0 || limit >= asked) return asked;
  if (now >= g_retry_at.load(std::memory_order_relaxed)) return asked;
  return limit;
}

void note_team_run_at(int team, std::int64_t last_start_ns, std::int64_t end_ns, std::int64_t now) {
  const bool late = last_start_ns > kLateNs && 2 * last_start_ns > end_ns;
  const int limit = g_limit.load(std::memory_order_relaxed);
  const bool retry = limit != 0 && team > limit;  // team_size gave it all it asked for
  if (!late) {
    g_late_in_a_row.store(0, std::memory_order_relaxed);
    if (retry) {  // which went well
      g_limit.store(0, std::memory_order_relaxed);
      g_retry_after.store(kFirstRetryNs, std::memory_order_relaxed);
    }
    return;
  }
  static Counter& late_runs = counter("jit.runs_with_a_late_thread");
  late_runs.add();
  if (!retry && g_late_in_a_row.fetch_add(1, std::memory_order_relaxed) + 1 < kLateRunsToShrink) return;
  g_late_in_a_row.store(0, std::memory_order_relaxed);
  std::int64_t wait = g_retry_after.load(std::memory_order_relaxed);
  if (retry) {  // which failed: wait longer for the next
    wait = std::min(2 * wait, kLastRetryNs);
    g_retry_after.store(wait, std::memory_order_relaxed);
  }
  g_limit.store(std::max(1, team / 2), std::memory_order_relaxed);
  g_retry_at.store(now + wait, std::memory_order_relaxed);
}

}  // namespace npy::jit
