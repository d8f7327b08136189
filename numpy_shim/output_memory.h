// Memory for the arrays kernels write: NumPy's own allocator interface
// (PyDataMem_Handler), so that such an array is an ordinary NumPy array that
// owns its data, but large buffers go back to a pool when the array dies and
// the next output of a similar size reuses them, pages already mapped. A
// program that makes a big temporary per step (x + y, a stencil's interior)
// then stops paying the kernel's page zeroing for every one.
#pragma once

#include <Python.h>

namespace npy::numpy_shim {

// While alive, arrays NumPy allocates take their data from the pool.
class PooledOutputs {
 public:
  PooledOutputs();
  ~PooledOutputs();
  PooledOutputs(const PooledOutputs&) = delete;
  PooledOutputs& operator=(const PooledOutputs&) = delete;

 private:
  PyObject* previous_ = nullptr;  // NumPy's handler before (owned)
};

}  // namespace npy::numpy_shim
