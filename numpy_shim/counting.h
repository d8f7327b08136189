// np.bincount and np.histogram (equal bins) computed by the backend
// (jit/backend.h) from the arrays as they lie, with NumPy's results: the
// counts are exact, and sums of weights are added in NumPy's order. Both
// end a region (a bincount's length is its values' greatest): lazy
// arguments are computed first.
#pragma once

#include <Python.h>

#include "numpy_shim/tracer.h"
#include "numpy_shim/vocabulary.h"

namespace npy::numpy_shim {

// The call's result (a new reference); nullptr with an exception: an error;
// nullptr without one: a call the backend does not take (other dtypes,
// layouts or arguments, values NumPy refuses, a floating-point flag
// raised), which NumPy then makes.
PyObject* count_into_bins(CallForm form, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames,
                          const Location& where);

}  // namespace npy::numpy_shim
