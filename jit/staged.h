// Compiling a StagedReduction (fusion.h) into one kernel that, for each
// vector of points, evaluates the loop over K and J, reduces it over J and
// keeps the best index over K. Kernels are cached by what they compute and
// by their inputs' layout (StagedInput), never by sizes or strides.
#pragma once

#include <memory>
#include <vector>

#include "jit/backend.h"

namespace npy::jit {

// The kernel for the staged reduction over inputs laid out as `layout`
// (cpu_driver.h, staged_layout), its inner sums of fewer than 8 terms
// (`short_sums`) or of any number, compiling it on first use; nullptr when
// the backend cannot. Shared with the cache, which may let go of it when
// it next compiles.
std::shared_ptr<const StagedKernel> compile_staged(Backend& backend, const Region& region,
                                                   const StagedReduction& staged,
                                                   const std::vector<StagedInput>& layout, bool short_sums);

}  // namespace npy::jit
