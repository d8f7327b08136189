// Compiled kernels, once per process: keyed by what a loop nest computes
// (loop_nest.h's nest_key: ops, dtypes, input layout), the lane and vector
// widths and the backend, never by sizes, so a program with other sizes
// reuses them. Held shared: a kernel the cache lets go of lives on while a
// plan or a running region still holds it.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "jit/backend.h"
#include "jit/disk_cache.h"

namespace npy::jit {

// The kernel for the nest, compiling it on first use (nullptr when the
// backend cannot). Counts kernels compiled and reused and compile time.
std::shared_ptr<const Kernel> kernel_for(Backend& backend, const LoopNest& nest, KernelOptions options);

// The kernel for the nest of a reduction chain as laid out for its run
// (LoopNest::run), compiling it on first use (nullptr when the backend
// cannot).
std::shared_ptr<const ChainKernel> chain_kernel_for(Backend& backend, const LoopNest& nest);

// Counts a reuse of a kernel cached_code found.
void note_kernel_reused();
// Counts a compilation and its time; logs the code (NPY_JIT_LOG=output_code)
// when there is some. `shape` says how much one step covers ("4 lanes").
void note_kernel_compiled(const Backend& backend, const std::string& key, std::chrono::microseconds took,
                          bool made, const std::string& shape, const std::string& listing);

// Counts a kernel loaded from the disk cache and the time that took.
void note_kernel_loaded(std::chrono::microseconds took);

// Whether kernels come from and go to the disk cache: when it is on and
// kernels are not logged (a loaded kernel has no listing).
bool uses_disk_cache();

// What the disk cache keeps of a kernel of either kind (its image and the
// facts that say how to call it), and a kernel made again from that.
// `expected` holds what the key fixes (a Kernel's lanes, lane bytes and
// options, a ChainKernel's points): stored facts that differ from it or
// are out of range, which only a damaged or forged file has, leave
// `kernel` nullptr and count as jit.disk_cache_rejected, as does code the
// backend cannot place (a malformed image, or no executable memory left).
StoredCode stored_form(const Kernel& kernel);
StoredCode stored_form(const ChainKernel& kernel);
void from_stored_form(Backend& backend, const StoredCode& stored, const Kernel& expected,
                      std::unique_ptr<Kernel>& kernel);
void from_stored_form(Backend& backend, const StoredCode& stored, const ChainKernel& expected,
                      std::unique_ptr<ChainKernel>& kernel);

// Kernels one cache keeps at most: a program that makes ever new kernels
// (an op sequence of its own in every iteration) starts over rather than
// growing without bound, as the plan cache does.
inline constexpr std::size_t kMaxCachedKernels = 4096;

template <typename Code>
using CodeCache = std::map<std::string, std::shared_ptr<const Code>>;

// One cache of compiled code of type Code by key: on first use loaded from
// the disk cache (when its facts are those of `expected`, see
// from_stored_form), else made by `compile` (it may give nullptr:
// remembered too) and stored there. `shape_of` describes a made Code for
// the log.
template <typename Code, typename Compile, typename ShapeOf>
std::shared_ptr<const Code> cached_code(CodeCache<Code>& cache, Backend& backend, const std::string& key,
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
      from_stored_form(backend, *stored, expected, code);
    }
  }
  if (code) {
    note_kernel_loaded(duration_cast<microseconds>(steady_clock::now() - start));
  } else {
    code = compile();
    const auto took = duration_cast<microseconds>(steady_clock::now() - start);
    note_kernel_compiled(backend, key, took, code != nullptr, code ? shape_of(*code) : std::string(),
                         code ? code->listing : std::string());
    if (disk && code && !code->image.empty()) store_code(key, stored_form(*code));
  }
  std::shared_ptr<const Code> result = std::move(code);
  if (cache.size() >= kMaxCachedKernels) cache.clear();
  cache.emplace(key, result);
  return result;
}

}  // namespace npy::jit
