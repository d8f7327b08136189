// Every operation a region can hold, listed once: its kind, its arity, and
// whether it is quiet: NumPy reports no floating-point error for it
// (np.errstate), whatever its operands, so that work of it left undone
// cannot hide a warning (any and all stop once their result is known); and
// whether kernels compute it on floats by calling NumPy's inner loop
// (numpy_loops.h), because NumPy computes it with an algorithm of its own
// (libm's, or its SIMD code for this CPU) or NaN and zero rules of its own,
// so that results are NumPy's bits; and, for reductions, how they combine
// their operands (Combine), which the driver and the backends ask rather
// than naming reductions. The
// tracer (numpy_shim), the region dump, the eager replay and the backends
// all read this list; none of them spells an operation out anywhere else.
// The name is NumPy's ufunc or function name, which is also how logs show it;
// four ops are steps of NumPy's complex math instead, which the tracer
// records only as parts of a NumPy call: fma and fms, a * b + c and a * b - c
// rounded once (NumPy's SIMD complex products on CPUs with FMA; a NaN c
// keeps its sign in both); signaling_greater_equal, a >= b raising invalid
// where either is NaN (C's >= on x86, which NumPy's complex division
// branches on); complex, the complex128 value of a float64 real and
// imaginary part; and exp_real and exp_imag, the parts of NumPy's complex128
// exp of the complex value of their operands (real part, imaginary part),
// which kernels take from NumPy's complex loop (numpy_loops.h).
// compress is `x[mask]` for a boolean mask of x's shape, whose value keeps
// x's elements where the mask is true: in a region it stands for x over the
// mask's whole shape (its operand, copied), since the region computes
// element-wise work on such values there and keeps only what lies under
// the mask (numpy_shim's trace.h, EagerForm::compressed_by).
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
  kProduct,   // the matrix product of two float arrays of 1 or 2 dimensions (matmul, dot, @),
              // made by the program's own call: NumPy's, through the BLAS it links
  kScan,      // the running reduction (its combine) along the one axis in the node's axis
              // mask, each element combined into the one before it along that axis; a mask of
              // every axis of an operand of two or more: along the operand's elements in C
              // order, the result flat (np.cumsum(x) with no axis)
};

// How a reduction (kReduce) combines its operands, from its identity: the
// sum of them (mean: that sum over their count; float sums in NumPy's
// pairwise order), their product, the least or greatest of them (NaN
// winning, as NumPy's), the index of the first least or greatest, whether
// any or all are nonzero. kNone for every other op.
enum class Combine : std::uint8_t { kNone, kAdd, kMultiply, kMin, kMax, kArgMin, kArgMax, kOr, kAnd };

