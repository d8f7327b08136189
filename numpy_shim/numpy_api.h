// NumPy's C API for numpy_shim, available once the program has imported
// NumPy (npython never imports it on a program's behalf).
#pragma once

#include <Python.h>

namespace npy::numpy_shim {

// NumPy's ndarray type, or nullptr while NumPy is not loaded.
extern PyTypeObject* g_ndarray_type;

// Loads NumPy's C API if the program has imported NumPy and it is not loaded
// yet. Cheap when already done. Never raises.
void notice_numpy();

// A NumPy scalar (np.float64(1), np.uint8(3), ...). NumPy must be loaded.
bool is_numpy_scalar(PyObject* o);

}  // namespace npy::numpy_shim
