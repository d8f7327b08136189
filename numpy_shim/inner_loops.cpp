#include "numpy_shim/inner_loops.h"

#define PY_ARRAY_UNIQUE_SYMBOL npy_numpy_shim_ARRAY_API
#define NO_IMPORT_ARRAY
#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#include <numpy/arrayobject.h>
#include <numpy/ufuncobject.h>

#include <cstring>

#include "jit/numpy_loops.h"
#include "numpy_shim/numpy_dtypes.h"
#include "numpy_shim/py_ref.h"

namespace npy::numpy_shim {
namespace {

// The loop of `ufunc` whose operands and results are all `type_num`.
jit::NumpyLoop loop_of(PyUFuncObject* ufunc, int type_num) {
  for (int i = 0; i < ufunc->ntypes; ++i) {
    const char* types = ufunc->types + static_cast<std::ptrdiff_t>(i) * ufunc->nargs;
    bool all = true;
    for (int k = 0; k < ufunc->nargs; ++k) all = all && types[k] == type_num;
    if (all) return {reinterpret_cast<jit::NumpyInnerLoop>(ufunc->functions[i]), ufunc->data[i]};
  }
  return {};
}

}  // namespace

jit::NumpyLoop inner_loop_of(PyObject* ufunc, int type_num) {
  if (!ufunc || std::strcmp(Py_TYPE(ufunc)->tp_name, "numpy.ufunc") != 0) return {};
  return loop_of(reinterpret_cast<PyUFuncObject*>(ufunc), type_num);
}

void register_inner_loops(PyObject* numpy) {
  for (int i = 0; i < jit::kOpCount; ++i) {
    const auto op = static_cast<jit::Op>(i);
    const jit::OpInfo& info = jit::op_info(op);
    if (!info.numpy_loop) continue;
    // A part of a complex function's value (exp_real): that function's
    // complex128 loop, which kernels call on float64 parts.
    const char* complex_function = jit::complex_function_of(op);
    PyRef ufunc(PyObject_GetAttrString(numpy, complex_function ? complex_function : info.name));
    if (!ufunc || std::strcmp(Py_TYPE(ufunc.get())->tp_name, "numpy.ufunc") != 0) {
      PyErr_Clear();
      continue;
    }
    auto* u = reinterpret_cast<PyUFuncObject*>(ufunc.get());
    if (u->nin != (complex_function ? 1 : info.arity) || u->nout != 1) continue;
    if (complex_function) {
      jit::set_numpy_loop(op, jit::DType::kFloat64, loop_of(u, NPY_CDOUBLE));
      continue;
    }
    for (jit::DType dtype : jit::kLoopTypes) jit::set_numpy_loop(op, dtype, loop_of(u, typenum_of(dtype)));
  }
}

}  // namespace npy::numpy_shim
