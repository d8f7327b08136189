/* See frame_glue.h. Each function here reads or writes CPython 3.12's
 * private structures; where the logic mirrors CPython's own, the place in
 * Python/ceval.c or Include/internal/ is named.
 *
 * 3.12's evaluator, not its caller, clears and pops a frame when the frame
 * ends, with functions libpython does not export. So npython's evaluator
 * ends every frame in CPython's: it resumes the frame at its return
 * instruction, or with the exception that leaves it (npy_resume_in_cpython,
 * npy_unwind_in_cpython). */
#define Py_BUILD_CORE 1
#define NEED_OPCODE_TABLES 1

#include "interp/frame_glue.h"

#include <Python.h>
#include <frameobject.h>

#include "internal/pycore_ceval.h"
#include "internal/pycore_code.h"
#include "internal/pycore_dict.h"
#include "internal/pycore_frame.h"
#include "internal/pycore_interp.h"
#include "internal/pycore_moduleobject.h"
#include "internal/pycore_object.h"
#include "internal/pycore_opcode.h"
#include "internal/pycore_pystate.h"
#include "internal/pycore_runtime.h"

#if PY_MAJOR_VERSION != 3 || PY_MINOR_VERSION != 12
#error "this frame glue is written for CPython 3.12"
#endif

void npy_frame_fields_get(npy_frame *frame, npy_frame_fields *out) {
  out->code = frame->f_code;
  out->func = (PyFunctionObject *)frame->f_funcobj;
  out->globals = frame->f_globals;
  out->builtins = frame->f_builtins;
  out->locals = frame->f_locals;
  out->localsplus = frame->localsplus;
  out->prev_instr = &frame->prev_instr;
  out->stacktop = &frame->stacktop;
}

/* Python/ceval.c, _PyEval_EvalFrameDefault's prologue, without its entry
 * frame: the frame becomes the thread's current one. */
void npy_frame_enter(PyThreadState *tstate, npy_frame *frame, _PyCFrame *cframe) {
  _PyCFrame *prev = tstate->cframe;
  cframe->previous = prev;
  tstate->cframe = cframe;
  frame->previous = prev->current_frame;
  cframe->current_frame = frame;
}

void npy_frame_leave(PyThreadState *tstate, _PyCFrame *cframe) { tstate->cframe = cframe->previous; }

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

int npy_code_instrumentation_current(PyThreadState *tstate, PyCodeObject *code) {
  return code->_co_instrumentation_version == tstate->interp->monitoring_version;
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
    i += 1 + (op == EXTENDED_ARG ? 0 : _PyOpcode_Caches[op]);
    if (op != EXTENDED_ARG) {
      start = i;
    }
  }
  Py_DECREF(bytes);
  return start;
}

/* What the eval breaker signals is handled by CPython's evaluator itself:
 * a function whose code it runs (with no frame hook while it does) checks
 * the breaker at its RESUME (Python/ceval.c: _Py_HandlePending): signal
 * handlers, pending calls, the GIL handed over, an asynchronous exception,
 * and the cycle collector when it is due. */
static PyObject *g_pending_runner;

static PyObject *make_pending_runner(void) {
  PyObject *globals = PyDict_New();
  if (globals == NULL) {
    return NULL;
  }
  PyObject *builtins = PyEval_GetBuiltins();
  PyObject *result = NULL;
  if (builtins != NULL && PyDict_SetItemString(globals, "__builtins__", builtins) == 0) {
    result = PyRun_String("def npython_pending_calls(): pass\n", Py_file_input, globals, globals);
  }
  PyObject *runner = NULL;
  if (result != NULL) {
    runner = PyDict_GetItemString(globals, "npython_pending_calls");
    Py_XINCREF(runner);
    Py_DECREF(result);
  }
  Py_DECREF(globals);
  return runner;
}

int npy_handle_eval_breaker(PyThreadState *tstate) {
  /* A signal that came on another thread sets signals_pending alone. */
  if (_Py_atomic_load_relaxed(&_PyRuntime.ceval.signals_pending) && _Py_IsMainThread() &&
      tstate->interp == _PyInterpreterState_Main()) {
    if (Py_MakePendingCalls() != 0) {
      return -1;
    }
  }
  if (!_Py_atomic_load_relaxed(&tstate->interp->ceval.eval_breaker)) {
    return 0;
  }
  PyInterpreterState *interp = tstate->interp;
  _PyFrameEvalFunction hook = interp->eval_frame;
  interp->eval_frame = NULL;
  if (g_pending_runner == NULL) {
    g_pending_runner = make_pending_runner();
  }
  PyObject *result = g_pending_runner != NULL ? PyObject_CallNoArgs(g_pending_runner) : NULL;
  interp->eval_frame = hook;
  if (result == NULL) {
    /* Raised as the frame that checks: the runner's frame is no part of
     * the program's traceback. */
    PyObject *exc = PyErr_GetRaisedException();
    if (exc != NULL) {
      PyException_SetTraceback(exc, Py_None);
    }
    PyErr_SetRaisedException(exc);
    return -1;
  }
  Py_DECREF(result);
  return 0;
}

PyObject *npy_instance_value(PyObject *obj, int index) {
  PyDictOrValues dorv = *_PyObject_DictOrValuesPointer(obj);
  return _PyDictOrValues_IsValues(dorv) ? _PyDictOrValues_GetValues(dorv)->values[index] : NULL;
}

int npy_has_inline_values(PyObject *obj) {
  return _PyDictOrValues_IsValues(*_PyObject_DictOrValuesPointer(obj));
}

PyObject *npy_original_import_func(PyThreadState *tstate) { return tstate->interp->imports.import_func; }

const uint8_t *npy_base_opcodes(void) { return _PyOpcode_Deopt; }

const uint8_t *npy_inline_cache_units(void) { return _PyOpcode_Caches; }
