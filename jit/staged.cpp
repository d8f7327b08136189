#include "jit/staged.h"

#include <map>
#include <memory>
#include <string>

#include "jit/kernel_cache.h"

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
  return std::string(backend.name()) + "|c" + std::to_string(staged.loop.fuse_class) + "|l" +
         std::to_string(backend.lanes(staged.loop)) + "|staged " +
         op_info(region.nodes[staged.outer].op).name + "(" + op_info(region.nodes[staged.inner].op).name +
         ") over " + inputs + "|" + group_key(region, staged.loop, broadcast);
}

}  // namespace

std::shared_ptr<const StagedKernel> compile_staged(Backend& backend, const Region& region,
                                                   const StagedReduction& staged,
                                                   const std::vector<StagedInput>& layout) {
  static CodeCache<StagedKernel> cache;
  StagedKernel expected;  // what the key fixes of the kernel
  expected.points = backend.staged_points(staged.loop);
  return cached_code(
      cache, backend, staged_key(backend, region, staged, layout), expected,
      [&] { return backend.compile_staged(region, staged, layout); },
      [](const StagedKernel& k) { return std::to_string(k.points) + " points a step"; });
}

}  // namespace npy::jit
