#include "jit/x86/vector_math.h"

#include <array>
#include <cfenv>
#include <cmath>
#include <utility>

#include "jit/numpy_loops.h"

namespace npy::jit {
namespace {

// Kernels that use AVX leave the registers' upper halves dirty, which makes
// the SSE code of NumPy's loops and libm stall on every instruction until
// vzeroupper (all vector registers are the caller's to save across a call,
// so nothing is lost). Asked on first use, not while statics are made: the
// CPU's description must not be read before asmjit has made its own.
inline void clean_upper_halves() {
  static const bool has_avx = __builtin_cpu_supports("avx");
  if (has_avx) {
    asm volatile("vzeroupper" ::: "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",
                 "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "memory");
  }
}

template <VectorFunction F, class T>
T libm(T x) {
  switch (F) {
    case VectorFunction::sin: return std::sin(x);
    case VectorFunction::cos: return std::cos(x);
    case VectorFunction::exp: return std::exp(x);
    case VectorFunction::log: return std::log(x);
    case VectorFunction::exp2: return std::exp2(x);
    case VectorFunction::log2: return std::log2(x);
    case VectorFunction::log10: return std::log10(x);
    case VectorFunction::expm1: return std::expm1(x);
    case VectorFunction::log1p: return std::log1p(x);
    case VectorFunction::tan: return std::tan(x);
  }
  return x;
}

template <VectorFunction F, class T>
__attribute__((noinline, cold)) void recompute(void* lanes, const void* inputs, std::uint64_t mask) {
  clean_upper_halves();
  T* out = static_cast<T*>(lanes);
  const T* in = static_cast<const T*>(inputs);
  for (; mask != 0; mask &= mask - 1) {
    const int i = __builtin_ctzll(mask);
    out[i] = libm<F>(in[i]);
  }
}

template <VectorFunction F>
LibmLanes lanes_of(bool float64) {
  return float64 ? &recompute<F, double> : &recompute<F, float>;
}

// One function per op and dtype, so that a kernel's slot names both by its
// address alone.
// Some of NumPy's loops (minimum, fmax...) clear the floating-point flags
// when they end, for NumPy checks them around each ufunc call; in a kernel
// they would clear the flags of the operations before them, which are
// raised again.
template <int Index>
void numpy_lanes_of(void* out, const void* a, const void* b, std::uint64_t count, std::uint64_t one_value) {
  clean_upper_halves();
  const int before = std::fetestexcept(FE_ALL_EXCEPT);
  run_numpy_loop(static_cast<Op>(Index / kLoopTypeCount), kLoopTypes[Index % kLoopTypeCount], out, a, b,
                 static_cast<std::int64_t>(count), (one_value & 1) != 0, (one_value & 2) != 0);
  const int cleared = before & ~std::fetestexcept(FE_ALL_EXCEPT);
  if (cleared != 0) std::feraiseexcept(cleared);
}

template <int... Index>
constexpr auto numpy_lanes_table(std::integer_sequence<int, Index...>) {
  return std::array<NumpyLanes, sizeof...(Index)>{&numpy_lanes_of<Index>...};
}

}  // namespace

NumpyLanes numpy_lanes(Op op, int type) {
  static constexpr auto kTable = numpy_lanes_table(std::make_integer_sequence<int, kOpCount * kLoopTypeCount>());
  return kTable[static_cast<std::size_t>(op) * kLoopTypeCount + static_cast<std::size_t>(type)];
}

LibmLanes libm_lanes(VectorFunction f, bool float64) {
  switch (f) {
    case VectorFunction::sin: return lanes_of<VectorFunction::sin>(float64);
    case VectorFunction::cos: return lanes_of<VectorFunction::cos>(float64);
    case VectorFunction::exp: return lanes_of<VectorFunction::exp>(float64);
    case VectorFunction::log: return lanes_of<VectorFunction::log>(float64);
    case VectorFunction::exp2: return lanes_of<VectorFunction::exp2>(float64);
    case VectorFunction::log2: return lanes_of<VectorFunction::log2>(float64);
    case VectorFunction::log10: return lanes_of<VectorFunction::log10>(float64);
    case VectorFunction::expm1: return lanes_of<VectorFunction::expm1>(float64);
    case VectorFunction::log1p: return lanes_of<VectorFunction::log1p>(float64);
    case VectorFunction::tan: return lanes_of<VectorFunction::tan>(float64);
  }
  return nullptr;
}

}  // namespace npy::jit
