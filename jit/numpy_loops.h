// NumPy's own inner loops for the operations it computes with algorithms of
// its own (region_ops.h: numpy_loop), on the dtypes of kernels' 32- and
// 64-bit lanes (kLoopTypes): kernels call them on their vectors' lanes, so
// that results are the bits NumPy gives on this machine (its SIMD code for
// this CPU, or libm's) and its floating-point flags (an integer division by
// zero). numpy_shim registers them once the program has imported NumPy;
// kernels are compiled only after.
#pragma once

#include <cstdint>

#include "jit/dtype.h"
#include "jit/region_ops.h"

namespace npy::jit {

// NumPy's PyUFuncGenericFunction: args are the operands then the result.
using NumpyInnerLoop = void (*)(char** args, const std::intptr_t* dimensions, const std::intptr_t* steps,
                                void* data);

constexpr DType kLoopTypes[] = {DType::kFloat32, DType::kFloat64, DType::kInt32,
                                DType::kInt64,   DType::kUInt32,  DType::kUInt64};
constexpr int kLoopTypeCount = 6;

// `dtype`'s place in kLoopTypes, or -1.
int loop_type_index(DType dtype);

struct NumpyLoop {
  NumpyInnerLoop function = nullptr;
  void* data = nullptr;
};

// Registers NumPy's loop of `op` whose operands and result are all `dtype`.
void set_numpy_loop(Op op, DType dtype, NumpyLoop loop);

// The loop registered for `op` on `dtype`, or nullptr.
const NumpyLoop* numpy_loop(Op op, DType dtype);

// Runs `op`'s loop on `count` contiguous elements of `dtype` (of
// kLoopTypes): out[i] = op(a[i]) or op(a[i], b[i]); an operand that is one
// value (`a_one`, `b_one`: the same in every element) is passed as NumPy's
// own call passes a scalar or a broadcast operand, with a step of 0, for
// some loops take other paths for it (power's exponent of 2, 0.5 or -1,
// fmax's signed zeros). A part of a complex function's value (exp_real,
// exp_imag: region_ops.h) is that part of the complex128 loop's result for
// a[i] + b[i] i. Its loop must be registered.
void run_numpy_loop(Op op, DType dtype, void* out, const void* a, const void* b, std::int64_t count, bool a_one,
                    bool b_one);

// Runs unary `op`'s loop on `count` elements of `dtype` at `a`, `a_step`
// bytes apart, into the contiguous `out`: the operand as it lies, as
// NumPy's own call hands it to the loop. Its loop must be registered.
void run_numpy_loop_stepped(Op op, DType dtype, void* out, const char* a, std::int64_t a_step, std::int64_t count);

// NPY_MATH=fast: the functions with vector code of npython's own (the x86
// backend's sin cos tan exp exp2 expm1 log log2 log10 log1p) use it instead
// of NumPy's loops: faster, within 1 ULP of the correctly rounded result, but
// not always NumPy's bits. Set at start-up, before any kernel is compiled.
void set_fast_math(bool fast);
bool fast_math();

}  // namespace npy::jit
