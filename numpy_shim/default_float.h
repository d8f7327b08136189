// NPY_DEFAULT_FLOAT=float32: the creation calls of the program's own code
// (np.zeros ones empty full identity eye arange linspace) that would give
// float64 because no dtype was named give float32 instead. An explicit
// dtype, and NumPy's own code, are left alone.
#pragma once

#include <Python.h>

namespace npy::numpy_shim {

void set_default_float32(bool on);
bool default_float32();

// The call made with dtype=float32 added where NPY_DEFAULT_FLOAT applies to
// it (a new reference, or nullptr with an exception); nullptr without an
// exception when it does not (another callable, a dtype named, an integer
// fill value...).
PyObject* call_with_default_float(PyObject* callable, PyObject* const* args, Py_ssize_t nargs,
                                  PyObject* kwnames);

}  // namespace npy::numpy_shim
