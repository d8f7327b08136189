// The evaluator's way into regions. Inside frames npython evaluates, NumPy
// operations are recorded into the thread's trace and give lazy values; a
// lazy value is computed (with everything else its trace holds) at a
// materialization point, for one of the reasons below.
//
// Every trace_* function returns a new reference (a lazy value, or a real
// result), or nullptr: with an exception set when the operation failed, or
// without one when the operation is not traced; the evaluator then runs it
// itself, on materialized operands.
#pragma once

#include <Python.h>

namespace npy::numpy_shim {

// Once NumPy is loaded, before the program's first NumPy call: what the
// first traced call would otherwise set up (the vocabulary of callables, the
// kernels' threads), so that it is not timed as part of that call.
void prepare_tracing();

// Where the evaluator is, for sites in logs and for warnings.
struct Location {
  PyCodeObject* code = nullptr;
  int offset = 0;  // in code units
  PyObject* globals = nullptr;
};

#define NPY_MATERIALIZE_REASONS(X)                                        \
  X(branch, "value decides an `if` or `while`")                           \
  X(call, "passed to code npython does not trace")                        \
  X(clock, "a clock of module time is read: timings include pending work") \
  X(fallback, "argument of a NumPy call npython runs eagerly")            \
  X(store, "stored into a container, attribute, global or array")         \
  X(returned, "returned to code npython does not run")                    \
  X(attribute, "attribute or method npython does not trace")              \
  X(operation, "operand of an operation npython does not trace")          \
  X(exception, "exception leaves the frame")                              \
  X(size_cap, "region reached its size cap")                              \
  X(counting, "counted into bins by np.bincount or np.histogram, which end the region") \
  X(unused, "no longer used: computed for NumPy's floating-point warnings") \
  X(warning, "a warning is shown: the region's own warnings come first") \
  X(line_end, "the line ends: NumPy's error state or the warnings filters make errors visible there")

enum class Reason {
#define NPY_REASON_ENUM(name, text) k_##name,
  NPY_MATERIALIZE_REASONS(NPY_REASON_ENUM)
#undef NPY_REASON_ENUM
};

enum class UnaryOperator { kNegative, kPositive, kInvert };

// Arrays smaller than this are left to NumPy unless a lazy value is involved:
// a region's fixed cost exceeds what fusing saves on them (bench/seeds/
// small_arrays.py breaks even near 2,000 float64 elements on a 2-core machine).
inline constexpr Py_ssize_t kMinTracedElements = 1 << 11;

// Whether the tracer may take an operation on these operands: one is a lazy
// value, or an array of kMinTracedElements or more. Cheap: the evaluator asks
// before anything else numpy_shim does for operators.
bool may_trace_either(PyObject* lhs, PyObject* rhs);
// Whether `container[key]` may be traced without a lazy operand: an array
// indexed by a boolean array big enough to trace (x[mask], a compress).
bool may_trace_mask_subscript(PyObject* container, PyObject* key);

PyObject* trace_binary_operator(int nb_op, PyObject* lhs, PyObject* rhs, const Location& where);
PyObject* trace_compare(int compare_op, PyObject* lhs, PyObject* rhs, const Location& where);
PyObject* trace_unary_operator(UnaryOperator op, PyObject* operand, const Location& where);
PyObject* trace_call(PyObject* callable, PyObject* const* args, Py_ssize_t nargs,
                     PyObject* kwnames, const Location& where);

// `lazy.name` when the trace knows it without computing (shape, ndim,
// size) or records it (`.T`); nullptr without an exception otherwise.
PyObject* lazy_attribute(PyObject* lazy, PyObject* name, const Location& where);
// `container[key]` where the container or the key is lazy: for a lazy
// container and a basic index (ints, slices, None, Ellipsis), a view
// recorded into the region; for a boolean mask of the container's shape,
// x[mask] recorded as a compress node (trace.h's EagerForm::compressed_by).
PyObject* trace_subscript(PyObject* container, PyObject* key, const Location& where);
// `container[key] = value` where the trace takes it: into a lazy value
// (a boolean mask of its shape and a scalar, or a basic index) it is
// recorded, and the container names the result; a lazy value assigned into
// part of an array the program holds is computed (the region runs) and,
// where the region allows, straight into that part. An array only the
// program's local `name` (its one frame slot, or null) holds, assigned a
// scalar under a boolean mask, is recorded as a lazy value's would be, and
// the slot then holds the lazy result (nothing else sees the array). A
// value compressed by a mask, assigned under that mask into a lazy value
// or such an array, is recorded so too. 1:
// done; 0: not done, the evaluator materializes and assigns; -1: error.
int trace_store_subscript(PyObject* container, PyObject* key, PyObject* value, const Location& where,
                          PyObject** name);
// The unbound ndarray method `lazy.name` calls when the tracer traces it
// (borrowed), else nullptr.
PyObject* lazy_method(PyObject* lazy, PyObject* name);

// The value a lazy value stands for (a new reference): the array or NumPy
// scalar eager NumPy would have made. Computes its trace when pending.
// `detail` (may be null) adds to the reason in --explain.
PyObject* materialize(PyObject* lazy, Reason reason, const Location& where, const char* detail);

// Computes the thread's pending trace, if any. 0, or -1 with an exception.
int flush(Reason reason, const Location& where, const char* detail);

// Counts an eager fallback: a NumPy call on lazy arguments, which computes
// them (jit.fallbacks). The call itself is named, timed and logged as every
// eager NumPy call is (diagnostics.h).
void note_fallback();

}  // namespace npy::numpy_shim
