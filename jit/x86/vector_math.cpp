#include "jit/x86/vector_math.h"

#include <cmath>

namespace npy::jit {
namespace {

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

}  // namespace

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
