#include "jit/kernel_cache.h"

#include "common/stats.h"
#include "jit/trace_log.h"

namespace npy::jit {

namespace {

// Registered together, so that the stats list all three from the first kernel on.
struct KernelCounters {
  Counter& compiled = counter("jit.kernels_compiled");
  Counter& reused = counter("jit.kernels_reused");
  Counter& compile_us = counter("jit.compile_us");
  Counter& loaded = counter("jit.kernels_loaded");
  Counter& load_us = counter("jit.kernel_load_us");
};

KernelCounters& kernel_counters() {
  static KernelCounters counters;
  return counters;
}

}  // namespace

void note_kernel_reused() { kernel_counters().reused.add(); }

void note_kernel_loaded(std::chrono::microseconds took) {
  KernelCounters& counters = kernel_counters();
  counters.loaded.add();
  counters.load_us.add(static_cast<std::uint64_t>(took.count()));
}

bool uses_disk_cache() { return disk_cache_is_on() && !log_enabled(LogChannel::kOutputCode); }

void note_kernel_compiled(const char* compiler, const std::string& key, std::chrono::microseconds took,
                          bool made, const std::string& shape, const std::string& listing) {
  KernelCounters& counters = kernel_counters();
  counters.compile_us.add(static_cast<std::uint64_t>(took.count()));
  if (!made) return;
  counters.compiled.add();
  if (log_enabled(LogChannel::kOutputCode)) {
    log_text(LogChannel::kOutputCode,
             std::string("kernel (") + compiler + ", " + shape + ") for " + key + "\n" + listing);
  }
}

}  // namespace npy::jit
