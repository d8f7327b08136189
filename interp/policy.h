// Which frames npython's evaluator runs and which it hands to CPython's,
// with the reason, decided once per code object.
#pragma once

#include <Python.h>

#include "interp/code_info.h"
#include "interp/frame_glue.h"

namespace npy::interp {

enum class Scope { kUserCode, kAll };  // NPY_INTERP=user|all

const char* handover_name(Handover reason);

// Whether a reason is one the conformance figure may leave out.
bool handover_is_allowed(Handover reason);

// Must be called with the GIL held, once, before `decide`.
void init_policy(Scope scope);

// Who evaluates the frame: the handover reason, and for frames npython
// evaluates the code's caches (null when the code object could not keep
// them). Per-frame reasons (generator, tracing) come with no code info.
struct Decision {
  Handover handover;
  CodeInfo* code;
};
Decision decide(PyThreadState* tstate, npy_frame* frame, int throwflag);

// Whether a tracer, a profiler or a sys.monitoring tool is active.
bool tool_active(PyThreadState* tstate);

// Whether a call to a function with this code runs in npython's evaluator
// (a plain function, not generator code, while nothing traces).
bool evaluates_calls_to(PyThreadState* tstate, PyCodeObject* code);

}  // namespace npy::interp
