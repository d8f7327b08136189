/* See frame_glue.h. Each function here reads or writes CPython 3.13's
 * private structures; where the logic mirrors CPython's own, the place in
 * Python/ceval.c or Include/internal/ is named. What reads the same as under
 * 3.12 is in interp/frame_glue_312_313.c.
 *
 * As under 3.12, CPython's evaluator, not its caller, clears and pops a
 * frame when the frame ends, so npython's evaluator ends every frame in
 * CPython's. 3.13's frames keep the instruction to run next (instr_ptr)
 * where 3.12's kept the one before it, and no _PyCFrame chain links them. */
#define Py_BUILD_CORE 1
#define NEED_OPCODE_METADATA 1

#include "interp/frame_glue.h"

#include <Python.h>
#include <frameobject.h>

#include "internal/pycore_ceval.h"
#include "internal/pycore_code.h"
#include "internal/pycore_dict.h"
#include "internal/pycore_frame.h"
#include "internal/pycore_interp.h"
#include "internal/pycore_object.h"
#include "internal/pycore_opcode_metadata.h"
#include "internal/pycore_pystate.h"
#include "internal/pycore_runtime.h"

#if PY_MAJOR_VERSION != 3 || PY_MINOR_VERSION != 13
#error "this frame glue is written for CPython 3.13"
#endif

_Static_assert(NPY_EVAL_BREAKER_EVENTS == _PY_EVAL_EVENTS_MASK, "frame_glue.h's eval breaker mask");

void npy_frame_fields_get(npy_frame *frame, npy_frame_fields *out) {
  out->code = _PyFrame_GetCode(frame);
  out->func = (PyFunctionObject *)frame->f_funcobj;
  out->globals = frame->f_globals;
  out->builtins = frame->f_builtins;
  out->locals = frame->f_locals;
  out->localsplus = frame->localsplus;
  out->current_instr = (npy_codeunit **)&frame->instr_ptr;
  out->stacktop = &frame->stacktop;
}

PyCodeObject *npy_frame_code(npy_frame *frame) { return _PyFrame_GetCode(frame); }

/* Python/ceval.c, _PyEval_EvalFrameDefault's prologue, without its entry
 * frame: the frame becomes the thread's current one. */
void npy_frame_enter(PyThreadState *tstate, npy_frame *frame, npy_frame_link *link) {
  link->previous = tstate->current_frame;
  frame->previous = tstate->current_frame;
  tstate->current_frame = frame;
}

void npy_frame_leave(PyThreadState *tstate, npy_frame_link *link) { tstate->current_frame = link->previous; }

/* Python/bytecodes.c, RESUME: the code's version against the one the
 * thread's eval breaker carries above its event bits. */
int npy_code_instrumentation_current(PyThreadState *tstate, PyCodeObject *code) {
  const uintptr_t global_version = _Py_atomic_load_uintptr_relaxed(&tstate->eval_breaker) & ~_PY_EVAL_EVENTS_MASK;
  return code->_co_instrumentation_version == global_version;
}

/* Signals, pending calls, the GIL handed over, an asynchronous exception
 * and a due collection, as CPython's evaluator handles them. A signal sets
 * the main thread's eval breaker whichever thread the handler ran on. */
int npy_handle_eval_breaker(PyThreadState *tstate) {
  if ((_Py_atomic_load_uintptr_relaxed(&tstate->eval_breaker) & _PY_EVAL_EVENTS_MASK) == 0) {
    return 0;
  }
  return _Py_HandlePending(tstate);
}

PyObject *npy_instance_value(PyObject *obj, int index) {
  if (!(Py_TYPE(obj)->tp_flags & Py_TPFLAGS_INLINE_VALUES)) {
    return NULL;
  }
  PyDictValues *values = _PyObject_InlineValues(obj);
  return values->valid ? values->values[index] : NULL;
}

int npy_has_inline_values(PyObject *obj) {
  return (Py_TYPE(obj)->tp_flags & Py_TPFLAGS_INLINE_VALUES) && _PyObject_InlineValues(obj)->valid;
}

const uint8_t *npy_base_opcodes(void) { return _PyOpcode_Deopt; }

const uint8_t *npy_inline_cache_units(void) { return _PyOpcode_Caches; }

const volatile npy_eval_breaker_word *npy_eval_breaker(PyThreadState *tstate) { return &tstate->eval_breaker; }

const volatile int *npy_signals_pending(void) { return &_PyRuntime.signals.is_tripped; }
