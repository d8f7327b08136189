#include "interp/lazy_frames.h"

#include "numpy_shim/region_runner.h"
#include "numpy_shim/trace.h"

namespace npy::interp {
namespace {

thread_local ActiveFrame* t_innermost = nullptr;
thread_local bool t_materializing = false;

// `local`: the slot is a variable, not an operand on the value stack.
// `unwinding`: an exception leaves the frame, which drops its operands.
int replace_lazy(PyObject** slot, bool local, bool unwinding, const numpy_shim::Location& where) {
  PyObject* lazy = *slot;
  if (!lazy || !numpy_shim::is_lazy(lazy)) return 0;
  // A variable whose region failed stays as it is: the error was raised
  // where the region ran (the program may have caught it, as NumPy's at the
  // operation), and is raised again only where the value itself is used.
  // So does an operand the exception drops.
  if ((local || unwinding) && numpy_shim::trace_of(lazy)->error[0]) return 0;
  PyObject* value = numpy_shim::materialize(lazy, numpy_shim::Reason::k_operation, where, nullptr);
  if (!value) return -1;
  *slot = value;
  Py_DECREF(lazy);
  return 0;
}

}  // namespace

ActiveFrame::ActiveFrame(PyObject** localsplus, int nlocalsplus)
    : outer_(t_innermost),
      localsplus_(localsplus),
      nlocalsplus_(nlocalsplus),
      returns_to_evaluator_(t_innermost && t_innermost->callee_takes_lazy) {
  if (outer_) outer_->callee_takes_lazy = false;
  t_innermost = this;
}

ActiveFrame::~ActiveFrame() { t_innermost = outer_; }

int materialize_frames(numpy_shim::Reason reason, const numpy_shim::Location& where,
                       const char* detail, PyObject** stack_top) {
  // Code NumPy runs while a region is computed may come back here, whether
  // this function or numpy_shim itself (np.bincount's arguments, a region at
  // its size cap) set the region running.
  if (t_materializing || numpy_shim::running_trace()) return 0;
  t_materializing = true;
  int status = numpy_shim::flush(reason, where, detail);
  for (ActiveFrame* frame = t_innermost; frame && status == 0 && numpy_shim::g_live_lazies > 0;
       frame = frame->outer_) {
    PyObject** end = frame == t_innermost ? stack_top : frame->localsplus_ + frame->nlocalsplus_;
    for (PyObject** slot = frame->localsplus_; slot < end && status == 0; ++slot) {
      status = replace_lazy(slot, slot < frame->localsplus_ + frame->nlocalsplus_,
                            reason == numpy_shim::Reason::k_exception, where);
    }
  }
  t_materializing = false;
  return status;
}

void release_lazy_locals(PyObject** localsplus, int nlocalsplus) {
  for (int i = 0; i < nlocalsplus; ++i) {
    if (localsplus[i] && numpy_shim::is_lazy(localsplus[i])) Py_CLEAR(localsplus[i]);
  }
}

}  // namespace npy::interp
