// npython's evaluator: runs one frame's bytecode (CPython 3.11's, 3.12's or 3.13's,
// as built) on CPython's own frame, from its first instruction to its
// return or its unhandled exception (under 3.12 and 3.13 ended in CPython's
// evaluator, which clears the frame).
#pragma once

#include <Python.h>

#include "interp/code_info.h"
#include "interp/frame_glue.h"

namespace npy::interp {

// Runs a frame that has not started yet (not a generator's, not resumed,
// not thrown into). Returns its result, or NULL with an exception set; the
// caller (CPython's _PyEval_Vector) clears the frame afterwards. `code` holds
// the code object's caches, or is null to run without them.
PyObject* evaluate_frame(PyThreadState* tstate, npy_frame* frame, CodeInfo* code);

}  // namespace npy::interp
