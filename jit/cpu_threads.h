// The CPU backend's threads: how many a loop of some work runs on, and
// running a body on a team of OpenMP threads. Shared by the driver of
// kernels (cpu_driver.cpp) and the backend's loops of its own
// (cpu_counting.cpp).
#pragma once

#include <omp.h>

#include <atomic>
#include <chrono>
#include <cstdint>

#include "jit/host.h"
#include "jit/team_size.h"

namespace npy::jit {

// Set while this thread runs a block of a block run: the run's blocks are
// what is shared out over the threads, and each step of a block runs on the
// thread alone.
inline thread_local bool t_in_block = false;

// The threads work over `work` elements runs on.
inline int threads_for(std::int64_t work) { return t_in_block || work < kMinParallelWork ? 1 : host_threads(); }

// Runs `body` on a team of OpenMP threads, `threads` or as many of them as
// other processes' load allows (team_size.h), or on this thread alone when
// that is one: libgomp makes a team for a region of one thread too (an
// allocation and a futex system call, about 0.4 us here), which every run of
// a small array's kernel would pay. The bodies' orphaned `omp for` loops run
// every iteration whatever the team's size.
template <class Body>
void on_threads(int threads, const Body& body) {
  const int team = threads > 1 ? team_size(threads) : 1;
  if (team <= 1 && t_in_block) {
    // Inside a block run's team, the body's `omp for` loops would share
    // their iterations out over that team: a team of this thread alone.
#pragma omp parallel num_threads(1)
    body();
    return;
  }
  if (team <= 1) {
    body();
    return;
  }
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  std::atomic<std::int64_t> last_start{0};
#pragma omp parallel num_threads(team)
  {
    const std::int64_t started = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
    std::int64_t seen = last_start.load(std::memory_order_relaxed);
    while (started > seen && !last_start.compare_exchange_weak(seen, started, std::memory_order_relaxed)) {
    }
    if (omp_get_thread_num() != 0) name_kernel_thread();
    body();
  }
  note_team_run(team, last_start.load(std::memory_order_relaxed),
                std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count());
}

}  // namespace npy::jit
