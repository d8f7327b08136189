// Vectorized transcendental functions that JIT-generated kernels call on one
// 256-bit register's worth of lanes (exp and log, which kernels compute in
// their own code, have only their libm lanes here). Every lane is within 2
// ULP of the correctly rounded result, and lanes the vector code does not
// cover (NaN, infinities, huge or subnormal arguments, results that overflow
// or underflow) are computed by the scalar libm function, so that results
// and IEEE exception flags match it there.
#pragma once

#include <cstdint>

namespace npy::jit {

// A function applied in place to one 32-byte aligned vector of lanes: 4
// doubles or 8 floats. Only to be called on CPUs with AVX2.
using LaneFunction = void (*)(void* lanes);

enum class VectorFunction { sin, cos, exp, log, exp2, log2, log10, expm1, log1p, tan };

// nullptr when there is no vector version for that function and element size
// (exp and log: kernels compute them in their own code, inline_math.h).
LaneFunction lane_function(VectorFunction f, bool float64);

// Sets each lane of `lanes` whose bit is set in `mask` to libm's f of the
// same lane of `inputs` (doubles, or floats): for kernels that compute f in
// their own code on all other lanes.
using LibmLanes = void (*)(void* lanes, const void* inputs, std::uint64_t mask);
LibmLanes libm_lanes(VectorFunction f, bool float64);

}  // namespace npy::jit
