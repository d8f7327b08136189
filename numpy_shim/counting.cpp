#include "numpy_shim/counting.h"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <optional>

#include "common/stats.h"
#include "jit/backend.h"
#include "jit/host.h"
#include "numpy_shim/py_ref.h"
#include "numpy_shim/trace.h"
#include "numpy_shim/without_gil.h"

#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL npy_numpy_shim_ARRAY_API
#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#include <numpy/arrayobject.h>

#include "numpy_shim/numpy_dtypes.h"

namespace npy::numpy_shim {
namespace {

// The call's arguments by parameter: positional ones in `names` order, then
// keywords, of all but the first `positional_only` (unset: nullptr). False
// where there are more, or one is unknown or given twice (NumPy says so).
template <std::size_t N>
bool bind(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, std::size_t positional_only,
          const char* const (&names)[N], PyObject* (&bound)[N]) {
  std::fill(bound, bound + N, nullptr);
  if (nargs > static_cast<Py_ssize_t>(N)) return false;
  for (Py_ssize_t i = 0; i < nargs; ++i) bound[i] = args[i];
  const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    PyObject* name = PyTuple_GET_ITEM(kwnames, k);
    std::size_t at = N;
    for (std::size_t i = positional_only; i < N; ++i) {
      if (PyUnicode_CompareWithASCIIString(name, names[i]) == 0) at = i;
    }
    if (at == N || bound[at]) return false;
    bound[at] = args[nargs + k];
  }
  return true;
}

// What a lazy argument stands for, computed; any other argument itself.
// A new reference; nullptr with an exception where the region failed.
PyRef value_of(PyObject* o, const Location& where) {
  if (!is_lazy(o)) return PyRef(Py_NewRef(o));
  return PyRef(materialize(o, Reason::k_counting, where, nullptr));
}

// An ndarray of one dimension, aligned, of native byte order, as the
// backend reads it.
struct Values {
  const char* data = nullptr;
  std::int64_t count = 0;
  std::int64_t step = 0;
  jit::DType dtype = jit::DType::kFloat64;
};
std::optional<Values> values_of(PyObject* o) {
  if (Py_TYPE(o) != &PyArray_Type) return std::nullopt;
  auto* a = reinterpret_cast<PyArrayObject*>(o);
  if (PyArray_NDIM(a) != 1 || !PyArray_ISALIGNED(a)) return std::nullopt;
  const std::optional<jit::DType> dtype = plain_dtype(PyArray_DESCR(a));
  if (!dtype) return std::nullopt;
  return Values{static_cast<const char*>(PyArray_DATA(a)), PyArray_DIM(a, 0), PyArray_STRIDE(a, 0), *dtype};
}

void count_run() {
  static Counter& runs = counter("jit.bin_counts");
  runs.add();
}

// np.bincount(x, minlength=0), without weights.
PyObject* bincount(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, const Location& where) {
  static const char* const kNames[] = {"x", "weights", "minlength"};
  PyObject* bound[3];
  if (!bind(args, nargs, kwnames, 1, kNames, bound) || !bound[0]) return nullptr;
  // With weights, NumPy's loop adds them one after another, in the order
  // their sums must keep: nothing to gain.
  if (bound[1] && bound[1] != Py_None) return nullptr;
  std::int64_t minlength = 0;
  if (bound[2]) {
    if (!PyLong_CheckExact(bound[2])) return nullptr;
    const std::optional<long long> m = python_int64(bound[2]);
    if (!m || *m < 0) return nullptr;
    minlength = *m;
  }
  jit::Backend* backend = jit::cpu_backend();
  if (!backend) return nullptr;
  const PyRef x = value_of(bound[0], where);
  if (!x) return nullptr;
  const std::optional<Values> values = values_of(x.get());
  // On one thread, NumPy's loop is this one (and its call costs less).
  if (!values || values->count < jit::kMinParallelWork || !backend->counts_values_of(values->dtype)) return nullptr;
  std::int64_t least = 0, greatest = 0;
  without_gil(values->count, [&] {
    backend->value_range(values->data, values->count, values->step, values->dtype, least, greatest);
    return 0;
  });
  // NumPy's ValueError, or its MemoryError.
  if (least < 0 || greatest >= std::int64_t{1} << 62) return nullptr;
  npy_intp bins = std::max<std::int64_t>(greatest + 1, minlength);
  PyObject* out = PyArray_SimpleNew(1, &bins, NPY_INTP);
  if (!out) {
    PyErr_Clear();  // NumPy's own MemoryError
    return nullptr;
  }
  auto* result = static_cast<std::int64_t*>(PyArray_DATA(reinterpret_cast<PyArrayObject*>(out)));
  without_gil(values->count, [&] {
    backend->count_bins(values->data, values->count, values->step, values->dtype, bins, result);
    return 0;
  });
  count_run();
  return out;
}

// NumPy's own helpers of np.histogram (borrowed; nullptr when this NumPy
// has none): they check the arguments as np.histogram does and make its
// edges.
PyObject* histogram_helper(const char* name) {
  static PyObject* module = [] {
    PyObject* m = PyImport_ImportModule("numpy.lib._histograms_impl");
    if (!m) {
      PyErr_Clear();
      m = PyImport_ImportModule("numpy.lib.histograms");
    }
    if (!m) PyErr_Clear();
    return m;
  }();
  if (!module) return nullptr;
  PyObject* f = PyObject_GetAttrString(module, name);
  if (!f) PyErr_Clear();
  Py_XDECREF(f);  // the module keeps it
  return f;
}

// np.histogram(a, bins=10, range=None, density=None, weights=None) of
// float64 values into a number of equal bins, without density.
PyObject* histogram(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, const Location& where) {
  static const char* const kNames[] = {"a", "bins", "range", "density", "weights"};
  PyObject* bound[5];
  if (!bind(args, nargs, kwnames, 0, kNames, bound) || !bound[0]) return nullptr;
  if (!bound[1] || !PyLong_CheckExact(bound[1])) return nullptr;
  if (bound[3] && bound[3] != Py_None && bound[3] != Py_False) return nullptr;
  static PyObject* ravel_and_check = histogram_helper("_ravel_and_check_weights");
  static PyObject* bin_edges_of = histogram_helper("_get_bin_edges");
  jit::Backend* backend = jit::cpu_backend();
  if (!ravel_and_check || !bin_edges_of || !backend) return nullptr;
  const PyRef a = value_of(bound[0], where);
  if (!a) return nullptr;
  if (Py_TYPE(a.get()) != &PyArray_Type || PyArray_TYPE(reinterpret_cast<PyArrayObject*>(a.get())) != NPY_DOUBLE ||
      PyArray_SIZE(reinterpret_cast<PyArrayObject*>(a.get())) == 0) {
    return nullptr;
  }
  const bool weighted = bound[4] && bound[4] != Py_None;
  const PyRef w = weighted ? value_of(bound[4], where) : PyRef(Py_NewRef(Py_None));
  if (!w) return nullptr;
  if (weighted && (Py_TYPE(w.get()) != &PyArray_Type ||
                   PyArray_TYPE(reinterpret_cast<PyArrayObject*>(w.get())) != NPY_DOUBLE)) {
    return nullptr;
  }
  // NumPy's checks and edges; any error is NumPy's call's to raise.
  const PyRef raveled(PyObject_CallFunctionObjArgs(ravel_and_check, a.get(), w.get(), nullptr));
  if (!raveled || !PyTuple_Check(raveled.get()) || PyTuple_GET_SIZE(raveled.get()) != 2) {
    PyErr_Clear();
    return nullptr;
  }
  PyObject* flat = PyTuple_GET_ITEM(raveled.get(), 0);
  PyObject* flat_weights = PyTuple_GET_ITEM(raveled.get(), 1);
  const PyRef edges_and_bins(PyObject_CallFunctionObjArgs(bin_edges_of, flat, bound[1],
                                                          bound[2] ? bound[2] : Py_None, flat_weights, nullptr));
  if (!edges_and_bins || !PyTuple_Check(edges_and_bins.get()) || PyTuple_GET_SIZE(edges_and_bins.get()) != 2) {
    PyErr_Clear();
    return nullptr;
  }
  PyObject* edges = PyTuple_GET_ITEM(edges_and_bins.get(), 0);
  PyObject* uniform = PyTuple_GET_ITEM(edges_and_bins.get(), 1);
  if (!PyTuple_Check(uniform) || PyTuple_GET_SIZE(uniform) != 3 || Py_TYPE(edges) != &PyArray_Type) return nullptr;
  auto* edge_array = reinterpret_cast<PyArrayObject*>(edges);
  const double first = PyFloat_AsDouble(PyTuple_GET_ITEM(uniform, 0));
  const double last = PyFloat_AsDouble(PyTuple_GET_ITEM(uniform, 1));
  const long long bins = PyLong_AsLongLong(PyTuple_GET_ITEM(uniform, 2));
  if (PyErr_Occurred()) {
    PyErr_Clear();
    return nullptr;
  }
  const std::optional<Values> values = values_of(flat);
  std::optional<Values> weights;
  if (weighted) weights = values_of(flat_weights);
  const bool float64_weights = !weighted || (weights && weights->dtype == jit::DType::kFloat64);
  if (!values || values->dtype != jit::DType::kFloat64 || !float64_weights ||
      bins < 1 || PyArray_TYPE(edge_array) != NPY_DOUBLE || !PyArray_IS_C_CONTIGUOUS(edge_array) ||
      PyArray_NDIM(edge_array) != 1 || PyArray_DIM(edge_array, 0) != bins + 1) {
    return nullptr;
  }
  npy_intp shape = bins;
  PyRef counts(PyArray_SimpleNew(1, &shape, weighted ? NPY_DOUBLE : NPY_INTP));
  if (!counts) {
    PyErr_Clear();
    return nullptr;
  }
  const auto* edge_values = static_cast<const double*>(PyArray_DATA(edge_array));
  auto* result = static_cast<char*>(PyArray_DATA(reinterpret_cast<PyArrayObject*>(counts.get())));
  const int ran = without_gil(values->count, [&] {
    return backend->equal_bins(values->data, values->count, values->step, weighted ? weights->data : nullptr,
                               weighted ? weights->step : 0, first, last, edge_values, bins, result);
  });
  if (ran < 0) return nullptr;  // a flag NumPy reports: its call recomputes it
  count_run();
  return PyTuple_Pack(2, counts.get(), edges);
}

}  // namespace

PyObject* count_into_bins(CallForm form, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames,
                          const Location& where) {
  return form == CallForm::kBincount ? bincount(args, nargs, kwnames, where) : histogram(args, nargs, kwnames, where);
}

}  // namespace npy::numpy_shim
