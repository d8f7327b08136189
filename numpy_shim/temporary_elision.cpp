#include "numpy_shim/temporary_elision.h"

#include <opcode.h>

#include <cstring>

#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL npy_numpy_shim_ARRAY_API
#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#include <numpy/arrayobject.h>

#include "numpy_shim/array_size.h"
#include "numpy_shim/tracer.h"

namespace npy::numpy_shim {
namespace {

// NumPy's own threshold: below it a new allocation is cheaper than the check.
constexpr npy_intp kMinElideBytes = 256 * 1024;
// Elided arrays have kinds b, i, u, f, c, of at most 16 bytes an element:
// all are large enough to be traced (see may_elide).
static_assert(kMinElideBytes / 16 >= kMinTracedElements);

struct InPlaceOp {
  binaryfunc in_place;
  // Dtype kinds of a target for which the operator's output type is the
  // operands' common type: on the left, and on the right for the operators
  // NumPy takes as commutative, computing `rhs op= lhs` (so that a complex
  // product, whose SIMD rounding need not be the same both ways, is
  // NumPy's).
  const char* left_kinds;
  const char* right_kinds;
};

InPlaceOp in_place_op(int op) {
  switch (op) {
    case NB_ADD: return {PyNumber_InPlaceAdd, "biufc", "biufc"};
    case NB_MULTIPLY: return {PyNumber_InPlaceMultiply, "biufc", "biufc"};
    case NB_SUBTRACT: return {PyNumber_InPlaceSubtract, "iufc", ""};
    case NB_TRUE_DIVIDE: return {PyNumber_InPlaceTrueDivide, "fc", ""};
    case NB_AND: return {PyNumber_InPlaceAnd, "biu", "biu"};
    case NB_OR: return {PyNumber_InPlaceOr, "biu", "biu"};
    case NB_XOR: return {PyNumber_InPlaceXor, "biu", "biu"};
    default: return {nullptr, "", ""};
  }
}

// An array only the evaluator's stack refers to, whose memory may be
// overwritten without anyone seeing it.
// An array only the evaluator's stack refers to, large enough for NumPy to
// elide it: looked at first, since most operands are not.
bool is_large_temporary(PyObject* obj) {
  if (Py_REFCNT(obj) != 1 || Py_TYPE(obj) != g_ndarray_type) return false;
  auto* array = reinterpret_cast<PyArrayObject*>(obj);
  return element_count(array) * PyArray_ITEMSIZE(array) >= kMinElideBytes;
}

// A large temporary whose memory may be overwritten without anyone seeing it.
bool is_unshared_temporary(PyObject* obj, const char* kinds) {
  if (!is_large_temporary(obj)) return false;
  auto* array = reinterpret_cast<PyArrayObject*>(obj);
  return std::strchr(kinds, PyArray_DESCR(array)->kind) && PyArray_CHKFLAGS(array, NPY_ARRAY_OWNDATA) &&
         PyArray_ISWRITEABLE(array) && !PyArray_CHKFLAGS(array, NPY_ARRAY_WRITEBACKIFCOPY);
}

// Whether `target <op>= other` computes what `target <op> other` would, for
// an operator whose output type is its operands' common type: the other
// operand is an exact array of the same shape (or 0-d) or a Python number,
// and the common type is the target's own (np.result_type, which knows
// NumPy 2's rules for Python scalars).
int same_result_in_place(PyObject* target, PyObject* other) {
  auto* array = reinterpret_cast<PyArrayObject*>(target);
  if (Py_TYPE(other) == g_ndarray_type) {
    auto* o = reinterpret_cast<PyArrayObject*>(other);
    if (PyArray_NDIM(o) != 0 &&
        (PyArray_NDIM(o) != PyArray_NDIM(array) ||
         !PyArray_CompareLists(PyArray_DIMS(o), PyArray_DIMS(array), PyArray_NDIM(o)))) {
      return 0;
    }
  } else if (!PyFloat_CheckExact(other) && !PyLong_CheckExact(other) && !PyBool_Check(other) &&
             !PyComplex_CheckExact(other)) {
    return 0;
  }
  static PyObject* result_type = [] {
    PyObject* numpy = PyImport_ImportModule("numpy");
    PyObject* fn = numpy ? PyObject_GetAttrString(numpy, "result_type") : nullptr;
    Py_XDECREF(numpy);
    return fn;  // kept for the life of the process
  }();
  if (!result_type) return -1;
  PyObject* args[] = {target, other};
  PyObject* dtype = PyObject_Vectorcall(result_type, args, 2, nullptr);
  if (!dtype) return -1;
  const int same = PyObject_RichCompareBool(dtype, reinterpret_cast<PyObject*>(PyArray_DESCR(array)), Py_EQ);
  Py_DECREF(dtype);
  return same;
}

// binary_op_into_temporary once an operand may be elided; out of line, so
// that the check alone stays cheap.
[[gnu::noinline]] PyObject* elide_binary_op(int op, PyObject* lhs, PyObject* rhs, bool lhs_free, bool rhs_free) {
  const InPlaceOp in_place = in_place_op(op);
  if (!in_place.in_place) return nullptr;
  PyObject* target = nullptr;
  PyObject* other = nullptr;
  if (lhs_free && is_unshared_temporary(lhs, in_place.left_kinds)) {
    target = lhs;
    other = rhs;
  } else if (rhs_free && is_unshared_temporary(rhs, in_place.right_kinds)) {
    target = rhs;
    other = lhs;
  } else {
    return nullptr;
  }
  const int same = same_result_in_place(target, other);
  if (same < 0) {
    // Deciding failed: leave the operation to NumPy, which reports its own errors.
    PyErr_Clear();
    return nullptr;
  }
  if (!same) return nullptr;
  return in_place.in_place(target, other);
}

}  // namespace

bool elides_into(int op, bool left, char kind, std::int64_t bytes) {
  const InPlaceOp in_place = in_place_op(op);
  return in_place.in_place && std::strchr(left ? in_place.left_kinds : in_place.right_kinds, kind) &&
         bytes >= kMinElideBytes;
}

PyObject* binary_op_into_temporary(int op, PyObject* lhs, PyObject* rhs, bool lhs_free, bool rhs_free) {
  if (!(lhs_free && is_large_temporary(lhs)) && !(rhs_free && is_large_temporary(rhs))) return nullptr;
  return elide_binary_op(op, lhs, rhs, lhs_free, rhs_free);
}

PyObject* unary_op_into_temporary(UnaryOp op, PyObject* operand) {
  // negative keeps the dtype of numbers but not of bool (an error);
  // invert keeps bool and integer dtypes.
  if (!is_unshared_temporary(operand, op == UnaryOp::kNegative ? "iufc" : "biu")) return nullptr;
  static PyObject* ufuncs[2] = {nullptr, nullptr};
  PyObject*& ufunc = ufuncs[static_cast<int>(op)];
  if (!ufunc) {
    PyObject* numpy = PyImport_ImportModule("numpy");
    ufunc = numpy ? PyObject_GetAttrString(numpy, op == UnaryOp::kNegative ? "negative" : "invert")
                  : nullptr;  // kept for the life of the process
    Py_XDECREF(numpy);
    if (!ufunc) {
      PyErr_Clear();
      return nullptr;
    }
  }
  static PyObject* out_kwname = PyUnicode_InternFromString("out");
  static PyObject* kwnames = PyTuple_Pack(1, out_kwname);
  if (!kwnames) {
    PyErr_Clear();
    return nullptr;
  }
  PyObject* args[] = {operand, operand};  // ufunc(x, out=x)
  return PyObject_Vectorcall(ufunc, args, 1, kwnames);
}

}  // namespace npy::numpy_shim
