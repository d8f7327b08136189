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

// A reduction over one axis of a reduction over the last axis of an
// element-wise loop of rank 3, with element-wise work between the two, as
// in k-means' labels in any of their spellings:
//   argmin(norm(X - means[:, None], axis=2), axis=0)
//   argmin(((X[:, None] - means[None]) ** 2).sum(2), 1)
//   sqrt(((X - means[:, None]) ** 2).sum(2)).argmin(0)
// It runs along the dimension the outer reduction keeps (the points), span
// by span, keeping for each point the inner reduction's running sum (added
// in NumPy's pairwise order) and the outer one's best value and index, so
// that neither intermediate is ever written out.
struct StagedReduction {
  Group loop;      // the element-wise part over the loop's 3 dims; one output, `loop.outputs[0]`
  int inner = -1;  // norm or float sum over the last dim
  // Element-wise nodes on the inner result, in order, each reading the
  // inner result, an earlier one of them or a constant (a loop input);
  // the last one's value (or the inner result's, without any) is reduced.
  std::vector<int> between;
  int outer = -1;       // argmin or argmax over one dim of that value
  int outer_axis = 0;   // the loop dim the outer reduction runs along (0 or 1); the other is the points'
};
// The region nodes a StagedReduction computes.
std::vector<int> staged_nodes(const StagedReduction& staged);

struct Step {
  bool eager = false;
  int node = -1;  // eager: the node
  Group group;    // a fused loop
  bool staged = false;
  StagedReduction staged_reduction;
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

// The reduced-suffix length of a reduction node whose axes are the last
// dimensions of its input, else -1.
int suffix_reduction_dims(const Region& region, int node);

}  // namespace npy::jit
