#include "jit/staged.h"

#include <chrono>
#include <map>
#include <memory>
#include <string>

#include "common/stats.h"
#include "jit/trace_log.h"

namespace npy::jit {
namespace {

// The text that identifies a staged kernel: the loop's group key (ops,
// dtypes), each input's layout, and the two reductions.
std::string staged_key(Backend& backend, const Region& region, const StagedReduction& staged,
                       const std::vector<StagedInput>& layout) {
  std::vector<bool> broadcast;
  std::string inputs;
  for (const StagedInput& in : layout) {
    broadcast.push_back(in.points == StagedInput::Points::kBroadcast);
    const bool strided = in.points == StagedInput::Points::kStrided;
    inputs += strided ? 's' : in.points == StagedInput::Points::kContiguous ? 'c' : 'b';
    inputs += in.moves_outer ? 'k' : '-';
    inputs += in.moves_inner ? 'j' : '-';
    inputs += ',';
  }
  return std::string(backend.name()) + "|c" + std::to_string(staged.loop.fuse_class) + "|staged " +
         op_info(region.nodes[staged.outer].op).name + "(" + op_info(region.nodes[staged.inner].op).name +
         ") over " + inputs + "|" + group_key(region, staged.loop, broadcast);
}

}  // namespace

const StagedKernel* compile_staged(Backend& backend, const Region& region, const StagedReduction& staged,
                                   const std::vector<StagedInput>& layout) {
  static std::map<std::string, std::unique_ptr<StagedKernel>> cache;
  static Counter& compiled = counter("jit.kernels_compiled");
  static Counter& reused = counter("jit.kernels_reused");
  static Counter& compile_us = counter("jit.compile_us");
  const std::string key = staged_key(backend, region, staged, layout);
  const auto found = cache.find(key);
  if (found != cache.end()) {
    if (found->second) reused.add();
    return found->second.get();
  }
  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<StagedKernel> kernel = backend.compile_staged(region, staged, layout);
  compile_us.add(static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count()));
  if (kernel) {
    compiled.add();
    if (log_enabled(LogChannel::kOutputCode)) {
      log_text(LogChannel::kOutputCode, std::string("kernel (") + backend.name() + ", " +
                                            std::to_string(kernel->points) + " points a step) for " + key + "\n" +
                                            kernel->listing);
    }
  }
  const StagedKernel* result = kernel.get();
  cache.emplace(key, std::move(kernel));
  return result;
}

}  // namespace npy::jit
