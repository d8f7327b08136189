// The parts of instructions too long to sit in the dispatch loop: raising,
// unpacking, importing, pattern matching and the error messages that must
// read exactly as CPython's. Each follows the behaviour of CPython's
// evaluator (3.11's, 3.12's and 3.13's alike) (Python/ceval.c); the code is npython's own.
#pragma once

#include <Python.h>

namespace npy::interp {

// Interned names the evaluator looks up, made once.
struct Names {
  PyObject* build_class;
  PyObject* import;
  PyObject* annotations;
  PyObject* enter;
  PyObject* exit;
  PyObject* dunder_name;
  PyObject* name;
  PyObject* spec;
  PyObject* all;
  PyObject* dict;
  PyObject* get;
  PyObject* match_args;
  PyObject* displayhook;
  PyObject* empty;
};
const Names& names();

// BINARY_OP's NB_* operator `op`, and UNARY_NEGATIVE / UNARY_INVERT: a new
// reference, or NULL with an exception set. The evaluator's stack owns one
// reference to each operand (NumPy computes into an operand that nothing
// else refers to, as under CPython's evaluator).
PyObject* binary_op(int op, PyObject* lhs, PyObject* rhs);
// BINARY_OP on operands NumPy would not compute in place.
PyObject* plain_binary_op(int op, PyObject* lhs, PyObject* rhs);
PyObject* negative(PyObject* operand);
PyObject* invert(PyObject* operand);

// "raise", "raise exc" and "raise exc from cause"; consumes exc and cause.
// Returns true when an active exception was re-raised (the caller unwinds
// without adding a traceback entry), false otherwise (an exception is set).
bool do_raise(PyObject* exc, PyObject* cause);

// Unpacks `seq` into `count_before` values, a list of the rest when
// `count_after` >= 0, and `count_after` values, storing them downwards from
// `top`. Returns false with an exception set on failure.
bool unpack_iterable(PyObject* seq, int count_before, int count_after, PyObject** top);

PyObject* import_name(PyThreadState* tstate, PyObject* builtins, PyObject* globals,
                      PyObject* locals, PyObject* name, PyObject* fromlist, PyObject* level);
PyObject* import_from(PyObject* module, PyObject* name);
int import_all_from(PyObject* locals, PyObject* module);

// MATCH_CLASS: a tuple of the matched attributes, or NULL (with an
// exception set on error, without one on a failed match).
PyObject* match_class(PyObject* subject, PyObject* type, Py_ssize_t nargs, PyObject* kwargs);
// MATCH_KEYS: a tuple of values, None when a key is missing, NULL on error.
PyObject* match_keys(PyObject* subject, PyObject* keys);

// Sets `exc` with `format` % name; a NameError also records the name so
// that the traceback can suggest a close match.
void raise_name_error(PyObject* exc, const char* format, PyObject* name);
void raise_unbound_local(PyCodeObject* code, int index);
// For a cell or free variable that is empty.
void raise_unbound_cell(PyCodeObject* code, int index);

extern const char* const kNameErrorFormat;

// A special method looked up on the type, as the interpreter does for
// `with`: a new reference, or NULL (with an exception set only on error).
PyObject* lookup_special(PyObject* obj, PyObject* name);

int check_except_type_valid(PyObject* right);
int check_args_iterable(PyObject* func, PyObject* args);
void format_kwargs_error(PyObject* func, PyObject* kwargs);

}  // namespace npy::interp
