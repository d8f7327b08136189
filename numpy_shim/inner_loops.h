// Hands the JIT NumPy's own inner loops for the operations NumPy computes
// with algorithms of its own (jit/numpy_loops.h), so that kernels give
// NumPy's bits.
#pragma once

#include <Python.h>

#include "jit/numpy_loops.h"

namespace npy::numpy_shim {

// The inner loop of `ufunc` (a numpy.ufunc) whose operands and results are
// all of NumPy's type `type_num`; its function is nullptr where it has none.
jit::NumpyLoop inner_loop_of(PyObject* ufunc, int type_num);

// Registers the loops on jit::kLoopTypes of every such operation's ufunc
// in `numpy`, the module. NumPy's C API must be loaded. Never raises.
void register_inner_loops(PyObject* numpy);

}  // namespace npy::numpy_shim
