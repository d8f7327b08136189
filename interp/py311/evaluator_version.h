// What interp/evaluator.cpp does its own way under CPython 3.11: small
// helpers over the version's public structures, and the dispatch loop's
// tracing hooks (macros over the loop's locals). The version's own
// instructions are in version_handlers.inc beside this file.
#pragma once

#include <Python.h>
#include <opcode.h>

#include "interp/layout_311_312.h"

namespace npy::interp::version {

// PyErr_Occurred() for the thread state at hand.
inline bool error_set(PyThreadState* tstate) { return tstate->curexc_type != nullptr; }

// `o` is an exact int of at most one digit and not negative: its value.
inline bool small_nonnegative_int(PyObject* o, Py_ssize_t* value) {
  if (!PyLong_CheckExact(o) || static_cast<std::size_t>(Py_SIZE(o)) > 1) return false;
  *value = reinterpret_cast<PyLongObject*>(o)->ob_digit[0] * Py_SIZE(o);
  return true;
}

// An exact int CPython's specialised comparisons take (one digit at most).
inline bool is_compact_int(PyObject* o) { return Py_ABS(Py_SIZE(o)) <= 1; }

// CPython 3.11 specialises a comparison only where a conditional jump
// takes its result (COMPARE_OP_*_JUMP).
inline bool comparison_specializes(int next_opcode) {
  return next_opcode == POP_JUMP_FORWARD_IF_FALSE || next_opcode == POP_JUMP_FORWARD_IF_TRUE ||
         next_opcode == POP_JUMP_BACKWARD_IF_FALSE || next_opcode == POP_JUMP_BACKWARD_IF_TRUE;
}

// COMPARE_OP's comparison (Py_LT...) from its argument.
inline int comparison_of(int oparg) { return oparg; }

// Whether a base instruction with its argument is `from module import *`.
inline bool imports_star(int base_opcode, int) { return base_opcode == IMPORT_STAR; }

// Whether a base instruction ends the frame with a return.
inline bool returns(int base_opcode) { return base_opcode == RETURN_VALUE; }

inline Py_ssize_t request_code_extra_index(freefunc free) { return _PyEval_RequestCodeExtraIndex(free); }
inline int get_code_extra(PyObject* code, Py_ssize_t index, void** extra) {
  return _PyCode_GetExtra(code, index, extra);
}
inline int set_code_extra(PyObject* code, Py_ssize_t index, void* extra) {
  return _PyCode_SetExtra(code, index, extra);
}

// Whether sys.settrace or sys.setprofile is in force for the thread.
inline bool tracing(PyThreadState* tstate) { return tstate->cframe->use_tracing; }

// 3.11 instruments no code (tracing is seen at each dispatch instead).
inline bool instrumentation_current(PyThreadState*, PyCodeObject*) { return true; }

}  // namespace npy::interp::version

// Tracing switched on while a frame runs is seen at each dispatch (3.11's
// evaluator checks its cframe's use_tracing there), and the frame then
// sends the line, exception and return events CPython's evaluator would.
#define NPY_VERSION_TRACING() (link.use_tracing)
#define NPY_VERSION_TRACING_CHECK() \
  do {                              \
    if (NPY_UNLIKELY(link.use_tracing)) goto trace_and_dispatch; \
  } while (0)
#define NPY_VERSION_TRACE_EXCEPTION()                  \
  do {                                                 \
    if (tstate->c_tracefunc) {                         \
      *f.stacktop = static_cast<int>(sp - localsplus); \
      npy_trace_exception(tstate, frame);              \
      *f.stacktop = -1;                                \
    }                                                  \
  } while (0)
// A frame that ends with an exception returns NULL to the caller, which
// clears it (3.11's _PyEval_Vector).
#define NPY_VERSION_RETURN_EXCEPTION() return nullptr
