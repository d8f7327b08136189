// What npython tells the user about the NumPy work it did not compile:
// the one table of reasons an operation runs eagerly (with a hint where a
// change to the program helps), the names of NumPy's callables and
// operators as the program writes them, and the eager calls' records for
// --explain, NPY_JIT_LOG=fallback and the time shares. All of it is off
// (one flag read) unless one of those diagnostics is asked for.
#pragma once

#include <Python.h>

#include <string>

#include "numpy_shim/tracer.h"

namespace npy::numpy_shim {

// Why NumPy runs an operation rather than a compiled region: the reason in
// the user's words, then a hint ("" where the program has nothing to change).
#define NPY_EAGER_REASONS(X)                                                                          \
  X(not_compiled, "npython does not compile this NumPy function: NumPy runs it", "")                  \
  X(matrix_product,                                                                                  \
    "npython records matrix products of two float64 or two float32 arrays of 1 or 2 dimensions "       \
    "where an operand is pending or a region is open: NumPy computes this one at its call",            \
    "")                                                                                               \
  X(integer_power,                                                                                    \
    "npython leaves `**` on integers to NumPy unless the exponent is a Python int of 0 or more (a "   \
    "negative exponent raises an error, depending on the data)",                                      \
    "a constant exponent (`x ** 3`) or a float array is compiled")                                    \
  X(small_arrays,                                                                                     \
    "its arrays have fewer than 2048 elements: a compiled region costs more than it saves on them",   \
    "work on whole arrays at once rather than on small pieces in a Python loop")                      \
  X(unsupported_dtype,                                                                                \
    "npython compiles bool, integer, float32, float64 and complex128 arrays, not this dtype",          \
    "use float64 or float32 arrays where the values allow")                                           \
  X(operand_kind,                                                                                     \
    "an operand is not an ndarray, NumPy scalar or Python number that npython compiles with (a list, " \
    "an ndarray subclass, a Python int beyond int64...)",                                             \
    "convert it once with np.asarray, before the loop")                                               \
  X(arguments, "npython compiles this operation, but not with these arguments (keywords, out=, axis, " \
               "dtype...)",                                                                           \
    "")                                                                                               \
  X(scalar_math, "its operands are NumPy scalars or Python numbers: NumPy's scalar math runs it", "")  \
  X(shapes, "its operands' shapes do not broadcast together: NumPy raises the error", "")              \
  X(compressed,                                                                                      \
    "an operand is x[mask] (or work on it) and npython compiles such values only in element-wise "      \
    "work with values of the same mask and 0-d ones, assigned back with `y[mask] = ...`: NumPy "        \
    "computes the region's values",                                                                   \
    "")                                                                                               \
  X(in_place, "an in-place operator on an array the program holds writes that array at once",         \
    "`x = x + y` rather than `x += y` lets the operation join the region, where the old value of x "  \
    "is not needed elsewhere")                                                                        \
  X(error_state,                                                                                      \
    "np.errstate 'call's, 'print's or 'log's floating-point errors, or np.setbufsize changed NumPy's " \
    "buffer size: NumPy runs each operation itself",                                                  \
    "")                                                                                               \
  X(memory, "its result might not fit in memory: NumPy raises any MemoryError at the line itself", "")    \
  X(complex_op,                                                                                       \
    "npython compiles complex128 +, -, *, /, unary -, squares, np.abs, np.conj, np.exp, ==, !=, isnan, "\
    "isinf and isfinite, not this complex operation or dtype",                                          \
    "")

enum class EagerReason {
#define NPY_EAGER_REASON_ENUM(name, text, hint) k_##name,
  NPY_EAGER_REASONS(NPY_EAGER_REASON_ENUM)
#undef NPY_EAGER_REASON_ENUM
};

// On when --explain, NPY_JIT_LOG=fallback or NPY_JIT_STATS=1 is: eager NumPy
// calls are then named, timed and recorded. Set at start-up.
inline bool g_diagnostics = false;
void set_diagnostics(bool on);

void note_refusal(EagerReason reason, const char* detail);
void clear_refusal();
// Where the tracer declines an operation: why NumPy runs it. The first
// reason given since the operation's tracing began counts; `detail` (may be
// null: a dtype's name, say) is shown after the reason.
inline void refuse(EagerReason reason, const char* detail = nullptr) {
  if (__builtin_expect(g_diagnostics, false)) note_refusal(reason, detail);
}
// Where the tracer starts on an operation.
inline void begin_tracing() {
  if (__builtin_expect(g_diagnostics, false)) clear_refusal();
}

// `op` as the program writes it, for an NB_* operator and its right
// operand: "`@`", "`**` with exponent 3", "`+=`".
std::string describe_binary_operator(int nb_op, PyObject* rhs);
// A comparison (Py_LT...): "`<`".
std::string describe_compare(int compare_op);
// NumPy's name for a callable of NumPy's ("np.histogram", "np.linalg.norm",
// "ndarray.sort", "np.add.reduce"), or "" when it is not NumPy's.
std::string numpy_call_name(PyObject* callable);

// Around one NumPy call or operator the evaluator runs eagerly, while
// g_diagnostics is on: times it (less any region it computes), counts it
// (jit.eager_calls), records it for --explain and logs it to the fallback
// channel with the reason the tracer gave. Only the outermost of nested
// ones counts (NumPy's own code under NPY_INTERP=all). A begin that returns
// true is followed by end_eager once the call or operator is over.
//
// `callable`: the call's; nothing is recorded when it is not NumPy's.
// `traced`: whether the tracer was asked (and so gave the reason).
bool begin_eager_call(PyObject* callable, const Location& where, bool traced);
// An operator on NumPy operands, `name` as describe_* gives it.
bool begin_eager_operator(const std::string& name, const Location& where, bool traced);
void end_eager();

// A region ran for `seconds`: its time counts as compiled, not as part of an
// eager call it ran within.
void note_region_time(double seconds);

// A hint for a materialization, for its reason and detail (an opcode name
// or an operator), or "". --explain shows it where the materialization
// repeats.
const char* materialization_hint(Reason reason, const char* detail);

// The paragraph NPY_JIT_STATS=1 prints before the counters.
std::string format_summary();

}  // namespace npy::numpy_shim
