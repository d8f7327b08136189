/* The only part of npython that knows the layout of CPython's private
 * frame and interpreter structures (Include/internal/pycore_frame.h,
 * pycore_interp.h, pycore_opcode.h), behind a plain C interface: one
 * implementation per CPython version (interp/py311/frame_glue.c,
 * interp/py312/frame_glue.c, interp/py313/frame_glue.c; the build picks the
 * one for its Python), and interp/frame_glue_shared.c for what reads alike
 * in every version. */
#ifndef NPY_INTERP_FRAME_GLUE_H
#define NPY_INTERP_FRAME_GLUE_H

#include <Python.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct _PyInterpreterFrame npy_frame;

/* A code unit of a code object: an instruction's opcode and argument, or
 * an inline cache entry (3.13 declares _Py_CODEUNIT only in its internal
 * headers; the layout is the same). */
#if PY_VERSION_HEX >= 0x030D0000
typedef union {
  uint16_t cache;
  struct {
    uint8_t code;
    uint8_t arg;
  } op;
} npy_codeunit;
#define NPY_CODE_UNITS(code) ((npy_codeunit *)(code)->co_code_adaptive)
#define NPY_OPCODE(unit) ((unit).op.code)
#define NPY_OPARG(unit) ((unit).op.arg)
#else
typedef _Py_CODEUNIT npy_codeunit;
#define NPY_CODE_UNITS(code) _PyCode_CODE(code)
#define NPY_OPCODE(unit) _Py_OPCODE(unit)
#define NPY_OPARG(unit) _Py_OPARG(unit)
#endif

/* What npython's evaluator links on the C stack for each frame it runs, as
 * CPython's evaluator does (3.11, 3.12: the thread's _PyCFrame chain; 3.13:
 * the thread's current frame alone), and the word of the eval breaker. */
#if PY_VERSION_HEX >= 0x030D0000
typedef struct {
  npy_frame *previous;
} npy_frame_link;
typedef uintptr_t npy_eval_breaker_word;
#define NPY_EVAL_BREAKER_EVENTS ((npy_eval_breaker_word)0xff) /* _PY_EVAL_EVENTS_MASK */
#else
typedef _PyCFrame npy_frame_link;
typedef int npy_eval_breaker_word;
#define NPY_EVAL_BREAKER_EVENTS (~(npy_eval_breaker_word)0)
#endif

/* Pointers into a frame, fetched once when evaluation of the frame starts. */
typedef struct {
  PyCodeObject *code;
  PyFunctionObject *func;
  PyObject *globals;
  PyObject *builtins;
  PyObject *locals;           /* NULL for function frames */
  PyObject **localsplus;      /* fast locals, cells, free variables, then the value stack */
  npy_codeunit **current_instr;  /* the instruction being executed (3.11, 3.12: prev_instr; 3.13: instr_ptr) */
  int *stacktop;              /* number of live entries of localsplus, -1 while running */
} npy_frame_fields;

void npy_frame_fields_get(npy_frame *frame, npy_frame_fields *out);

/* The frame's code object alone. */
PyCodeObject *npy_frame_code(npy_frame *frame);

/* What _PyCode_GetExtra(code, index, &out) stores in out, for a valid
 * index, read without the call: the hook reads it for every frame. */
void *npy_code_extra(PyCodeObject *code, Py_ssize_t index);

/* Links `frame` under `link` as CPython's evaluator does on entry (the
 * frame becomes the thread's current frame) and unlinks it on exit. */
void npy_frame_enter(PyThreadState *tstate, npy_frame *frame, npy_frame_link *link);
void npy_frame_leave(PyThreadState *tstate, npy_frame_link *link);

/* The frame is still running its prologue (COPY_FREE_VARS, MAKE_CELL...):
 * CPython shows no traceback entry for it yet. */
int npy_frame_is_incomplete(npy_frame *frame);

/* Whether a frame object (sys._getframe(), a traceback) refers to the frame:
 * it keeps the frame's locals after the frame returns. */
int npy_frame_has_frame_object(npy_frame *frame);

/* Whether the frame belongs to a generator, coroutine or async generator. */
int npy_frame_owned_by_generator(npy_frame *frame);

/* The recursion-limit accounting of a frame's start and end, as CPython's
 * evaluator does it (Include/internal/pycore_ceval.h). */
int npy_enter_recursive_call(PyThreadState *tstate);
void npy_leave_recursive_call(PyThreadState *tstate);

