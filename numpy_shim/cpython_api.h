// CPython functions that npython calls (here and in interp/) and that the
// supported versions spell differently, or declare only in their internal
// headers while libpython still exports them (3.13 moved these out of the
// public headers). The one place where such spellings differ by version;
// the private structures themselves are read only by interp's frame glue.
#pragma once

#include <Python.h>

#if PY_VERSION_HEX >= 0x030D0000
extern "C" {
// Include/internal/pycore_object.h, pycore_call.h, pycore_dict.h,
// pycore_list.h, pycore_setobject.h, pycore_unicodeobject.h (all PyAPI_FUNC).
PyAPI_FUNC(int) _PyObject_GetMethod(PyObject* obj, PyObject* name, PyObject** method);
PyAPI_FUNC(PyObject*) _Py_CheckFunctionResult(PyThreadState* tstate, PyObject* callable, PyObject* result,
                                              const char* where);
PyAPI_FUNC(PyObject*) _PyObject_MakeTpCall(PyThreadState* tstate, PyObject* callable, PyObject* const* args,
                                           Py_ssize_t nargs, PyObject* keywords);
PyAPI_FUNC(int) _PyDict_MergeEx(PyObject* mp, PyObject* other, int override);
PyAPI_FUNC(PyObject*) _PyList_Extend(PyListObject* list, PyObject* iterable);
PyAPI_FUNC(int) _PySet_Update(PyObject* set, PyObject* iterable);
PyAPI_FUNC(PyObject*) _PyUnicode_JoinArray(PyObject* separator, PyObject* const* items, Py_ssize_t seqlen);
PyAPI_FUNC(PyObject*) _PyDict_NewPresized(Py_ssize_t minused);
}
#endif

namespace npy::cpython {

// Whether the interpreter is shutting down.
inline bool is_finalizing() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing() != 0;
#else
  return _Py_IsFinalizing() != 0;
#endif
}

// PyLong_AsInt (3.13), _PyLong_AsInt before.
inline int long_as_int(PyObject* value) {
#if PY_VERSION_HEX >= 0x030D0000
  return PyLong_AsInt(value);
#else
  return _PyLong_AsInt(value);
#endif
}

// obj.name into *result, or NULL there without an exception when obj has
// no such attribute: 1, 0, or -1 with an exception set.
inline int get_optional_attr(PyObject* obj, PyObject* name, PyObject** result) {
#if PY_VERSION_HEX >= 0x030D0000
  return PyObject_GetOptionalAttr(obj, name, result);
#else
  return _PyObject_LookupAttr(obj, name, result);
#endif
}

// Whether a module's spec (may be NULL) says the module is still importing
// itself (importlib sets spec._initializing meanwhile); errors count as no.
inline bool spec_initializing(PyObject* spec) {
  static PyObject* const flag_name = PyUnicode_InternFromString("_initializing");
  PyObject* flag = nullptr;
  int initializing = spec && flag_name ? get_optional_attr(spec, flag_name, &flag) : -1;
  if (flag) {
    initializing = PyObject_IsTrue(flag);
    Py_DECREF(flag);
  }
  if (initializing < 0) PyErr_Clear();
  return initializing > 0;
}

}  // namespace npy::cpython
