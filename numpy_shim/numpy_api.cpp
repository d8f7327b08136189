#include "numpy_shim/numpy_api.h"

#define PY_ARRAY_UNIQUE_SYMBOL npy_numpy_shim_ARRAY_API
#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#include <numpy/arrayobject.h>

#include <cstdint>

#include "numpy_shim/inner_loops.h"

namespace npy::numpy_shim {

PyTypeObject* g_ndarray_type = nullptr;

namespace {

// False while NumPy is in sys.modules but still importing itself.
bool load_api_if_numpy_imported(PyObject* modules) {
  static PyObject* name = PyUnicode_InternFromString("numpy");
  static PyObject* spec_name = PyUnicode_InternFromString("__spec__");
  if (!name || !spec_name) return true;
  PyObject* numpy = PyDict_GetItemWithError(modules, name);  // borrowed
  if (!numpy) {
    PyErr_Clear();
    return true;
  }
  PyObject* spec = PyObject_GetAttr(numpy, spec_name);
  const int initializing = spec ? _PyModuleSpec_IsInitializing(spec) : -1;
  Py_XDECREF(spec);
  PyErr_Clear();
  if (initializing > 0) return false;
  if (initializing < 0) return true;
  if (_import_array() < 0) {
    PyErr_Clear();
    return true;
  }
  g_ndarray_type = &PyArray_Type;
  register_inner_loops(numpy);
  return true;
}

}  // namespace

bool is_numpy_scalar(PyObject* o) { return PyArray_IsScalar(o, Generic); }

void notice_numpy() {
  if (g_ndarray_type) return;
  // sys.modules is looked at again only after it changed, and never from
  // inside this function (NumPy's import runs frames that come back here).
  // While NumPy imports itself it is looked at every time: its import may
  // end with no change after the last one seen (a program's last import).
  static PyObject* modules = PyImport_GetModuleDict();  // the interpreter's, for good
  static std::uint64_t seen_version = 0;
  static bool busy = false;
  auto* dict = reinterpret_cast<PyDictObject*>(modules);
  if (busy || dict->ma_version_tag == seen_version) return;
  busy = true;
  const std::uint64_t version = dict->ma_version_tag;
  if (load_api_if_numpy_imported(modules)) seen_version = version;
  busy = false;
}

}  // namespace npy::numpy_shim