/* Records the current instruction of the current frame in the traceback of
 * the exception being raised. */
void npy_traceback_here(void);

/* CPython 3.11 only: tracing of a frame that npython was already evaluating when sys.settrace
 * or sys.setprofile switched tracing on (frames that start under tracing go
 * to CPython). Each mirrors the event CPython's evaluator sends at the same
 * point (Python/ceval.c: maybe_call_line_trace, trace_function_exit,
 * call_exc_trace). The frame's stacktop must be valid while they run. */
int npy_trace_line(PyThreadState *tstate, npy_frame *frame, int previous_instr);
int npy_trace_return(PyThreadState *tstate, npy_frame *frame, PyObject *retval);
void npy_trace_exception(PyThreadState *tstate, npy_frame *frame);

/* CPython 3.12 and later. Whether sys.settrace, sys.setprofile or a
 * sys.monitoring tool is in force: frames then run in CPython's evaluator,
 * which sends their events. */
int npy_tracing(PyThreadState *tstate);

/* CPython 3.12 and later. Whether the code's instrumentation is up to date with
 * sys.monitoring's (else CPython's evaluator updates it at the frame's
 * RESUME). */
int npy_code_instrumentation_current(PyThreadState *tstate, PyCodeObject *code);

/* CPython 3.12 and later. The frame goes on in CPython's evaluator from the
 * instruction its last-instruction field says (3.12: the one after
 * prev_instr; 3.13: instr_ptr), its stack as stacktop says (as a
 * generator's frame resumes), and ends there: CPython's evaluator clears it. */
PyObject *npy_resume_in_cpython(PyThreadState *tstate, npy_frame *frame, int throwflag);

/* CPython 3.12 and later. The exception set leaves the frame (whose stack
 * is empty, set to resume after an instruction no handler covers): CPython's
 * evaluator unwinds and clears it, and the traceback stays as it was. */
PyObject *npy_unwind_in_cpython(PyThreadState *tstate, npy_frame *frame);

/* CPython 3.12 and later. The first code unit of the instruction (with its
 * EXTENDED_ARG prefixes) that code unit `index` belongs to. */
int npy_instruction_start(PyCodeObject *code, int index);

/* The word that tells the evaluator that signals, pending calls, a GIL drop
 * request or an asynchronous exception are waiting (3.13: in the bits of
 * NPY_EVAL_BREAKER_EVENTS; the others count instrumentation versions). */
const volatile npy_eval_breaker_word *npy_eval_breaker(PyThreadState *tstate);

/* The word that says a signal arrived. On Linux a signal handled on another
 * thread than the interpreter's (npython's launcher thread blocks signals,
 * so the kernel picks one of the others: OpenMP's, OpenBLAS's) sets it but
 * not the eval breaker, which CPython computes for the handler's thread. */
const volatile int *npy_signals_pending(void);

/* Handles what the eval breaker signals, as CPython's evaluator does.
 * Returns -1 with an exception set when one was raised. */
int npy_handle_eval_breaker(PyThreadState *tstate);

/* CPython's tables for its specialised instructions, 256 entries each: the
 * base instruction of each opcode, and the number of inline cache units that
 * follow each base instruction. */
const uint8_t *npy_base_opcodes(void);
const uint8_t *npy_inline_cache_units(void);

/* Instance attributes of types whose instances keep their attribute values
 * in an array indexed through keys shared by the type ("managed dict"
 * objects): the slot of `name` among the type's shared keys, or -1. */
int npy_shared_key_index(PyTypeObject *type, PyObject *name);
/* The value in slot `index` of the object's inline values (borrowed); NULL
 * when the object has none (its dict was materialised) or the slot is empty. */
PyObject *npy_instance_value(PyObject *obj, int index);

/* The number of entries of the type's shared keys, or -1 if it has none. */
Py_ssize_t npy_shared_keys_entries(PyTypeObject *type);
/* Whether a "managed dict" object still keeps its attributes inline (its
 * dict has not been made real). */
int npy_has_inline_values(PyObject *obj);

/* The dict of a module (an object of the module type or a subclass). */
PyObject *npy_module_dict(PyObject *module);

/* Whether every key of the dict is an exact str: looking a str up in it
 * then calls no Python code (no key's __eq__). */
int npy_dict_has_str_keys(PyObject *dict);

/* The builtins' original __import__, for the fast import path. */
PyObject *npy_original_import_func(PyThreadState *tstate);

#ifdef __cplusplus
}
#endif

#endif
