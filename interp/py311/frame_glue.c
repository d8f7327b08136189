/* See frame_glue.h. Each function here reads or writes CPython 3.11's
 * private structures; upstream origin named where the logic mirrors one of
 * CPython's own (Python/ceval.c and Include/internal/). */
#define Py_BUILD_CORE 1
#define NEED_OPCODE_TABLES 1

#include "interp/frame_glue.h"

#include <Python.h>
#include <frameobject.h>

#include "internal/pycore_ceval.h"
#include "internal/pycore_dict.h"
#include "internal/pycore_frame.h"
#include "internal/pycore_interp.h"
#include "internal/pycore_moduleobject.h"
#include "internal/pycore_object.h"
#include "internal/pycore_opcode.h"
#include "internal/pycore_pystate.h"
#include "internal/pycore_runtime.h"

#if PY_MAJOR_VERSION != 3 || PY_MINOR_VERSION != 11
#error "npython's frame glue is written for CPython 3.11"
#endif

void npy_frame_fields_get(npy_frame *frame, npy_frame_fields *out) {
  out->code = frame->f_code;
  out->func = frame->f_func;
  out->globals = frame->f_globals;
  out->builtins = frame->f_builtins;
  out->locals = frame->f_locals;
  out->localsplus = frame->localsplus;
  out->current_instr = (npy_codeunit **)&frame->prev_instr;
  out->stacktop = &frame->stacktop;
}

/* Python/ceval.c, _PyEval_EvalFrameDefault's prologue. */
void npy_frame_enter(PyThreadState *tstate, npy_frame *frame, npy_frame_link *cframe) {
  _PyCFrame *prev = tstate->cframe;
  cframe->use_tracing = prev->use_tracing;
  cframe->previous = prev;
  tstate->cframe = cframe;
  frame->is_entry = true;
  frame->previous = prev->current_frame;
  cframe->current_frame = frame;
}

/* Python/ceval.c, the exits of _PyEval_EvalFrameDefault: tracing switched
 * on or off while the frame ran is handed to the caller's cframe. */
void npy_frame_leave(PyThreadState *tstate, npy_frame_link *cframe) {
  tstate->cframe = cframe->previous;
  tstate->cframe->use_tracing = cframe->use_tracing;
}

/* Python/ceval.c, start_frame: on failure the count is left as CPython
 * leaves it, for npy_leave_recursive_call to restore. */
int npy_enter_recursive_call(PyThreadState *tstate) {
  if (_Py_EnterRecursiveCallTstate(tstate, "")) {
    tstate->recursion_remaining--;
    return -1;
  }
  return 0;
}

void npy_leave_recursive_call(PyThreadState *tstate) { _Py_LeaveRecursiveCallTstate(tstate); }

/* The frame object is made by PyEval_GetFrame(), the exported way to
 * materialise the current frame's object. */
void npy_traceback_here(void) {
  /* PyEval_GetFrame() clears the error when it cannot allocate the frame
   * object: keep the exception being raised. */
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  PyFrameObject *f = PyEval_GetFrame();
  PyErr_Restore(type, value, traceback);
  if (f != NULL) {
    PyTraceBack_Here(f);
  }
}

static int line_of(PyCodeObject *code, int instr) {
  return PyCode_Addr2Line(code, instr * (int)sizeof(_Py_CODEUNIT));
}

/* Python/ceval.c: call_trace. */
static int call_trace(Py_tracefunc func, PyObject *obj, PyThreadState *tstate,
                      npy_frame *frame, int what, PyObject *arg) {
  if (tstate->tracing) {
    return 0;
  }
  PyFrameObject *f = PyEval_GetFrame();
  if (f == NULL || f->f_frame != frame) {
    return f == NULL ? -1 : 0;
  }
  int old_what = tstate->tracing_what;
  tstate->tracing_what = what;
  PyThreadState_EnterTracing(tstate);
  f->f_lineno = line_of(frame->f_code, _PyInterpreterFrame_LASTI(frame));
  int result = func(obj, f, what, arg);
  f->f_lineno = 0;
  PyThreadState_LeaveTracing(tstate);
  tstate->tracing_what = old_what;
  return result;
}

/* Python/ceval.c: call_trace_protected. */
static int call_trace_protected(Py_tracefunc func, PyObject *obj, PyThreadState *tstate,
                                npy_frame *frame, int what, PyObject *arg) {
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  int err = call_trace(func, obj, tstate, frame, what, arg);
  if (err == 0) {
    PyErr_Restore(type, value, traceback);
    return 0;
  }
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(traceback);
  return -1;
}

