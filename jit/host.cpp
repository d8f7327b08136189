#include "jit/host.h"

#include <asmjit/core.h>
#include <omp.h>
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <limits>

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

int host_threads() {
  if (g_one_thread.load(std::memory_order_relaxed)) return 1;
  const int n = requested_threads();
  if (n > 1) g_team_may_exist.store(true, std::memory_order_relaxed);
  return n;
}

}  // namespace npy::jit
