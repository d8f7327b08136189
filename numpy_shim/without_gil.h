// Compiled work run with the GIL let go, as NumPy lets it go around its
// loops of more than 500 elements (NPY_BEGIN_THREADS_THRESHOLDED), so that
// other Python threads run meanwhile. The work must touch no Python object:
// it reads and writes the memory of arrays this thread keeps alive.
#pragma once

#include <Python.h>

#include <cstdint>

namespace npy::numpy_shim {

constexpr std::int64_t kMinElementsWithoutGil = 500;

// Not an RAII guard on purpose: should a daemon thread take the GIL back
// while the interpreter finalizes, CPython ends it with pthread_exit, whose
// unwinding would have to pass through a destructor (and terminate there).
template <class Work>
auto without_gil(std::int64_t elements, Work&& work) {
  PyThreadState* saved = elements > kMinElementsWithoutGil ? PyEval_SaveThread() : nullptr;
  auto result = work();
  if (saved) PyEval_RestoreThread(saved);
  return result;
}

}  // namespace npy::numpy_shim
