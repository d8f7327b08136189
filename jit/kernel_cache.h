// Compiled kernels, once per process: keyed by what a group computes
// (fusion.h's group_key: ops, dtypes, input layout), the lane and vector
// widths and the backend, never by sizes, so a program with other sizes
// reuses them.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "jit/backend.h"

namespace npy::jit {

// The kernel for the group, compiling it on first use (nullptr when the
// backend cannot). Counts kernels compiled and reused and compile time.
const Kernel* kernel_for(Backend& backend, const Region& region, const Group& group,
                         const std::vector<bool>& broadcast_inner, KernelOptions options);

// What kernel_for and compile_staged (staged.h) share: counts a reuse.
void note_kernel_reused();
// Counts a compilation and its time; logs the code (NPY_JIT_LOG=output_code)
// when there is some. `shape` says how much one step covers ("4 lanes").
void note_kernel_compiled(const Backend& backend, const std::string& key, std::chrono::microseconds took,
                          bool made, const std::string& shape, const std::string& listing);

// One cache of compiled code of type Code by key, `compile` making it on
// first use (it may give nullptr: remembered too). `shape_of` describes a
// made Code for the log.
template <typename Code, typename Compile, typename ShapeOf>
const Code* cached_code(std::map<std::string, std::unique_ptr<Code>>& cache, const Backend& backend,
                        const std::string& key, Compile compile, ShapeOf shape_of) {
  const auto found = cache.find(key);
  if (found != cache.end()) {
    if (found->second) note_kernel_reused();
    return found->second.get();
  }
  const auto start = std::chrono::steady_clock::now();
  std::unique_ptr<Code> code = compile();
  const auto took = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start);
  note_kernel_compiled(backend, key, took, code != nullptr, code ? shape_of(*code) : std::string(),
                       code ? code->listing : std::string());
  const Code* result = code.get();
  cache.emplace(key, std::move(code));
  return result;
}

}  // namespace npy::jit
