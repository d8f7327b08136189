#include "numpy_shim/numpy_api.h"

#include "numpy_shim/cpython_api.h"

#define PY_ARRAY_UNIQUE_SYMBOL npy_numpy_shim_ARRAY_API
#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#include <numpy/arrayobject.h>

#include <cstdint>
#include <string>

#include "jit/trace_log.h"
#include "numpy_shim/inner_loops.h"

namespace npy::numpy_shim {

PyTypeObject* g_ndarray_type = nullptr;

namespace {

// NumPy's C API did not load, or the NumPy is older than 2.0 (the exception
// set says which): the program runs on with NumPy alone, and npython says
// why.
void note_unsupported_numpy(PyObject* numpy) {
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  PyObject* text = value ? PyObject_Str(value) : nullptr;
  PyObject* version = PyObject_GetAttrString(numpy, "__version__");
  const char* message = text ? PyUnicode_AsUTF8(text) : nullptr;
  const char* number = version && PyUnicode_Check(version) ? PyUnicode_AsUTF8(version) : nullptr;
  PyErr_Clear();
  jit::note_stepped_aside(std::string("NumPy ") + (number ? number : "(version unknown)") +
                          " is not one npython runs with, so NumPy runs every operation itself (" +
                          (message ? message : "its C API did not load") + ")");
  Py_XDECREF(text);
  Py_XDECREF(version);
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(traceback);
}

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
  if (!spec) {
    PyErr_Clear();
    return true;
  }
  const bool initializing = cpython::spec_initializing(spec);
  Py_DECREF(spec);
  if (initializing) return false;
  if (_import_array() < 0) {
    note_unsupported_numpy(numpy);
    return true;
  }
  // NumPy 1.x loads the API, but its rules (value-based casting of Python
  // scalars, among others) are not the ones regions follow.
  if (PyArray_GetNDArrayCFeatureVersion() < NPY_2_0_API_VERSION) {
    PyErr_SetString(PyExc_ImportError, "npython needs NumPy 2.0 or later");
    note_unsupported_numpy(numpy);
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
  // The dict's version tag (PEP 509) changes with the dict. CPython 3.12
  // deprecates the field for 3.14, where it goes; it is kept up to date.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  const std::uint64_t version = dict->ma_version_tag;
#pragma GCC diagnostic pop
  if (busy || version == seen_version) return;
  busy = true;
  if (load_api_if_numpy_imported(modules)) seen_version = version;
  busy = false;
}

}  // namespace npy::numpy_shim
