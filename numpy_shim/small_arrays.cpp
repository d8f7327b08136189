#include "numpy_shim/small_arrays.h"

#include <opcode.h>

#include <cfenv>
#include <cmath>
#include <optional>

#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL npy_numpy_shim_ARRAY_API
#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#include <numpy/arrayobject.h>

#include "common/stats.h"
#include "jit/backend.h"
#include "jit/cpu_driver.h"
#include "numpy_shim/array_size.h"
#include "numpy_shim/numpy_api.h"
#include "numpy_shim/numpy_dtypes.h"
#include "numpy_shim/tracer.h"
#include "numpy_shim/vocabulary.h"

namespace npy::numpy_shim {
namespace {

using jit::Op;

constexpr int kFpFlags = jit::kNumpyFpFlags;

bool is_small_float64(PyObject* o) {
  if (Py_TYPE(o) != g_ndarray_type) return false;
  auto* a = reinterpret_cast<PyArrayObject*>(o);
  return PyArray_TYPE(a) == NPY_DOUBLE && PyArray_NDIM(a) >= 1 && element_count(a) < kMinTracedElements &&
         PyArray_CHKFLAGS(a, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED) && PyArray_ISNOTSWAPPED(a) &&
         !PyDataType_METADATA(PyArray_DESCR(a));  // results keep it
}

// An operand: an array's elements, or a Python number as NumPy converts it
// next to a float64 array (NEP 50).
struct Operand {
  PyArrayObject* array = nullptr;
  const double* data = nullptr;
  double number = 0;
};

bool operand(PyObject* o, Operand& out) {
  if (is_small_float64(o)) {
    out.array = reinterpret_cast<PyArrayObject*>(o);
    out.data = static_cast<const double*>(PyArray_DATA(out.array));
    return true;
  }
  if (PyFloat_CheckExact(o)) {
    out.number = PyFloat_AS_DOUBLE(o);
    return true;
  }
  if (PyLong_CheckExact(o)) {
    const std::optional<long long> v = python_int64(o);
    if (!v) return false;
    out.number = static_cast<double>(*v);  // rounded to nearest, as PyLong_AsDouble does for NumPy
    return true;
  }
  return false;
}

// Whether there is a backend for this CPU.
bool available() {
  static const bool here = jit::cpu_backend() != nullptr;
  return here;
}

PyArrayObject* new_like(PyArrayObject* a) {
  PyObject* out = PyArray_NewFromDescr(g_ndarray_type, PyArray_DescrFromType(NPY_DOUBLE), PyArray_NDIM(a),
                                       PyArray_DIMS(a), nullptr, nullptr, 0, nullptr);
  if (!out) PyErr_Clear();  // NumPy will fail the same way and say so
  return reinterpret_cast<PyArrayObject*>(out);
}

void count_call() {
  static Counter& calls = counter("jit.small_array_calls");
  calls.add_serialized();
}

// The result, or nullptr (and none) where the work raised a flag.
PyObject* unless_flags_raised(PyArrayObject* out) {
  if (std::fetestexcept(kFpFlags)) {
    Py_DECREF(out);
    return nullptr;
  }
  count_call();
  return reinterpret_cast<PyObject*>(out);
}

template <typename F>
void each(double* out, const Operand& a, const Operand& b, npy_intp n, F f) {
  if (a.data && b.data) {
    for (npy_intp i = 0; i < n; ++i) out[i] = f(a.data[i], b.data[i]);
  } else if (a.data) {
    for (npy_intp i = 0; i < n; ++i) out[i] = f(a.data[i], b.number);
  } else {
    for (npy_intp i = 0; i < n; ++i) out[i] = f(a.number, b.data[i]);
  }
}

PyObject* binary(Op op, PyObject* lhs, PyObject* rhs) {
  Operand a, b;
  if (!operand(lhs, a) || !operand(rhs, b) || !(a.array || b.array) || !available()) return nullptr;
  PyArrayObject* shape_of = a.array ? a.array : b.array;
  if (a.array && b.array) {  // one shape: NumPy broadcasts the rest
    if (PyArray_NDIM(a.array) != PyArray_NDIM(b.array)) return nullptr;
    for (int d = 0; d < PyArray_NDIM(a.array); ++d) {
      if (PyArray_DIM(a.array, d) != PyArray_DIM(b.array, d)) return nullptr;
    }
  }
  switch (op) {
    case Op::add: case Op::subtract: case Op::multiply: case Op::divide: case Op::maximum: case Op::minimum: break;
    default: return nullptr;
  }
  PyArrayObject* out = new_like(shape_of);
  if (!out) return nullptr;
  double* r = static_cast<double*>(PyArray_DATA(out));
  const npy_intp n = element_count(shape_of);
  std::feclearexcept(kFpFlags);
  switch (op) {
    case Op::add: each(r, a, b, n, [](double x, double y) { return x + y; }); break;
    case Op::subtract: each(r, a, b, n, [](double x, double y) { return x - y; }); break;
    case Op::multiply: each(r, a, b, n, [](double x, double y) { return x * y; }); break;
    case Op::divide: each(r, a, b, n, [](double x, double y) { return x / y; }); break;
    // NumPy's (as the kernels', x86's max and min but a NaN x first): y
    // where x == y (-0.0 against 0.0), x where x is NaN. The compiler's
    // vector compares raise the invalid flag on NaNs, so arrays with NaNs
    // go to NumPy.
    case Op::maximum: each(r, a, b, n, [](double x, double y) { return x > y || std::isnan(x) ? x : y; }); break;
    case Op::minimum: each(r, a, b, n, [](double x, double y) { return x < y || std::isnan(x) ? x : y; }); break;
    default: break;
  }
  return unless_flags_raised(out);
}

PyObject* unary(Op op, PyObject* operand) {
  if (!is_small_float64(operand) || !available()) return nullptr;
  auto* a = reinterpret_cast<PyArrayObject*>(operand);
  switch (op) {
    case Op::sqrt: case Op::absolute: case Op::negative: break;
    default: return nullptr;
  }
  PyArrayObject* out = new_like(a);
  if (!out) return nullptr;
  const double* x = static_cast<const double*>(PyArray_DATA(a));
  double* r = static_cast<double*>(PyArray_DATA(out));
  const npy_intp n = element_count(a);
  std::feclearexcept(kFpFlags);
  switch (op) {
    case Op::sqrt: for (npy_intp i = 0; i < n; ++i) r[i] = std::sqrt(x[i]); break;
    case Op::absolute: for (npy_intp i = 0; i < n; ++i) r[i] = std::fabs(x[i]); break;
    case Op::negative: for (npy_intp i = 0; i < n; ++i) r[i] = -x[i]; break;
    default: break;
  }
  return unless_flags_raised(out);
}

// a.sum() and a.mean() over every element, as NumPy adds them.
PyObject* reduce(Op op, PyObject* operand) {
  if (!adds(op) || !is_small_float64(operand) || !available()) return nullptr;
  auto* a = reinterpret_cast<PyArrayObject*>(operand);
  const npy_intp n = element_count(a);
  if (op == Op::mean && n == 0) return nullptr;  // NumPy warns of the empty slice
  std::feclearexcept(kFpFlags);
  double value = 0.0 + jit::pairwise_sum(static_cast<const double*>(PyArray_DATA(a)), n);
  if (op == Op::mean) value = value / static_cast<double>(n);
  if (std::fetestexcept(kFpFlags)) return nullptr;
  PyArray_Descr* descr = PyArray_DescrFromType(NPY_DOUBLE);
  PyObject* scalar = PyArray_Scalar(&value, descr, nullptr);
  Py_DECREF(descr);
  if (!scalar) {
    PyErr_Clear();
    return nullptr;
  }
  count_call();
  return scalar;
}

Op operator_op(int op) {
  switch (op) {
    case NB_ADD: return Op::add;
    case NB_SUBTRACT: return Op::subtract;
    case NB_MULTIPLY: return Op::multiply;
    case NB_TRUE_DIVIDE: return Op::divide;
    default: return Op::input;
  }
}

}  // namespace

PyObject* small_binary_operator(int op, PyObject* lhs, PyObject* rhs) {
  const Op o = operator_op(op);
  return o == Op::input ? nullptr : binary(o, lhs, rhs);
}

PyObject* small_negative(PyObject* operand) { return unary(Op::negative, operand); }

PyObject* small_call(PyObject* callable, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  if (kwnames || nargs < 1 || nargs > 2) return nullptr;
  if (Py_TYPE(args[0]) != g_ndarray_type && (nargs == 1 || Py_TYPE(args[1]) != g_ndarray_type)) return nullptr;
  const VocabularyEntry entry = lookup_callable(callable);
  switch (entry.form) {
    case CallForm::kUfunc:
      if (jit::op_info(entry.op).arity != nargs) return nullptr;
      return nargs == 1 ? unary(entry.op, args[0]) : binary(entry.op, args[0], args[1]);
    case CallForm::kReduce:
    case CallForm::kReduceMethod: return nargs == 1 ? reduce(entry.op, args[0]) : nullptr;
    default: return nullptr;
  }
}

}  // namespace npy::numpy_shim
