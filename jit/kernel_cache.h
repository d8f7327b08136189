// Compiled kernels, once per process: keyed by what a group computes
// (fusion.h's group_key: ops, dtypes, input layout, lane width and the
// backend), never by sizes, so a program with other sizes reuses them.
#pragma once

#include <vector>

#include "jit/backend.h"

namespace npy::jit {

// The kernel for the group, compiling it on first use (nullptr when the
// backend cannot). Counts kernels compiled and reused and compile time.
const Kernel* kernel_for(Backend& backend, const Region& region, const Group& group,
                         const std::vector<bool>& broadcast_inner);

}  // namespace npy::jit
