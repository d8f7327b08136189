#include "jit/staged.h"

#include <map>
#include <memory>
#include <string>

#include "jit/kernel_cache.h"

namespace npy::jit {
namespace {

// The text that identifies a staged kernel: the loop's nest key (ops,
// dtypes), each input's layout, the two reductions and the work between
// them.
std::string staged_key(Backend& backend, const Region& region, const StagedReduction& staged,
                       const std::vector<StagedInput>& layout, bool short_sums) {
  LoopNest loop = lower_group(region, staged.loop);
  std::string inputs;
  for (std::size_t i = 0; i < layout.size(); ++i) {
    const StagedInput& in = layout[i];
    loop.broadcast_inner[i] = in.points == StagedInput::Points::kBroadcast;
    const bool strided = in.points == StagedInput::Points::kStrided;
    inputs += strided ? 's' : in.points == StagedInput::Points::kContiguous ? 'c' : 'b';
    inputs += in.moves_outer ? 'k' : '-';
    inputs += in.moves_inner ? 'j' : '-';
    inputs += ',';
  }
  std::string between;
  auto operand_name = [&](int node) {
    if (node == staged.inner) return std::string("s");
    for (std::size_t b = 0; b < staged.between.size(); ++b) {
      if (staged.between[b] == node) return "b" + std::to_string(b);
    }
    for (std::size_t i = 0; i < staged.loop.inputs.size(); ++i) {
      if (staged.loop.inputs[i] == node) return "i" + std::to_string(i);
    }
    return std::string("?");
  };
  for (int b : staged.between) {
    const Node& n = region.nodes[b];
    between += std::string(op_info(n.op).name) + ":" + dtype_name(n.compute) + ">" + dtype_name(n.dtype) + "(";
    for (int a = 0; a < op_info(n.op).arity; ++a) between += operand_name(n.inputs[a]) + ",";
    between += ");";
  }
  return std::string(backend.name()) + "|c" + std::to_string(staged.loop.fuse_class) + "|l" +
         std::to_string(backend.lanes(loop)) + (short_sums ? "|staged short " : "|staged pairwise ") +
         op_info(region.nodes[staged.outer].op).name + "(" + between + op_info(region.nodes[staged.inner].op).name +
         ") over " + inputs + "|" + nest_key(loop);
}

}  // namespace

std::shared_ptr<const StagedKernel> compile_staged(Backend& backend, const Region& region,
                                                   const StagedReduction& staged,
                                                   const std::vector<StagedInput>& layout, bool short_sums) {
  static CodeCache<StagedKernel> cache;
  StagedKernel expected;  // what the key fixes of the kernel
  expected.points = backend.staged_points(staged.loop, short_sums);
  return cached_code(
      cache, backend, staged_key(backend, region, staged, layout, short_sums), expected,
      [&] { return backend.compile_staged(region, staged, layout, short_sums); },
      [](const StagedKernel& k) { return std::to_string(k.points) + " points a step"; });
}

}  // namespace npy::jit
