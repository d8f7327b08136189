/* See frame_glue.h. Each function here reads or writes CPython 3.11's
 * private structures; upstream origin named where the logic mirrors one of
 * CPython's own (Python/ceval.c and Include/internal/). */
#define Py_BUILD_CORE 1
#define NEED_OPCODE_TABLES 1

#include "interp/frame_glue.h"

#include <Python.h>
#include <frameobject.h>

#include "internal/pycore_frame.h"
#include "internal/pycore_interp.h"
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
  out->prev_instr = &frame->prev_instr;
  out->stacktop = &frame->stacktop;
}

/* Python/ceval.c, _PyEval_EvalFrameDefault's prologue. */
void npy_frame_enter(PyThreadState *tstate, npy_frame *frame, _PyCFrame *cframe) {
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
void npy_frame_leave(PyThreadState *tstate, _PyCFrame *cframe) {
  tstate->cframe = cframe->previous;
  tstate->cframe->use_tracing = cframe->use_tracing;
}

#include "internal/pycore_ceval.h"

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

int npy_frame_is_incomplete(npy_frame *frame) { return _PyFrame_IsIncomplete(frame); }

int npy_frame_owned_by_generator(npy_frame *frame) {
  return frame->owner == FRAME_OWNED_BY_GENERATOR;
}

/* The frame object is made by PyEval_GetFrame(), the exported way to
 * materialise the current frame's object. */
void npy_traceback_here(void) {
  PyFrameObject *f = PyEval_GetFrame();
  if (f != NULL) {
    PyTraceBack_Here(f);
  }
}

const volatile int *npy_eval_breaker(PyThreadState *tstate) {
  return (const volatile int *)&tstate->interp->ceval.eval_breaker._value;
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

uint8_t npy_base_opcode(uint8_t opcode) { return _PyOpcode_Deopt[opcode]; }

uint8_t npy_inline_cache_units(uint8_t base_opcode) { return _PyOpcode_Caches[base_opcode]; }

PyObject *npy_original_import_func(PyThreadState *tstate) { return tstate->interp->import_func; }
