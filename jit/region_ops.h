// Every operation a region can hold, listed once: its kind, its arity, and
// whether it is quiet: NumPy reports no floating-point error for it
// (np.errstate), whatever its operands, so that work of it left undone
// cannot hide a warning (any and all stop once their result is known); and
// whether kernels compute it on floats by calling NumPy's inner loop
// (numpy_loops.h), because NumPy computes it with an algorithm of its own
// (libm's, or its SIMD code for this CPU) or NaN and zero rules of its own,
// so that results are NumPy's bits. The
// tracer (numpy_shim), the region dump, the eager replay and the backends
// all read this list; none of them spells an operation out anywhere else.
// The name is NumPy's ufunc or function name, which is also how logs show it.
#pragma once

#include <cstdint>

namespace npy::jit {

enum class OpKind : std::uint8_t {
  kInput,     // an array or scalar that exists outside the region
  kUnary,     // element-wise, one operand
  kBinary,    // element-wise, two broadcast operands
  kTernary,   // element-wise, three broadcast operands
  kCast,      // element-wise conversion to the node's dtype (astype), or a 0-d
              // value's broadcast over the node's shape (full)
  kReduce,    // reduction over the axes in the node's axis mask
  kNorm,      // 2-norm over the axis mask: sqrt(sum(x * x))
  kView,      // a view of the operand (reshape, transpose, slicing...), made by NumPy
  kIndex,     // from each element's index i along the node's one axis (arange: NumPy's
              // fill, in0 at i = 0, in1 at i = 1, in0 + i * in2 beyond)
  kAssign,    // the first operand with part of it replaced by the second (x[index] = value),
              // made by NumPy: the index is not the region's to know
};

#define NPY_REGION_OPS(X)                 \
  X(input, kInput, 0, true, false)          \
  X(add, kBinary, 2, false, false)          \
  X(subtract, kBinary, 2, false, false)     \
  X(multiply, kBinary, 2, false, false)     \
  X(divide, kBinary, 2, false, false)       \
  X(floor_divide, kBinary, 2, false, true)  \
  X(remainder, kBinary, 2, false, true)     \
  X(power, kBinary, 2, false, true)         \
  X(minimum, kBinary, 2, true, false)       \
  X(maximum, kBinary, 2, true, false)       \
  X(fmin, kBinary, 2, true, true)           \
  X(fmax, kBinary, 2, true, true)           \
  X(arctan2, kBinary, 2, false, true)       \
  X(equal, kBinary, 2, true, false)         \
  X(not_equal, kBinary, 2, true, false)     \
  X(less, kBinary, 2, true, false)          \
  X(less_equal, kBinary, 2, true, false)    \
  X(greater, kBinary, 2, true, false)       \
  X(greater_equal, kBinary, 2, true, false) \
  X(logical_and, kBinary, 2, true, false)   \
  X(logical_or, kBinary, 2, true, false)    \
  X(logical_xor, kBinary, 2, true, false)   \
  X(bitwise_and, kBinary, 2, true, false)   \
  X(bitwise_or, kBinary, 2, true, false)    \
  X(bitwise_xor, kBinary, 2, true, false)   \
  X(left_shift, kBinary, 2, true, false)    \
  X(right_shift, kBinary, 2, true, false)   \
  X(negative, kUnary, 1, true, false)       \
  X(positive, kUnary, 1, true, false)       \
  X(absolute, kUnary, 1, true, false)       \
  X(sign, kUnary, 1, true, true)            \
  X(sqrt, kUnary, 1, false, false)          \
  X(square, kUnary, 1, false, false)        \
  X(reciprocal, kUnary, 1, false, false)    \
  X(exp, kUnary, 1, false, true)            \
  X(exp2, kUnary, 1, false, true)           \
  X(expm1, kUnary, 1, false, true)          \
  X(log, kUnary, 1, false, true)            \
  X(log2, kUnary, 1, false, true)           \
  X(log10, kUnary, 1, false, true)          \
  X(log1p, kUnary, 1, false, true)          \
  X(sin, kUnary, 1, false, true)            \
  X(cos, kUnary, 1, false, true)            \
  X(tan, kUnary, 1, false, true)            \
  X(arcsin, kUnary, 1, false, true)         \
  X(arccos, kUnary, 1, false, true)         \
  X(arctan, kUnary, 1, false, true)         \
  X(sinh, kUnary, 1, false, true)           \
  X(cosh, kUnary, 1, false, true)           \
  X(tanh, kUnary, 1, false, true)           \
  X(floor, kUnary, 1, true, false)          \
  X(ceil, kUnary, 1, true, false)           \
  X(trunc, kUnary, 1, true, false)          \
  X(rint, kUnary, 1, true, false)           \
  X(isnan, kUnary, 1, true, false)          \
  X(isinf, kUnary, 1, true, false)          \
  X(isfinite, kUnary, 1, true, false)       \
  X(logical_not, kUnary, 1, true, false)    \
  X(invert, kUnary, 1, true, false)         \
  X(where, kTernary, 3, true, false)        \
  X(clip, kTernary, 3, false, false)        \
  X(astype, kCast, 1, false, false)         \
  X(full, kCast, 1, true, false)            \
  X(sum, kReduce, 1, false, false)          \
  X(prod, kReduce, 1, false, false)         \
  X(min, kReduce, 1, false, false)          \
  X(max, kReduce, 1, false, false)          \
  X(mean, kReduce, 1, false, false)         \
  X(argmin, kReduce, 1, false, false)       \
  X(argmax, kReduce, 1, false, false)       \
  X(any, kReduce, 1, true, false)           \
  X(all, kReduce, 1, true, false)           \
  X(norm, kNorm, 1, false, false)           \
  X(view, kView, 1, true, false)            \
  X(arange, kIndex, 3, false, false)        \
  X(setitem, kAssign, 2, false, false)

enum class Op : std::uint8_t {
#define NPY_REGION_OP_ENUM(name, kind, arity, quiet, numpy_loop) name,
  NPY_REGION_OPS(NPY_REGION_OP_ENUM)
#undef NPY_REGION_OP_ENUM
};

struct OpInfo {
  const char* name;
  OpKind kind;
  int arity;
  bool quiet;
  bool numpy_loop;
};

constexpr int kOpCount = 0
#define NPY_REGION_OP_COUNT(name, kind, arity, quiet, numpy_loop) +1
    NPY_REGION_OPS(NPY_REGION_OP_COUNT)
#undef NPY_REGION_OP_COUNT
    ;

const OpInfo& op_info(Op op);

}  // namespace npy::jit
