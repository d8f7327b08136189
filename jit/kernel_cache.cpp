#include "jit/kernel_cache.h"

#include <chrono>
#include <map>
#include <memory>
#include <string>

#include "common/stats.h"
#include "jit/trace_log.h"

namespace npy::jit {

const Kernel* kernel_for(Backend& backend, const Region& region, const Group& group,
                         const std::vector<bool>& broadcast_inner) {
  static std::map<std::string, std::unique_ptr<Kernel>> cache;
  static Counter& compiled = counter("jit.kernels_compiled");
  static Counter& reused = counter("jit.kernels_reused");
  static Counter& compile_us = counter("jit.compile_us");
  const std::string key = std::string(backend.name()) + "|c" + std::to_string(group.fuse_class) + "|" +
                          group_key(region, group, broadcast_inner);
  const auto found = cache.find(key);
  if (found != cache.end()) {
    if (found->second) reused.add();
    return found->second.get();
  }
  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<Kernel> kernel = backend.compile(region, group, broadcast_inner);
  compile_us.add(static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count()));
  if (kernel) {
    compiled.add();
    if (log_enabled(LogChannel::kOutputCode)) {
      log_text(LogChannel::kOutputCode, std::string("kernel (") + backend.name() + ", " +
                                            std::to_string(kernel->lanes) + " lanes) for " + key + "\n" +
                                            kernel->listing);
    }
  }
  const Kernel* result = kernel.get();
  cache.emplace(key, std::move(kernel));
  return result;
}

}  // namespace npy::jit
