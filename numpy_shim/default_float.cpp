#include "numpy_shim/default_float.h"

#include <cstring>
#include <vector>

#include "numpy_shim/numpy_api.h"
#include "numpy_shim/vocabulary.h"

namespace npy::numpy_shim {
namespace {

bool g_float32 = false;

// When the default float decides the result's type.
enum class Rule : unsigned char {
  kAlways,     // float64 unless a dtype is named
  kFloatFill,  // np.full: when the fill value is a float
  kFloatArgs,  // np.arange: when a bound or the step is a float
};

struct Creation {
  const char* name;
  int dtype_position;  // where a positional dtype would be
  Rule rule;
};

const Creation kCreations[] = {
    {"zeros", 1, Rule::kAlways},    {"ones", 1, Rule::kAlways},     {"empty", 1, Rule::kAlways},
    {"identity", 1, Rule::kAlways}, {"eye", 3, Rule::kAlways},      {"linspace", 5, Rule::kAlways},
    {"full", 2, Rule::kFloatFill},  {"arange", 3, Rule::kFloatArgs},
};

// A Python float or np.float64 (its subclass): NumPy makes float64 of it.
bool is_float(PyObject* o) { return PyFloat_Check(o); }
// An int (Python's or NumPy's) or such a float.
bool is_real(PyObject* o) { return PyIndex_Check(o) || PyFloat_Check(o); }

const Creation* creation_of(PyObject* callable) {
  for (const Creation& c : kCreations) {
    if (numpy_attr(c.name) == callable) return &c;
  }
  return nullptr;
}

}  // namespace

void set_default_float32(bool on) { g_float32 = on; }
bool default_float32() { return g_float32; }

PyObject* call_with_default_float(PyObject* callable, PyObject* const* args, Py_ssize_t nargs,
                                  PyObject* kwnames) {
  if (!g_float32 || !g_ndarray_type) return nullptr;  // NumPy not loaded yet
  const Creation* c = creation_of(callable);
  if (!c || nargs > c->dtype_position) return nullptr;
  const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t i = 0; i < nkw; ++i) {
    if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, i), "dtype") == 0) return nullptr;
  }
  switch (c->rule) {
    case Rule::kAlways:
      // linspace between complex numbers is complex: left alone.
      if (std::strcmp(c->name, "linspace") == 0 && (nargs < 2 || !is_real(args[0]) || !is_real(args[1]))) {
        return nullptr;
      }
      break;
    case Rule::kFloatFill:
      if (nargs < 2 || !is_float(args[1])) return nullptr;
      break;
    case Rule::kFloatArgs: {
      bool any_float = false;
      for (Py_ssize_t i = 0; i < nargs; ++i) any_float = any_float || is_float(args[i]);
      for (Py_ssize_t i = 0; i < nkw; ++i) any_float = any_float || is_float(args[nargs + i]);
      if (!any_float) return nullptr;
      break;
    }
  }
  PyObject* float32 = numpy_attr("float32");
  if (!float32) return nullptr;
  std::vector<PyObject*> call_args(args, args + nargs + nkw);
  call_args.push_back(float32);
  PyObject* names = PyTuple_New(nkw + 1);
  if (!names) return nullptr;
  for (Py_ssize_t i = 0; i < nkw; ++i) PyTuple_SET_ITEM(names, i, Py_NewRef(PyTuple_GET_ITEM(kwnames, i)));
  PyObject* dtype = PyUnicode_FromString("dtype");
  if (!dtype) {
    Py_DECREF(names);
    return nullptr;
  }
  PyTuple_SET_ITEM(names, nkw, dtype);
  PyObject* result = PyObject_Vectorcall(callable, call_args.data(), static_cast<size_t>(nargs), names);
  Py_DECREF(names);
  return result;
}

}  // namespace npy::numpy_shim
