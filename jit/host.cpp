#include "jit/host.h"

#include <asmjit/core.h>
#include <omp.h>
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <string>

namespace npy::jit {

const char* vector_isa_name(VectorIsa isa) {
  switch (isa) {
    case VectorIsa::kSse2: return "sse2";
    case VectorIsa::kAvx2: return "avx2";
    case VectorIsa::kAvx512: return "avx512";
  }
  return "unknown";
}

bool parse_vector_isa(const std::string& text, VectorIsa& isa) {
  for (VectorIsa known : {VectorIsa::kSse2, VectorIsa::kAvx2, VectorIsa::kAvx512}) {
    if (text == vector_isa_name(known)) {
      isa = known;
      return true;
    }
  }
  return false;
}

VectorIsa host_vector_isa() {
  static const VectorIsa isa = [] {
    const asmjit::CpuFeatures::X86& x86 = asmjit::CpuInfo::host().features().x86();
    // AVX-512 kernels need F for the arithmetic, DQ for 64-bit integer
    // conversions and BW/VL for 8/16-bit lanes and masked tails.
    VectorIsa widest = VectorIsa::kSse2;
    if (x86.hasAVX512_F() && x86.hasAVX512_DQ() && x86.hasAVX512_BW() && x86.hasAVX512_VL()) {
      widest = VectorIsa::kAvx512;
    } else if (x86.hasAVX2() && x86.hasFMA()) {
      widest = VectorIsa::kAvx2;
    }
    const char* cap = std::getenv("NPY_VECTOR_ISA");
    VectorIsa requested;
    if (cap && parse_vector_isa(cap, requested) && requested < widest) return requested;
    return widest;
  }();
  return isa;
}

int parse_thread_count(const std::string& text) {
  if (text.empty()) return 0;
  errno = 0;
  char* end = nullptr;
  const long value = std::strtol(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0' || value < 1 || value > std::numeric_limits<int>::max()) return 0;
  return static_cast<int>(value);
}

namespace {

// OpenMP's thread team does not survive fork(): a child process that starts
// a parallel region waits for threads that exist only in its parent (a
// multiprocessing Pool's workers hung so). A child forked once kernels may
// have had a team runs them on its one thread.
std::atomic<bool> g_team_may_exist{false};
std::atomic<bool> g_one_thread{false};

// libgomp frees a thread's team when the thread exits, waiting for the
// team's threads to stop: in a child forked by a thread that led a team,
// that thread's exit (a Python thread's end) would wait for ever. The
// forking thread's team stops before the fork; the parent's next kernel
// starts a new one.
void stop_team_before_fork() {
  if (g_team_may_exist.load(std::memory_order_relaxed)) omp_pause_resource_all(omp_pause_hard);
}

void note_fork_in_child() {
  if (g_team_may_exist.load(std::memory_order_relaxed)) g_one_thread.store(true, std::memory_order_relaxed);
}

const bool g_fork_handlers = pthread_atfork(stop_team_before_fork, nullptr, note_fork_in_child) == 0;

int requested_threads() {
  const char* requested = std::getenv("NPY_THREADS");
  if (requested) {
    const int n = parse_thread_count(requested);
    if (n > 0) return std::min(n, kMaxThreads);
  }
  return omp_get_num_procs();
}

}  // namespace

void name_kernel_thread() {
  thread_local bool named = false;
  if (named) return;
  named = true;
  pthread_setname_np(pthread_self(), kKernelThreadName);
}

int host_threads() {
  if (g_one_thread.load(std::memory_order_relaxed)) return 1;
  const int n = requested_threads();
  if (n > 1) g_team_may_exist.store(true, std::memory_order_relaxed);
  return n;
}

namespace {

// A count of bytes with an optional K, M or G ("512K"); 0 for anything else.
std::int64_t parse_bytes(const std::string& text) {
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) return 0;
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || value <= 0) return 0;
  const std::string unit(end);
  const int shift = unit.empty() ? 0 : unit == "K" ? 10 : unit == "M" ? 20 : unit == "G" ? 30 : -1;
  if (shift < 0 || value > (std::numeric_limits<std::int64_t>::max() >> shift)) return 0;
  return static_cast<std::int64_t>(value) << shift;
}

// The size of cpu0's cache `index` (sysfs: "512K"), and its level; 0 when
// sysfs does not say.
std::int64_t sysfs_cache(int index, int& level) {
  const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
  std::ifstream level_file(dir + "level"), size_file(dir + "size");
  std::string size;
  if (!(level_file >> level) || !(size_file >> size)) return 0;
  return parse_bytes(size);
}

}  // namespace

bool parse_cache_sizes(const std::string& text, CacheSizes& sizes) {
  const std::size_t comma = text.find(',');
  if (comma == std::string::npos) return false;
  sizes.per_core = parse_bytes(text.substr(0, comma));
  sizes.last_level = parse_bytes(text.substr(comma + 1));
  return sizes.per_core > 0 && sizes.last_level > 0;
}

const CacheSizes& host_caches() {
  static const CacheSizes sizes = [] {
    CacheSizes found;
    const char* chosen = std::getenv("NPY_CACHE_SIZES");
    if (chosen && parse_cache_sizes(chosen, found)) return found;
    found = {512 << 10, 8 << 20};
    for (int index = 0; index < 8; ++index) {
      int level = 0;
      const std::int64_t bytes = sysfs_cache(index, level);
      if (bytes > 0 && level == 2) found.per_core = bytes;
      if (bytes > 0 && level == 3) found.last_level = bytes;
    }
    return found;
  }();
  return sizes;
}

}  // namespace npy::jit
