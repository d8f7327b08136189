// What interp/evaluator.cpp does alike under CPython 3.12 and 3.13
// (included by each one's evaluator_version.h): helpers over their public
// structures, and the dispatch loop's tracing hooks.
#pragma once

#include <Python.h>
#include <opcode.h>

#include "interp/frame_glue.h"

namespace npy::interp::version {

// PyErr_Occurred() for the thread state at hand.
inline bool error_set(PyThreadState* tstate) { return tstate->current_exception != nullptr; }

// `o` is an exact int of at most one digit and not negative: its value.
inline bool small_nonnegative_int(PyObject* o, Py_ssize_t* value) {
  if (!PyLong_CheckExact(o) || !PyUnstable_Long_IsCompact(reinterpret_cast<PyLongObject*>(o))) return false;
  *value = PyUnstable_Long_CompactValue(reinterpret_cast<PyLongObject*>(o));
  return *value >= 0;
}

// An exact int CPython's specialised comparisons take (COMPARE_OP_INT).
inline bool is_compact_int(PyObject* o) { return PyUnstable_Long_IsCompact(reinterpret_cast<PyLongObject*>(o)); }

// CPython specialises comparisons wherever they are.
inline bool comparison_specializes(int) { return true; }

// CALL_INTRINSIC_1 and CALL_INTRINSIC_2's arguments that npython's
// evaluator runs itself (Include/internal/pycore_intrinsics.h).
enum Intrinsic1 { kIntrinsicPrint = 1, kIntrinsicImportStar = 2, kIntrinsicUnaryPositive = 5, kIntrinsicListToTuple = 6 };
enum Intrinsic2 { kIntrinsicPrepReraiseStar = 1 };

// Whether a base instruction with its argument is `from module import *`.
inline bool imports_star(int base_opcode, int oparg) {
  return base_opcode == CALL_INTRINSIC_1 && oparg == kIntrinsicImportStar;
}

// Whether a base instruction ends the frame with a return.
inline bool returns(int base_opcode) { return base_opcode == RETURN_VALUE || base_opcode == RETURN_CONST; }

inline Py_ssize_t request_code_extra_index(freefunc free) { return PyUnstable_Eval_RequestCodeExtraIndex(free); }
inline int get_code_extra(PyObject* code, Py_ssize_t index, void** extra) {
  return PyUnstable_Code_GetExtra(code, index, extra);
}
inline int set_code_extra(PyObject* code, Py_ssize_t index, void* extra) {
  return PyUnstable_Code_SetExtra(code, index, extra);
}

// Whether sys.settrace, sys.setprofile or a sys.monitoring tool is in force.
inline bool tracing(PyThreadState* tstate) { return npy_tracing(tstate) != 0; }

// Whether the code's instrumentation is sys.monitoring's current one.
inline bool instrumentation_current(PyThreadState* tstate, PyCodeObject* code) {
  return npy_code_instrumentation_current(tstate, code) != 0;
}

}  // namespace npy::interp::version

// Tracers and sys.monitoring work by instrumenting code (INSTRUMENTED_*
// instructions): a frame that meets such an instruction goes on in
// CPython's evaluator, which sends the events. Nothing to check per
// instruction, no events of npython's own.
#define NPY_VERSION_TRACING() false
#define NPY_VERSION_TRACING_CHECK() static_cast<void>(0)
#define NPY_VERSION_TRACE_EXCEPTION() static_cast<void>(0)
// A frame that ends with an exception is unwound and cleared by CPython's
// evaluator (which clears the frames it ends).
#define NPY_VERSION_RETURN_EXCEPTION() return npy_unwind_in_cpython(tstate, frame)
