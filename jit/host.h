// The machine the x86-64 backend generates code for: its widest usable
// vector instruction set (from asmjit's CPU detection) and the number of
// OpenMP threads kernels run on.
#pragma once

#include <cstdint>
#include <string>

namespace npy::jit {

enum class VectorIsa { kSse2, kAvx2, kAvx512 };

const char* vector_isa_name(VectorIsa isa);

// Detected once per process: the widest the CPU has, or NPY_VECTOR_ISA's
// choice where that is narrower.
VectorIsa host_vector_isa();

// Parses an NPY_VECTOR_ISA value (vector_isa_name's names); false for others.
bool parse_vector_isa(const std::string& text, VectorIsa& isa);

// The most threads kernels run on; a larger NPY_THREADS is taken as this.
// Each thread is a stack and two memory mappings, libgomp ends the process
// when it cannot start one (at about 32,000 here, where a process may have
// 65,530 mappings), and threads far beyond the cores only wait for each other.
constexpr int kMaxThreads = 1024;

// The elements of work below which a loop runs on one thread.
inline constexpr std::int64_t kMinParallelWork = 1 << 15;

// Thread count kernels use: NPY_THREADS when set (at most kMaxThreads), else
// all cores.
int host_threads();

// The name npython gives the kernel threads of its OpenMP team
// (/proc/self/task/*/comm), by which the launcher tells them from the
// program's own threads (launcher/fork_warning.h).
inline constexpr const char* kKernelThreadName = "npython-kernel";

// Names the calling thread kKernelThreadName, once per thread.
void name_kernel_thread();

// What the scheduler's cost model knows of the caches.
struct CacheSizes {
  std::int64_t per_core = 0;    // bytes of the largest cache one core has to itself (L2)
  std::int64_t last_level = 0;  // bytes of the cache the cores share (L3)
};

// The caches the scheduler plans for, read once: NPY_CACHE_SIZES when set,
// else this CPU's from sysfs (glibc's sysconf reports a VM's host's L3
// where sysfs has the guest's), with defaults where it says nothing: 512
// KiB and 8 MiB.
const CacheSizes& host_caches();

// Parses an NPY_CACHE_SIZES value, "PER_CORE,LAST_LEVEL", each a positive
// count of bytes with an optional K, M or G ("512K,32M"); false for others.
bool parse_cache_sizes(const std::string& text, CacheSizes& sizes);

// Parses an NPY_THREADS value; returns 0 for anything but a positive integer
// that fits an int.
int parse_thread_count(const std::string& text);

}  // namespace npy::jit
