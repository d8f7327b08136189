// Plans of regions seen before. A loop body records the same region every
// time it runs (the same ops, dtypes and shapes, the same values leaving
// it): its steps are planned once, and each loop nest's kernel is looked
// up once per input layout, so that a repeated small region pays neither
// planning nor a kernel-cache lookup again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "jit/backend.h"
#include "jit/fusion.h"
#include "jit/loop_nest.h"
#include "jit/schedule.h"

namespace npy::jit {

class CachedPlan {
 public:
  std::vector<Step> steps;
  // Steps that run together block by block (schedule.h), in order.
  std::vector<BlockRun> block_runs;
  // The region the steps' kernels compile from (plan_region's kernel_region).
  Region kernel_region;
  // Per step: the loop nest of a fused step (empty for others), lowered
  // from kernel_region with the schedule's tiles, its inputs taken as
  // moving along the innermost dimension.
  std::vector<LoopNest> nests;
  // Its kernels note ties (Kernel::notes_ties): set once a float min or max
  // of the region came out a zero or a NaN that its kernels could not tell
  // from NumPy's (cpu_driver.h's kOrderDecides).
  bool notes_ties = false;
  // Runs left for which the region runs by the plan with one loop per
  // program line instead (plan_for's loop_per_line), so that a
  // floating-point flag NumPy reports recomputes one line's work, not a
  // loop's over several lines: set where such a loop raised one (runner),
  // counted down by runs of that plan that raise none.
  int runs_by_line = 0;

  // The kernel of fused step `step` for inputs laid out as `broadcast_inner`
  // says, compiled as `options` say (kernel_cache.h's kernel_for the first
  // time); the plan holds it as long as the plan lives.
  const Kernel* kernel(Backend& backend, std::size_t step, const std::vector<bool>& broadcast_inner,
                       KernelOptions options);
  // The kernel of chain step `step` as laid out for a run (`run`, from
  // schedule_chain_run), and in `nest` the nest it was compiled for
  // (kernel_cache.h's chain_kernel_for the first time).
  const ChainKernel* chain_kernel(Backend& backend, std::size_t step, const ChainRun& run, const LoopNest*& nest);

 private:
  friend std::shared_ptr<CachedPlan> plan_for(Backend*, const Region&, const std::vector<bool>&,
                                              const std::vector<bool>&, bool);
  struct Variant {
    std::vector<bool> broadcast_inner;
    KernelOptions options;
    std::shared_ptr<const Kernel> kernel;
  };
  std::vector<std::vector<Variant>> kernels_;  // per step
  struct ChainVariant {
    std::unique_ptr<LoopNest> nest;
    std::shared_ptr<const ChainKernel> kernel;
  };
  std::vector<std::vector<ChainVariant>> chain_kernels_;  // per step
};

// The plan of the region (`needed`, `leaves` and `loop_per_line` as
// plan_region takes them); with no backend, every needed node is an eager
// step.
std::shared_ptr<CachedPlan> plan_for(Backend* backend, const Region& region, const std::vector<bool>& needed,
                                     const std::vector<bool>& leaves, bool loop_per_line = false);

}  // namespace npy::jit