int npy_trace_line(PyThreadState *tstate, npy_frame *frame, int previous_instr) {
  if (tstate->c_tracefunc == NULL || tstate->tracing) {
    return 0;
  }
  PyCodeObject *code = frame->f_code;
  int lastline = previous_instr <= code->_co_firsttraceable ? -1 : line_of(code, previous_instr);
  int lasti = _PyInterpreterFrame_LASTI(frame);
  int line = line_of(code, lasti);
  PyFrameObject *f = PyEval_GetFrame();
  if (f == NULL) {
    return -1;
  }
  int result = 0;
  if (line != -1 && f->f_trace_lines) {
    /* A new line, or a jump backwards. */
    if (line != lastline || lasti < previous_instr) {
      result = call_trace(tstate->c_tracefunc, tstate->c_traceobj, tstate, frame, PyTrace_LINE,
                          Py_None);
    }
  }
  if (f->f_trace_opcodes && result == 0) {
    result = call_trace(tstate->c_tracefunc, tstate->c_traceobj, tstate, frame, PyTrace_OPCODE,
                        Py_None);
  }
  return result;
}

int npy_trace_return(PyThreadState *tstate, npy_frame *frame, PyObject *retval) {
  if (tstate->c_tracefunc != NULL &&
      call_trace_protected(tstate->c_tracefunc, tstate->c_traceobj, tstate, frame,
                           PyTrace_RETURN, retval)) {
    return -1;
  }
  if (tstate->c_profilefunc != NULL &&
      call_trace_protected(tstate->c_profilefunc, tstate->c_profileobj, tstate, frame,
                           PyTrace_RETURN, retval)) {
    return -1;
  }
  return 0;
}

void npy_trace_exception(PyThreadState *tstate, npy_frame *frame) {
  PyObject *type, *value, *orig_traceback;
  PyErr_Fetch(&type, &value, &orig_traceback);
  if (value == NULL) {
    value = Py_NewRef(Py_None);
  }
  PyErr_NormalizeException(&type, &value, &orig_traceback);
  PyObject *traceback = orig_traceback != NULL ? orig_traceback : Py_None;
  PyObject *arg = PyTuple_Pack(3, type, value, traceback);
  if (arg == NULL) {
    PyErr_Restore(type, value, orig_traceback);
    return;
  }
  int err = call_trace(tstate->c_tracefunc, tstate->c_traceobj, tstate, frame, PyTrace_EXCEPTION,
                       arg);
  Py_DECREF(arg);
  if (err == 0) {
    PyErr_Restore(type, value, orig_traceback);
  } else {
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(orig_traceback);
  }
}

/* Python/ceval.c: COMPUTE_EVAL_BREAKER, after an asynchronous exception is
 * taken. */
static void recompute_eval_breaker(PyInterpreterState *interp) {
  struct _ceval_runtime_state *ceval = &interp->runtime->ceval;
  struct _ceval_state *ceval2 = &interp->ceval;
  int main_thread = _Py_IsMainThread() && interp == _PyRuntime.interpreters.main;
  _Py_atomic_store_relaxed(
      &ceval2->eval_breaker,
      _Py_atomic_load_relaxed(&ceval2->gil_drop_request) |
          (_Py_atomic_load_relaxed(&ceval->signals_pending) && main_thread) |
          (_Py_atomic_load_relaxed(&ceval2->pending.calls_to_do) && main_thread) |
          ceval2->pending.async_exc);
}

/* Python/ceval.c: eval_frame_handle_pending, through exported calls:
 * Py_MakePendingCalls runs signal handlers and pending calls (main thread
 * only), and releasing and re-taking the thread state hands the GIL to the
 * thread that asked for it. */
int npy_handle_eval_breaker(PyThreadState *tstate) {
  PyInterpreterState *interp = tstate->interp;
  struct _ceval_runtime_state *ceval = &interp->runtime->ceval;
  struct _ceval_state *ceval2 = &interp->ceval;
  if (_Py_atomic_load_relaxed(&ceval->signals_pending) ||
      _Py_atomic_load_relaxed(&ceval2->pending.calls_to_do)) {
    if (Py_MakePendingCalls() != 0) {
      return -1;
    }
  }
  if (_Py_atomic_load_relaxed(&ceval2->gil_drop_request)) {
    PyEval_RestoreThread(PyEval_SaveThread());
  }
  if (tstate->async_exc != NULL) {
    PyObject *exc = tstate->async_exc;
    tstate->async_exc = NULL;
    ceval2->pending.async_exc = 0;
    recompute_eval_breaker(interp);
    PyErr_SetNone(exc);
    Py_DECREF(exc);
    return -1;
  }
  return 0;
}

PyObject *npy_instance_value(PyObject *obj, int index) {
  PyDictValues *values = *_PyObject_ValuesPointer(obj);
  return values == NULL ? NULL : values->values[index];
}

int npy_has_inline_values(PyObject *obj) { return *_PyObject_ValuesPointer(obj) != NULL; }

PyObject *npy_original_import_func(PyThreadState *tstate) { return tstate->interp->import_func; }

const uint8_t *npy_base_opcodes(void) { return _PyOpcode_Deopt; }

const uint8_t *npy_inline_cache_units(void) { return _PyOpcode_Caches; }

PyCodeObject *npy_frame_code(npy_frame *frame) { return frame->f_code; }

const volatile npy_eval_breaker_word *npy_eval_breaker(PyThreadState *tstate) {
  return (const volatile int *)&tstate->interp->ceval.eval_breaker._value;
}

const volatile int *npy_signals_pending(void) {
  return (const volatile int *)&_PyRuntime.ceval.signals_pending._value;
}
