// Fusion: splits the needed nodes of a region into steps run in order, each
// either a fused loop (a Group, which a backend compiles into one kernel) or
// a single node the backend cannot express, run eagerly. Which nodes a
// backend takes is its own answer; how they group is decided here, the same
// for every backend.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "jit/region.h"

namespace npy::jit {

// A reduction member of a group computed as a fold (fold.h): in the
// plan's kernel region, `node` is the element-wise fold_op of
// `accumulator` (an input node standing for the result itself) and the
// operand, over the loop's shape; its result steps by 0 along the `axes`
// it reduces.
struct Fold {
  int node = -1;
  int accumulator = -1;
  std::uint32_t axes = 0;
};

// One loop nest over `shape`: element-wise members computed per element,
// reductions over the last `reduced_dims` dimensions of `shape`, folds
// (with no reductions) over other dimensions.
struct Group {
  Shape shape;
  int reduced_dims = 0;
  int fuse_class = -1;
  std::vector<int> members;  // region nodes, in order
  std::vector<int> inputs;   // region nodes read from memory (inputs or earlier steps)
  std::vector<int> outputs;  // element-wise members whose values leave the group
  std::vector<int> reductions;  // reduction members (their values always leave)
  std::vector<Fold> folds;      // fold members, also in `outputs`; their accumulators are in `inputs`
  bool quiet = false;           // every member is quiet (OpInfo::quiet)
};

// A chain of reductions, each over one axis of the value before it, with
// element-wise work between them, computed in one loop nest (loop_nest.h,
// lower_chain) whose vector lanes run along a dimension every reduction
// keeps, so that no intermediate result is ever written out: k-means'
// labels in any of their spellings,
//   argmin(norm(X - means[:, None], axis=2), axis=0)
//   argmin(((X[:, None] - means[None]) ** 2).sum(2), 1)
//   sqrt(((X - means[:, None]) ** 2).sum(2)).argmin(0)
// and any other reduction of a reduction (x.sum(2).max(1), a mean over one
// axis of a norm over another, three levels and more).
struct ChainLevel {
  int reduction = -1;        // a reduction or norm over one axis of the level's operand
  std::vector<int> between;  // element-wise nodes on its result, in order: the next level's operand
};
struct ReductionChain {
  // The element-wise loop whose value (`value`) the innermost reduction
  // reads, over the chain's domain; no members where that value is a
  // region input or an earlier step's. `loop.inputs` also holds what the
  // nodes between the levels read besides the chain.
  Group loop;
  int value = -1;
  std::vector<ChainLevel> levels;  // innermost first; the last one's reduction is the chain's result
};
// The region nodes a ReductionChain computes, in order.
std::vector<int> chain_nodes(const ReductionChain& chain);
// The dimension of the chain's domain (its loop's shape) that each level
// reduces, innermost first, and the last one every level keeps: the
// dimension the chain's vector lanes run along.
std::vector<int> chain_level_dims(const Region& region, const ReductionChain& chain);
int chain_vector_dim(const Region& region, const ReductionChain& chain);
// The fewest elements of the vector dimension a chain runs over: fewer,
// and a kernel's last partial step (run on copies of the inputs) would cost
// more than the chain saves.
constexpr std::int64_t kMinChainLanes = 64;
// The reduction whose result the chain leaves: its last level's.
inline int chain_result(const ReductionChain& chain) { return chain.levels.back().reduction; }

struct Step {
  bool eager = false;
  int node = -1;  // eager: the node
  Group group;    // a fused loop
  bool chain = false;
  ReductionChain reduction_chain;  // chain: the loop nest of reductions it computes
};
// The region nodes a step computes, in order.
std::vector<int> step_nodes(const Step& step);

// What a backend can fuse: the class of loop `node` can be a member of
// (groups hold nodes of one class, e.g. one vector lane width), or -1 when
// the backend cannot express it, or kAnyClass when it joins a group of any
// class (it computes in whatever its group's kernel does: integers held in
// lanes wider than themselves).
using FuseClass = std::function<int(const Region&, int node)>;
constexpr int kAnyClass = 0;

// `needed[i]`: node i must be computed; `leaves[i]`: its value is wanted
// after the region (a live lazy value names it). `kernel_region`, when not
// null, gets the region the plan's kernels compile from: `region` with
// each fold lowered (Fold), their accumulators added after its nodes;
// without it, reductions over other than the last dimensions are not fused.
// `loop_per_line`: no loop computes nodes of two program lines (Node::site),
// so that a floating-point flag a loop raises is one line's to report.
std::vector<Step> plan_region(const Region& region, const std::vector<bool>& needed,
                              const std::vector<bool>& leaves, const FuseClass& fuse_class,
                              Region* kernel_region = nullptr, bool loop_per_line = false);

// Whether a reduction of a group's loop value may fold (fold.h): its
// combine is one an element-wise op folds, the innermost dimension of its
// operand is kept and long enough (kMinFoldRow elements) for vectors.
bool may_fold(const Region& region, int node);
constexpr std::int64_t kMinFoldRow = 16;

// Float sums and means are added in NumPy's own order (pairwise, in blocks
// of eight running sums), so that they equal NumPy's to the bit: a kernel
// writes their operands out, in loop order, and the driver adds them.
bool sums_in_numpy_order(const Node& node);
// The most such sums one group holds (the CPU driver keeps them in fixed arrays).
constexpr int kMaxOrderedSums = 8;
// The most arrays a group's loop passes its kernel: inputs, outputs,
// reductions' results and ordered sums' operands (the CPU driver's call
// takes them in fixed arrays); plan_region cuts a group that needs more.
constexpr std::size_t kMaxLoopSlots = 64;

// The reduced-suffix length of a reduction node whose axes are the last
// dimensions of its input, else -1.
int suffix_reduction_dims(const Region& region, int node);

}  // namespace npy::jit
