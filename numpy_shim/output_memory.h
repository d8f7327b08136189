// Memory for the arrays kernels write: NumPy's own allocator interface
// (PyDataMem_Handler), so that such an array is an ordinary NumPy array that
// owns its data, but large buffers go back to a pool when the array dies and
// the next output of a similar size reuses them, pages already mapped. A
// program that makes a big temporary per step (x + y, a stencil's interior)
// then stops paying the kernel's page zeroing for every one.
#pragma once

#include <Python.h>

#include <cstdint>
#include <vector>

#include "jit/region.h"

namespace npy::numpy_shim {

// A new array of `shape` and `dtype` for a kernel's results, C-contiguous
// or with `strides` (bytes, a permutation of contiguous ones:
// result_layout.h); nullptr with a Python error set when NumPy fails. Data big enough to be
// pooled comes from the pool (the handler is set for the call: two
// context-variable sets, some thousands of instructions); smaller data
// would come from malloc either way, so NumPy's own handler makes it.
PyObject* new_output_array(const jit::Shape& shape, jit::DType dtype, const jit::Dims& strides = {});

}  // namespace npy::numpy_shim
