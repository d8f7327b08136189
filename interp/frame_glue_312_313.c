/* See frame_glue.h: the part of the frame glue whose source is the same
 * under CPython 3.12 and 3.13, whose evaluators end the frames they run
 * (npython's evaluator ends each frame in CPython's: npy_resume_in_cpython,
 * npy_unwind_in_cpython) and whose tools instrument code (sys.monitoring).
 * Compiled with the version's own private headers, beside that version's
 * interp/py3XX/frame_glue.c. */
#define Py_BUILD_CORE 1

#include "interp/frame_glue.h"

#include <Python.h>
#include <frameobject.h>
#include <opcode.h>

#include "internal/pycore_ceval.h"
#include "internal/pycore_code.h"
#include "internal/pycore_frame.h"
#include "internal/pycore_interp.h"
#include "internal/pycore_pystate.h"
#include "internal/pycore_runtime.h"

#if PY_VERSION_HEX < 0x030C0000 || PY_VERSION_HEX >= 0x030E0000
#error "this frame glue is written for CPython 3.12 and 3.13"
#endif

/* The Python recursion limit as CPython's evaluator keeps it for each frame
 * (Python/ceval.c: _Py_EnterRecursivePy, _Py_CheckRecursiveCallPy). */
int npy_enter_recursive_call(PyThreadState *tstate) {
  if (tstate->py_recursion_remaining-- > 0) {
    return 0;
  }
  if (tstate->recursion_headroom) {
    if (tstate->py_recursion_remaining < -50) {
      Py_FatalError("Cannot recover from Python stack overflow.");
    }
    return 0;
  }
  tstate->recursion_headroom++;
  PyErr_SetString(PyExc_RecursionError, "maximum recursion depth exceeded");
  tstate->recursion_headroom--;
  return -1;
}

void npy_leave_recursive_call(PyThreadState *tstate) { tstate->py_recursion_remaining++; }

void npy_traceback_here(void) {
  /* PyEval_GetFrame() clears the error when it cannot allocate the frame
   * object: keep the exception being raised. */
  PyObject *exc = PyErr_GetRaisedException();
  PyFrameObject *f = PyEval_GetFrame();
  PyErr_SetRaisedException(exc);
  if (f != NULL) {
    PyTraceBack_Here(f);
  }
}

int npy_tracing(PyThreadState *tstate) {
  PyInterpreterState *interp = tstate->interp;
  if (interp->sys_tracing_threads || interp->sys_profiling_threads) {
    return 1;
  }
  for (int e = 0; e < _PY_MONITORING_UNGROUPED_EVENTS; e++) {
    if (interp->monitors.tools[e]) {
      return 1;
    }
  }
  return 0;
}

PyObject *npy_resume_in_cpython(PyThreadState *tstate, npy_frame *frame, int throwflag) {
  return _PyEval_EvalFrameDefault(tstate, frame, throwflag);
}

PyObject *npy_unwind_in_cpython(PyThreadState *tstate, npy_frame *frame) {
  /* CPython's evaluator adds the frame to the traceback as it takes the
   * exception; npython's already did where python3 does: its entry goes. */
  PyObject *exc = PyErr_GetRaisedException();
  PyObject *traceback = exc != NULL ? PyException_GetTraceback(exc) : NULL;
  PyErr_SetRaisedException(exc);
  PyObject *result = _PyEval_EvalFrameDefault(tstate, frame, 1);
  PyObject *after = PyErr_GetRaisedException();
  if (after != NULL && after == exc) {
    PyException_SetTraceback(after, traceback != NULL ? traceback : Py_None);
  }
  PyErr_SetRaisedException(after);
  Py_XDECREF(traceback);
  return result;
}

int npy_instruction_start(PyCodeObject *code, int index) {
  /* co_code as CPython would give it: base instructions, no instrumentation,
   * caches zeroed, so that instructions are found by their sizes alone. */
  PyObject *bytes = PyCode_GetCode(code);
  if (bytes == NULL) {
    PyErr_Clear();
    return index;
  }
  const _Py_CODEUNIT *units = (const _Py_CODEUNIT *)PyBytes_AS_STRING(bytes);
  const int count = (int)(PyBytes_GET_SIZE(bytes) / (Py_ssize_t)sizeof(_Py_CODEUNIT));
  int start = 0;
  for (int i = 0; i < count;) {
    const int op = units[i].op.code;
    if (i >= index) {
      break;
    }
    i += 1 + (op == EXTENDED_ARG ? 0 : npy_inline_cache_units()[op]);
    if (op != EXTENDED_ARG) {
      start = i;
    }
  }
  Py_DECREF(bytes);
  return start;
}

PyObject *npy_original_import_func(PyThreadState *tstate) { return tstate->interp->imports.import_func; }
