#include "interp/eval_hook.h"

#include <Python.h>

#include "common/stats.h"

namespace npy::interp {
namespace {

// npython has no evaluator of its own yet: every frame goes to CPython's.
PyObject* evaluate_frame(PyThreadState* tstate, struct _PyInterpreterFrame* frame, int throwflag) {
  static Counter& to_cpython = counter("frames.to_cpython");
  to_cpython.add();
  return _PyEval_EvalFrameDefault(tstate, frame, throwflag);
}

}  // namespace

void install_eval_hook() {
  _PyInterpreterState_SetEvalFrameFunc(PyInterpreterState_Get(), evaluate_frame);
}

bool eval_hook_installed() {
  return _PyInterpreterState_GetEvalFrameFunc(PyInterpreterState_Get()) == evaluate_frame;
}

}  // namespace npy::interp
