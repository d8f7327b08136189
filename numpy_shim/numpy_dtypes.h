// NumPy's type numbers for the region dtypes (jit/dtype.h), in one table.
// Needs NumPy's C API headers included first (numpy/arrayobject.h).
#pragma once

#include <optional>

#include "jit/dtype.h"

namespace npy::numpy_shim {

// Listed in jit::DType's order; int64 and uint64 are C long on the 64-bit
// Linux npython builds for (NumPy's default integer there).
inline constexpr int kTypeNumOf[] = {NPY_BOOL,   NPY_BYTE, NPY_SHORT, NPY_INT,   NPY_LONG,  NPY_UBYTE,
                                     NPY_USHORT, NPY_UINT, NPY_ULONG, NPY_FLOAT, NPY_DOUBLE, NPY_CDOUBLE};

inline int typenum_of(jit::DType t) { return kTypeNumOf[static_cast<int>(t)]; }

// NumPy's kind character of a region dtype (b, i, u, f).
inline char kind_of(jit::DType t) {
  PyArray_Descr* descr = PyArray_DescrFromType(typenum_of(t));
  const char kind = descr->kind;
  Py_DECREF(descr);
  return kind;
}

// The real region dtype of a type number: complex values are recorded as
// their parts (tracer.cpp), never as operands of their own.
inline std::optional<jit::DType> dtype_of_typenum(int type_num) {
  for (int i = 0; i <= static_cast<int>(jit::DType::kFloat64); ++i) {
    if (kTypeNumOf[i] == type_num) return static_cast<jit::DType>(i);
  }
  return std::nullopt;
}

// The region dtype a NumPy dtype is, where a region's results can stand
// for NumPy's: native byte order and no metadata (results made in the
// region would have neither).
inline std::optional<jit::DType> plain_dtype(const PyArray_Descr* descr) {
  if (!PyArray_ISNBO(descr->byteorder) || PyDataType_METADATA(descr)) return std::nullopt;
  return dtype_of_typenum(descr->type_num);
}

// The value of an exact Python int `o` NumPy takes as an int64 (beyond
// int64 it takes the int another way: uint64, float or object).
inline std::optional<long long> python_int64(PyObject* o) {
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
  if (overflow || (v == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    return std::nullopt;
  }
  return v;
}

}  // namespace npy::numpy_shim
