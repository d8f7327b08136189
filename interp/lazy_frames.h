// The frames npython is evaluating on this thread, innermost first, so that a
// materialization can replace every lazy value they hold by its value: the
// innermost frame's locals and stack, and the locals of the frames it was
// called from (a suspended frame's stack is not visible to any code).
#pragma once

#include <Python.h>

#include "numpy_shim/tracer.h"

namespace npy::interp {

class ActiveFrame {
 public:
  ActiveFrame(PyObject** localsplus, int nlocalsplus);
  ~ActiveFrame();
  ActiveFrame(const ActiveFrame&) = delete;
  ActiveFrame& operator=(const ActiveFrame&) = delete;

  // Set by CALL just before it calls a function whose frame npython runs,
  // with lazy arguments: that frame may then also return a lazy value.
  bool callee_takes_lazy = false;
  // Whether this frame's result goes straight back to a frame npython runs.
  bool returns_to_evaluator() const { return returns_to_evaluator_; }

 private:
  friend int materialize_frames(numpy_shim::Reason, const numpy_shim::Location&, const char*,
                                PyObject**);
  ActiveFrame* outer_;
  PyObject** localsplus_;
  int nlocalsplus_;
  bool returns_to_evaluator_;
};

// Computes the thread's pending trace and replaces each lazy value in the
// evaluated frames by its value; `stack_top` is the innermost frame's stack
// pointer. 0, or -1 with an exception.
int materialize_frames(numpy_shim::Reason reason, const numpy_shim::Location& where,
                       const char* detail, PyObject** stack_top);

// Drops the lazy values among a returning frame's locals, which die with it.
void release_lazy_locals(PyObject** localsplus, int nlocalsplus);

}  // namespace npy::interp
