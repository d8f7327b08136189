// The functions kernels call from their code: libm's part of the
// transcendental functions they compute themselves (inline_math.h: the lanes
// outside the vector code's domain, so that results and IEEE flags match
// libm there), and NumPy's inner loops on a vector's lanes (numpy_loops.h).
#pragma once

#include <cstdint>

#include "jit/region_ops.h"

namespace npy::jit {

enum class VectorFunction { sin, cos, exp, log, exp2, log2, log10, expm1, log1p, tan };
constexpr int kVectorFunctions = 10;

// Sets each lane of `lanes` whose bit is set in `mask` to libm's f of the
// same lane of `inputs` (doubles, or floats).
using LibmLanes = void (*)(void* lanes, const void* inputs, std::uint64_t mask);
LibmLanes libm_lanes(VectorFunction f, bool float64);

// Sets the first `count` lanes of `out` to NumPy's `op` of the same lanes of
// `a` (and `b`, for two operands), of kLoopTypes[type] (numpy_loops.h),
// through its registered inner loop; `one_value` bit 0 (1): `a` is one
// value in every lane, bit 1 (2): `b` is (run_numpy_loop's a_one, b_one).
using NumpyLanes = void (*)(void* out, const void* a, const void* b, std::uint64_t count, std::uint64_t one_value);
NumpyLanes numpy_lanes(Op op, int type);

}  // namespace npy::jit
