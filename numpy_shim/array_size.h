// The number of elements of an array, multiplied out inline: PyArray_SIZE
// is a call through NumPy's API table, too slow for the checks made on
// every operation of small-array code. Needs NumPy's C API headers
// included first (numpy/arrayobject.h).
#pragma once

namespace npy::numpy_shim {

inline npy_intp element_count(PyArrayObject* array) {
  const npy_intp* dims = PyArray_DIMS(array);
  npy_intp count = 1;
  for (int i = 0; i < PyArray_NDIM(array); ++i) count *= dims[i];
  return count;
}

}  // namespace npy::numpy_shim
