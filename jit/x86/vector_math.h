// The transcendental functions kernels compute (inline_math.h), and libm's
// part of them: the lanes outside the vector code's domain, which kernels
// hand back here so that results and IEEE flags match libm there.
#pragma once

#include <cstdint>

namespace npy::jit {

enum class VectorFunction { sin, cos, exp, log, exp2, log2, log10, expm1, log1p, tan };
constexpr int kVectorFunctions = 10;

// Sets each lane of `lanes` whose bit is set in `mask` to libm's f of the
// same lane of `inputs` (doubles, or floats).
using LibmLanes = void (*)(void* lanes, const void* inputs, std::uint64_t mask);
LibmLanes libm_lanes(VectorFunction f, bool float64);

}  // namespace npy::jit
