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
};

KernelCounters& kernel_counters() {
  static KernelCounters counters;
  return counters;
}

}  // namespace

void note_kernel_reused() { kernel_counters().reused.add(); }

void note_kernel_compiled(const Backend& backend, const std::string& key, std::chrono::microseconds took,
                          bool made, const std::string& shape, const std::string& listing) {
  KernelCounters& counters = kernel_counters();
  counters.compile_us.add(static_cast<std::uint64_t>(took.count()));
  if (!made) return;
  counters.compiled.add();
  if (log_enabled(LogChannel::kOutputCode)) {
    log_text(LogChannel::kOutputCode,
             std::string("kernel (") + backend.name() + ", " + shape + ") for " + key + "\n" + listing);
  }
}

const Kernel* kernel_for(Backend& backend, const Region& region, const Group& group,
                         const std::vector<bool>& broadcast_inner, KernelOptions options) {
  static std::map<std::string, std::unique_ptr<Kernel>> cache;
  // The backend's name says its vector width too; the lanes a vector holds
  // say it again.
  const std::string key = std::string(backend.name()) + "|c" + std::to_string(group.fuse_class) + "|l" +
                          std::to_string(backend.lanes(group)) + (options.leaf_sums ? "|leaves" : "") +
                          (options.streaming_stores ? "|streaming" : "") + "|" +
                          group_key(region, group, broadcast_inner);
  return cached_code(
      cache, backend, key, [&] { return backend.compile(region, group, broadcast_inner, options); },
      [](const Kernel& k) { return std::to_string(k.lanes) + " lanes"; });
}

}  // namespace npy::jit
