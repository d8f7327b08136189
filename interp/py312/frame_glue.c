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
  out->current_instr = (npy_codeunit **)&frame->prev_instr;
  out->stacktop = &frame->stacktop;
}

/* Python/ceval.c, _PyEval_EvalFrameDefault's prologue, without its entry
 * frame: the frame becomes the thread's current one. */
void npy_frame_enter(PyThreadState *tstate, npy_frame *frame, npy_frame_link *cframe) {
  _PyCFrame *prev = tstate->cframe;
  cframe->previous = prev;
  tstate->cframe = cframe;
  frame->previous = prev->current_frame;
  cframe->current_frame = frame;
}

void npy_frame_leave(PyThreadState *tstate, npy_frame_link *cframe) { tstate->cframe = cframe->previous; }




int npy_code_instrumentation_current(PyThreadState *tstate, PyCodeObject *code) {
  return code->_co_instrumentation_version == tstate->interp->monitoring_version;
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


const uint8_t *npy_base_opcodes(void) { return _PyOpcode_Deopt; }

const uint8_t *npy_inline_cache_units(void) { return _PyOpcode_Caches; }

PyCodeObject *npy_frame_code(npy_frame *frame) { return frame->f_code; }

const volatile npy_eval_breaker_word *npy_eval_breaker(PyThreadState *tstate) {
  return (const volatile int *)&tstate->interp->ceval.eval_breaker._value;
}

const volatile int *npy_signals_pending(void) {
  return (const volatile int *)&_PyRuntime.ceval.signals_pending._value;
}