#define NPY_REGION_OPS(X)                         \
  X(input, kInput, 0, true, false, kNone)         \
  X(add, kBinary, 2, false, false, kNone)         \
  X(subtract, kBinary, 2, false, false, kNone)    \
  X(multiply, kBinary, 2, false, false, kNone)    \
  X(divide, kBinary, 2, false, false, kNone)      \
  X(floor_divide, kBinary, 2, false, true, kNone) \
  X(remainder, kBinary, 2, false, true, kNone)    \
  X(power, kBinary, 2, false, true, kNone)        \
  X(minimum, kBinary, 2, true, false, kNone)      \
  X(maximum, kBinary, 2, true, false, kNone)      \
  X(fmin, kBinary, 2, true, true, kNone)          \
  X(fmax, kBinary, 2, true, true, kNone)          \
  X(arctan2, kBinary, 2, false, true, kNone)      \
  X(equal, kBinary, 2, true, false, kNone)        \
  X(not_equal, kBinary, 2, true, false, kNone)    \
  X(less, kBinary, 2, true, false, kNone)         \
  X(less_equal, kBinary, 2, true, false, kNone)   \
  X(greater, kBinary, 2, true, false, kNone)      \
  X(greater_equal, kBinary, 2, true, false, kNone)\
  X(logical_and, kBinary, 2, true, false, kNone)  \
  X(logical_or, kBinary, 2, true, false, kNone)   \
  X(logical_xor, kBinary, 2, true, false, kNone)  \
  X(bitwise_and, kBinary, 2, true, false, kNone)  \
  X(bitwise_or, kBinary, 2, true, false, kNone)   \
  X(bitwise_xor, kBinary, 2, true, false, kNone)  \
  X(left_shift, kBinary, 2, true, false, kNone)   \
  X(right_shift, kBinary, 2, true, false, kNone)  \
  X(negative, kUnary, 1, true, false, kNone)      \
  X(positive, kUnary, 1, true, false, kNone)      \
  X(absolute, kUnary, 1, true, false, kNone)      \
  X(sign, kUnary, 1, true, true, kNone)           \
  X(sqrt, kUnary, 1, false, false, kNone)         \
  X(square, kUnary, 1, false, false, kNone)       \
  X(reciprocal, kUnary, 1, false, false, kNone)   \
  X(exp, kUnary, 1, false, true, kNone)           \
  X(exp2, kUnary, 1, false, true, kNone)          \
  X(expm1, kUnary, 1, false, true, kNone)         \
  X(log, kUnary, 1, false, true, kNone)           \
  X(log2, kUnary, 1, false, true, kNone)          \
  X(log10, kUnary, 1, false, true, kNone)         \
  X(log1p, kUnary, 1, false, true, kNone)         \
  X(sin, kUnary, 1, false, true, kNone)           \
  X(cos, kUnary, 1, false, true, kNone)           \
  X(tan, kUnary, 1, false, true, kNone)           \
  X(arcsin, kUnary, 1, false, true, kNone)        \
  X(arccos, kUnary, 1, false, true, kNone)        \
  X(arctan, kUnary, 1, false, true, kNone)        \
  X(sinh, kUnary, 1, false, true, kNone)          \
  X(cosh, kUnary, 1, false, true, kNone)          \
  X(tanh, kUnary, 1, false, true, kNone)          \
  X(floor, kUnary, 1, true, false, kNone)         \
  X(ceil, kUnary, 1, true, false, kNone)          \
  X(trunc, kUnary, 1, true, false, kNone)         \
  X(rint, kUnary, 1, true, false, kNone)          \
  X(isnan, kUnary, 1, true, false, kNone)         \
  X(isinf, kUnary, 1, true, false, kNone)         \
  X(isfinite, kUnary, 1, true, false, kNone)      \
  X(logical_not, kUnary, 1, true, false, kNone)   \
  X(invert, kUnary, 1, true, false, kNone)        \
  X(where, kTernary, 3, true, false, kNone)       \
  X(fma, kTernary, 3, false, false, kNone)        \
  X(fms, kTernary, 3, false, false, kNone)        \
  X(signaling_greater_equal, kBinary, 2, false, false, kNone) \
  X(conjugate, kUnary, 1, true, false, kNone)     \
  X(complex, kBinary, 2, true, false, kNone)      \
  X(exp_real, kBinary, 2, false, true, kNone)     \
  X(exp_imag, kBinary, 2, false, true, kNone)     \
  X(compress, kUnary, 1, true, false, kNone)      \
  X(clip, kTernary, 3, false, false, kNone)       \
  X(astype, kCast, 1, false, false, kNone)        \
  X(full, kCast, 1, true, false, kNone)           \
  X(sum, kReduce, 1, false, false, kAdd)          \
  X(prod, kReduce, 1, false, false, kMultiply)    \
  X(min, kReduce, 1, false, false, kMin)          \
  X(max, kReduce, 1, false, false, kMax)          \
  X(mean, kReduce, 1, false, false, kAdd)         \
  X(argmin, kReduce, 1, false, false, kArgMin)    \
  X(argmax, kReduce, 1, false, false, kArgMax)    \
  X(any, kReduce, 1, true, false, kOr)            \
  X(all, kReduce, 1, true, false, kAnd)           \
  X(norm, kNorm, 1, false, false, kNone)          \
  X(view, kView, 1, true, false, kNone)           \
  X(arange, kIndex, 3, false, false, kNone)       \
  X(setitem, kAssign, 2, false, false, kNone)    \
  X(matmul, kProduct, 2, false, false, kNone)     \
  X(cumsum, kScan, 1, false, false, kAdd)         \
  X(cumprod, kScan, 1, false, false, kMultiply)

enum class Op : std::uint8_t {
#define NPY_REGION_OP_ENUM(name, kind, arity, quiet, numpy_loop, combine) name,
  NPY_REGION_OPS(NPY_REGION_OP_ENUM)
#undef NPY_REGION_OP_ENUM
};

struct OpInfo {
  const char* name;
  OpKind kind;
  int arity;
  bool quiet;
  bool numpy_loop;
  Combine combine;
};

constexpr int kOpCount = 0
#define NPY_REGION_OP_COUNT(name, kind, arity, quiet, numpy_loop, combine) +1
    NPY_REGION_OPS(NPY_REGION_OP_COUNT)
#undef NPY_REGION_OP_COUNT
    ;

const OpInfo& op_info(Op op);

// exp_real and exp_imag: a part of a complex function's value, computed by
// NumPy's complex128 loop of that function (`exp`) on the value of the two
// operands, whatever the layout of its operands (an element-wise scalar
// loop); nullptr for every other op.
inline const char* complex_function_of(Op op) {
  return op == Op::exp_real || op == Op::exp_imag ? "exp" : nullptr;
}
// Which part such an op is: the imaginary one.
inline bool takes_imaginary_part(Op op) { return op == Op::exp_imag; }

// What a reduction's combine says of it (Combine::kNone: false).
inline bool adds(Op op) { return op_info(op).combine == Combine::kAdd; }
inline bool gives_index(Op op) {
  return op_info(op).combine == Combine::kArgMin || op_info(op).combine == Combine::kArgMax;
}
// min, max, argmin, argmax: one of the operands wins, whatever their order.
inline bool keeps_extreme(Op op) {
  const Combine c = op_info(op).combine;
  return c == Combine::kMin || c == Combine::kMax || c == Combine::kArgMin || c == Combine::kArgMax;
}
// min and max: the least or greatest operand itself.
inline bool is_min_max(Op op) { return op_info(op).combine == Combine::kMin || op_info(op).combine == Combine::kMax; }
// min and argmin (the least wins) among keeps_extreme's.
inline bool keeps_least(Op op) {
  return op_info(op).combine == Combine::kMin || op_info(op).combine == Combine::kArgMin;
}
// any and all: a bool of whether operands are nonzero.
inline bool is_logical(Op op) { return op_info(op).combine == Combine::kOr || op_info(op).combine == Combine::kAnd; }

}  // namespace npy::jit
