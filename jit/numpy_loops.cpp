#include "jit/numpy_loops.h"

#include <cfenv>
#include <cstring>
#include <vector>

namespace npy::jit {
namespace {

// Index: the op, then the dtype's place in kLoopTypes.
NumpyLoop g_loops[kOpCount * kLoopTypeCount];
bool g_fast_math = false;

int slot_of(Op op, DType dtype) { return static_cast<int>(op) * kLoopTypeCount + loop_type_index(dtype); }

bool takes_loops(DType dtype) { return loop_type_index(dtype) >= 0; }

// A kernel asks for both parts of one complex value, one after the other,
// with the same operands: the second takes what the first computed, each
// thread keeping its last call's operands, results and the floating-point
// flags NumPy's loop raised (raised again, so that a kernel that asks only
// for the second part reports what NumPy's call reports).
struct ComplexCall {
  const char* function = nullptr;
  std::vector<double> operands;  // interleaved, as NumPy's complex128 loop reads them
  std::vector<double> results;
  int flags = 0;
};

// A part of NumPy's complex128 `loop` of the complex values a[i] + b[i] i,
// into out[i] (an operand that is one value: the same in every element).
void run_complex_part(Op op, const NumpyLoop& loop, double* out, const double* a, const double* b,
                      std::int64_t count, bool a_one, bool b_one) {
  thread_local ComplexCall last;
  thread_local std::vector<double> operands;
  const auto n = static_cast<std::size_t>(count);
  operands.resize(2 * n);
  for (std::size_t i = 0; i < n; ++i) {
    operands[2 * i] = a[a_one ? 0 : i];
    operands[2 * i + 1] = b[b_one ? 0 : i];
  }
  const char* function = complex_function_of(op);
  if (last.function != function || last.operands.size() != operands.size() ||
      std::memcmp(last.operands.data(), operands.data(), operands.size() * sizeof(double)) != 0) {
    last.function = function;
    last.operands.swap(operands);
    last.results.resize(2 * n);
    const std::intptr_t dimensions[1] = {static_cast<std::intptr_t>(count)};
    const std::intptr_t steps[2] = {2 * sizeof(double), 2 * sizeof(double)};
    char* args[2] = {reinterpret_cast<char*>(last.operands.data()), reinterpret_cast<char*>(last.results.data())};
    const int before = std::fetestexcept(FE_ALL_EXCEPT);
    std::feclearexcept(FE_ALL_EXCEPT);
    loop.function(args, dimensions, steps, loop.data);
    last.flags = std::fetestexcept(FE_ALL_EXCEPT);
    std::feraiseexcept(before);
  }
  if (last.flags) std::feraiseexcept(last.flags);
  const std::size_t part = takes_imaginary_part(op) ? 1 : 0;
  for (std::size_t i = 0; i < n; ++i) out[i] = last.results[2 * i + part];
}

}  // namespace

int loop_type_index(DType dtype) {
  for (int i = 0; i < kLoopTypeCount; ++i) {
    if (kLoopTypes[i] == dtype) return i;
  }
  return -1;
}

void set_numpy_loop(Op op, DType dtype, NumpyLoop loop) {
  if (takes_loops(dtype) && op_info(op).numpy_loop) g_loops[slot_of(op, dtype)] = loop;
}

const NumpyLoop* numpy_loop(Op op, DType dtype) {
  if (!takes_loops(dtype)) return nullptr;
  const NumpyLoop& loop = g_loops[slot_of(op, dtype)];
  return loop.function ? &loop : nullptr;
}

void run_numpy_loop(Op op, DType dtype, void* out, const void* a, const void* b, std::int64_t count, bool a_one,
                    bool b_one) {
  const NumpyLoop& loop = g_loops[slot_of(op, dtype)];
  if (complex_function_of(op)) {
    run_complex_part(op, loop, static_cast<double*>(out), static_cast<const double*>(a), static_cast<const double*>(b),
                     count, a_one, b_one);
    return;
  }
  const std::intptr_t size = itemsize(dtype);
  const std::intptr_t dimensions[1] = {static_cast<std::intptr_t>(count)};
  const bool unary = op_info(op).arity == 1;
  const std::intptr_t steps[3] = {a_one ? 0 : size, b_one && !unary ? 0 : size, size};
  char* args[3] = {static_cast<char*>(const_cast<void*>(a)), static_cast<char*>(const_cast<void*>(b)),
                   static_cast<char*>(out)};
  if (op_info(op).arity == 1) args[1] = static_cast<char*>(out);
  loop.function(args, dimensions, steps, loop.data);
}

void run_numpy_loop_stepped(Op op, DType dtype, void* out, const char* a, std::int64_t a_step, std::int64_t count) {
  const NumpyLoop& loop = g_loops[slot_of(op, dtype)];
  const std::intptr_t dimensions[1] = {static_cast<std::intptr_t>(count)};
  const std::intptr_t steps[2] = {static_cast<std::intptr_t>(a_step), itemsize(dtype)};
  char* args[2] = {const_cast<char*>(a), static_cast<char*>(out)};
  loop.function(args, dimensions, steps, loop.data);
}

void set_fast_math(bool fast) { g_fast_math = fast; }

bool fast_math() { return g_fast_math; }

}  // namespace npy::jit
