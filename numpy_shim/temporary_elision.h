// Temporary elision, as NumPy does it under CPython's evaluator: in
// `a + b` where `a` is a large array that nothing but the evaluator's stack
// refers to, the result is computed into `a` instead of a new array.
//
// NumPy recognises the case only when called from CPython's own evaluator
// (numpy/_core/src/multiarray/temp_elide.c inspects the C call stack), so
// frames that npython evaluates would otherwise lose it and allocate (and
// page-fault) a new array per operation.
#pragma once

#include <Python.h>

#include <cstdint>

#include "numpy_shim/numpy_api.h"

namespace npy::numpy_shim {

// Whether an operation on these operands may be one NumPy elides. Only
// operands the tracer may take (tracer.h, may_trace_either) can be elided:
// the evaluator asks here only after asking there.
inline bool may_elide(PyObject* lhs, PyObject* rhs) {
  return g_ndarray_type && (Py_TYPE(lhs) == g_ndarray_type || Py_TYPE(rhs) == g_ndarray_type);
}
inline bool may_elide(PyObject* operand) {
  return g_ndarray_type && Py_TYPE(operand) == g_ndarray_type;
}

// `lhs <op> rhs` for the NB_* operator `op`, computed in place into an
// operand that is an unshared temporary when that gives the same result.
// Returns nullptr without an exception when it does not apply, nullptr with
// one on error, else the result (a new reference). The caller owns one
// reference to each operand; `lhs_free` / `rhs_free` say whether the caller
// lets that operand go after the operation (an evaluator stack does; a
// region's value that a lazy value names or a later node reads does not,
// though its one reference is the region's).
PyObject* binary_op_into_temporary(int op, PyObject* lhs, PyObject* rhs, bool lhs_free = true,
                                   bool rhs_free = true);

// Whether NumPy computes `lhs <op> rhs` (the NB_* operator `op`) into an
// unshared temporary operand of `bytes` bytes whose dtype kind is `kind`
// (b, i, u, f, c): the left one, or the right one (`left` false) of an
// operator whose operands commute; provided the other operand has the
// temporary's shape or none and the result the temporary's dtype.
bool elides_into(int op, bool left, char kind, std::int64_t bytes);

// `-operand` (UNARY_NEGATIVE) or `~operand` (UNARY_INVERT) computed in
// place into an unshared temporary, with the same contract.
enum class UnaryOp { kNegative, kInvert };
PyObject* unary_op_into_temporary(UnaryOp op, PyObject* operand);

}  // namespace npy::numpy_shim
