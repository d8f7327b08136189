// Plans of regions seen before. A loop body records the same region every
// time it runs (the same ops, dtypes and shapes, the same values leaving
// it): its steps are planned once, and the backend keeps each step's code
// in the plan (one kernel per input layout), so that a repeated small
// region pays neither planning nor a kernel-cache lookup again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
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
  // Its float min and max note ties (StepRun::notes_ties): set once one of
  // the region's came out a zero or a NaN whose bits NumPy's order decides
  // (step_run.h's kOrderDecides).
  bool notes_ties = false;
  // Runs left for which the region runs by the plan with one loop per
  // program line instead (plan_for's loop_per_line), so that a
  // floating-point flag NumPy reports recomputes one line's work, not a
  // loop's over several lines: set where such a loop raised one (runner),
  // counted down by runs of that plan that raise none.
  int runs_by_line = 0;
  // Per step: what the backend compiled for it (null until it runs).
  std::vector<std::unique_ptr<StepCode>> code;
};

// The plan of the region (`needed`, `leaves` and `loop_per_line` as
// plan_region takes them); with no backend, every needed node is an eager
// step.
std::shared_ptr<CachedPlan> plan_for(Backend* backend, const Region& region, const std::vector<bool>& needed,
                                     const std::vector<bool>& leaves, bool loop_per_line = false);

}  // namespace npy::jit
