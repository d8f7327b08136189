// Calls on small float64 arrays computed here, without NumPy's per-call
// machinery (argument parsing, type resolution, iterator set-up, buffers),
// which costs more than the work itself on arrays of a few elements, and
// which a region does not pay back below kMinTracedElements (tracer.h).
//
// Covered, where the result is NumPy's bit for bit: the operators + - * /
// and unary -, the ufuncs add subtract multiply divide maximum minimum
// sqrt absolute negative, and whole-array sum and mean (functions and
// methods), on exact ndarrays of native float64, C-contiguous and aligned,
// with at least one dimension and fewer than kMinTracedElements elements;
// two arrays of one shape, or an array and a Python float or int (within
// int64). No keyword arguments.
//
// A computation that raises a floating-point flag is dropped and left to
// NumPy, which computes it again and warns or raises as errstate says.
#pragma once

#include <Python.h>

namespace npy::numpy_shim {

// `lhs <op> rhs` for the NB_* operator `op`, or nullptr (no exception) when
// it is not covered. Only for code paths with no lazy value pending.
PyObject* small_binary_operator(int op, PyObject* lhs, PyObject* rhs);

// `-operand`, likewise.
PyObject* small_negative(PyObject* operand);

// callable(*args) with `nargs` positional arguments (the array first for
// ndarray methods), likewise.
PyObject* small_call(PyObject* callable, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames);

}  // namespace npy::numpy_shim
