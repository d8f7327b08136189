// Every operation a region can hold, listed once: its kind and arity. The
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

#define NPY_REGION_OPS(X)           \
  X(input, kInput, 0)               \
  X(add, kBinary, 2)                \
  X(subtract, kBinary, 2)           \
  X(multiply, kBinary, 2)           \
  X(divide, kBinary, 2)             \
  X(floor_divide, kBinary, 2)       \
  X(remainder, kBinary, 2)          \
  X(power, kBinary, 2)              \
  X(minimum, kBinary, 2)            \
  X(maximum, kBinary, 2)            \
  X(fmin, kBinary, 2)               \
  X(fmax, kBinary, 2)               \
  X(arctan2, kBinary, 2)            \
  X(equal, kBinary, 2)              \
  X(not_equal, kBinary, 2)          \
  X(less, kBinary, 2)               \
  X(less_equal, kBinary, 2)         \
  X(greater, kBinary, 2)            \
  X(greater_equal, kBinary, 2)      \
  X(logical_and, kBinary, 2)        \
  X(logical_or, kBinary, 2)         \
  X(logical_xor, kBinary, 2)        \
  X(bitwise_and, kBinary, 2)        \
  X(bitwise_or, kBinary, 2)         \
  X(bitwise_xor, kBinary, 2)        \
  X(left_shift, kBinary, 2)         \
  X(right_shift, kBinary, 2)        \
  X(negative, kUnary, 1)            \
  X(positive, kUnary, 1)            \
  X(absolute, kUnary, 1)            \
  X(sign, kUnary, 1)                \
  X(sqrt, kUnary, 1)                \
  X(square, kUnary, 1)              \
  X(reciprocal, kUnary, 1)          \
  X(exp, kUnary, 1)                 \
  X(exp2, kUnary, 1)                \
  X(expm1, kUnary, 1)               \
  X(log, kUnary, 1)                 \
  X(log2, kUnary, 1)                \
  X(log10, kUnary, 1)               \
  X(log1p, kUnary, 1)               \
  X(sin, kUnary, 1)                 \
  X(cos, kUnary, 1)                 \
  X(tan, kUnary, 1)                 \
  X(arcsin, kUnary, 1)              \
  X(arccos, kUnary, 1)              \
  X(arctan, kUnary, 1)              \
  X(sinh, kUnary, 1)                \
  X(cosh, kUnary, 1)                \
  X(tanh, kUnary, 1)                \
  X(floor, kUnary, 1)               \
  X(ceil, kUnary, 1)                \
  X(trunc, kUnary, 1)               \
  X(rint, kUnary, 1)                \
  X(isnan, kUnary, 1)               \
  X(isinf, kUnary, 1)               \
  X(isfinite, kUnary, 1)            \
  X(logical_not, kUnary, 1)         \
  X(invert, kUnary, 1)              \
  X(where, kTernary, 3)             \
  X(clip, kTernary, 3)              \
  X(astype, kCast, 1)               \
  X(full, kCast, 1)                 \
  X(sum, kReduce, 1)                \
  X(prod, kReduce, 1)               \
  X(min, kReduce, 1)                \
  X(max, kReduce, 1)                \
  X(mean, kReduce, 1)               \
  X(argmin, kReduce, 1)             \
  X(argmax, kReduce, 1)             \
  X(any, kReduce, 1)                \
  X(all, kReduce, 1)                \
  X(norm, kNorm, 1)                 \
  X(view, kView, 1)                 \
  X(arange, kIndex, 3)              \
  X(setitem, kAssign, 2)

enum class Op : std::uint8_t {
#define NPY_REGION_OP_ENUM(name, kind, arity) name,
  NPY_REGION_OPS(NPY_REGION_OP_ENUM)
#undef NPY_REGION_OP_ENUM
};

struct OpInfo {
  const char* name;
  OpKind kind;
  int arity;
};

const OpInfo& op_info(Op op);

}  // namespace npy::jit
