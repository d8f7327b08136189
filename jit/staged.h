// Compiling a StagedReduction (fusion.h): two kernels over a span of the
// middle axis, one that adds the loop's value (squared, for a norm) for one
// index of the first and last axes into running sums, one that turns the
// sums into the inner reduction's values and keeps the best value and its
// index for the outer one.
#pragma once

#include <vector>

#include "jit/backend.h"

namespace npy::jit {

struct StagedKernels {
  const Kernel* accumulate = nullptr;  // slots: loop inputs..., sums | sums
  const Kernel* select = nullptr;      // slots: sums, best, best index, k | best, best index
  DType value = DType::kFloat64;       // of the sums and the best values
  DType index = DType::kInt64;         // of the best index (int32 beside float32)
  bool is_max = false;                 // argmax rather than argmin
  bool is_norm = false;
};

// `moves[i]`: the loop's input i moves along the middle axis. A kernel is
// null when the backend cannot compile it.
StagedKernels compile_staged(Backend& backend, const Region& region, const StagedReduction& staged,
                             const std::vector<bool>& moves);

}  // namespace npy::jit
