// Compiled kernels, once per process, for any backend's code: keyed by
// what a loop nest computes (loop_nest.h's nest_key: ops, dtypes, input
// layout) and how the backend compiles it, never by sizes, so a program
// with other sizes reuses them; loaded from and stored to the disk cache.
// Held shared: a kernel the cache lets go of lives on while a plan or a
// running region still holds it.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "jit/disk_cache.h"

namespace npy::jit {

// Counts a reuse of a kernel cached_code found.
void note_kernel_reused();
// Counts a compilation and its time; logs the code (NPY_JIT_LOG=output_code)
// when there is some, as `compiler`'s. `shape` says how much one step
// covers ("4 lanes").
void note_kernel_compiled(const char* compiler, const std::string& key, std::chrono::microseconds took,
                          bool made, const std::string& shape, const std::string& listing);

// Counts a kernel loaded from the disk cache and the time that took.
void note_kernel_loaded(std::chrono::microseconds took);

// Whether kernels come from and go to the disk cache: when it is on and
// kernels are not logged (a loaded kernel has no listing).
bool uses_disk_cache();

// Kernels one cache keeps at most: a program that makes ever new kernels
// (an op sequence of its own in every iteration) starts over rather than
// growing without bound, as the plan cache does.
inline constexpr std::size_t kMaxCachedKernels = 4096;

template <typename Code>
using CodeCache = std::map<std::string, std::shared_ptr<const Code>>;

// One cache of compiled code of type Code by key: on first use loaded from
// the disk cache (when its facts are those of `expected`: the stored
// form's from_stored_form, which finds the code of the facts it was stored
// with, stored_form, or rejects it), else made by `compile` (it may give
// nullptr: remembered too) and stored there. `shape_of` describes a made
// Code for the log. Code has `listing` and `image` (what the disk cache
// keeps: empty for code that runs only where it is); `compiler` names the
// code generator and places stored code.
template <typename Code, typename Compiler, typename Compile, typename ShapeOf>
std::shared_ptr<const Code> cached_code(CodeCache<Code>& cache, Compiler& compiler, const std::string& key,
                                        const Code& expected, Compile compile, ShapeOf shape_of) {
  const auto found = cache.find(key);
  if (found != cache.end()) {
    if (found->second) note_kernel_reused();
    return found->second;
  }
  using std::chrono::duration_cast;
  using std::chrono::microseconds;
  using std::chrono::steady_clock;
  const bool disk = uses_disk_cache();
  const auto start = steady_clock::now();
  std::unique_ptr<Code> code;
  if (disk) {
    if (const std::optional<StoredCode> stored = load_stored_code(key)) {
      from_stored_form(compiler, *stored, expected, code);
    }
  }
  if (code) {
    note_kernel_loaded(duration_cast<microseconds>(steady_clock::now() - start));
  } else {
    code = compile();
    const auto took = duration_cast<microseconds>(steady_clock::now() - start);
    note_kernel_compiled(compiler.name(), key, took, code != nullptr, code ? shape_of(*code) : std::string(),
                         code ? code->listing : std::string());
    if (disk && code && !code->image.empty()) store_code(key, stored_form(*code));
  }
  std::shared_ptr<const Code> result = std::move(code);
  if (cache.size() >= kMaxCachedKernels) cache.clear();
  cache.emplace(key, result);
  return result;
}

}  // namespace npy::jit
