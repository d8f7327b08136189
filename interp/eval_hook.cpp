#include "interp/eval_hook.h"

#include <Python.h>
#include <pthread.h>

#include <array>
#include <cstring>
#include <string>

#include "common/stats.h"
#include "interp/evaluator.h"
#include "numpy_shim/blas_threads.h"
#include "numpy_shim/numpy_api.h"
#include "numpy_shim/trace.h"
#include "numpy_shim/tracer.h"
#include "numpy_shim/tracer.h"

namespace npy::interp {
namespace {

constexpr int kReasons = static_cast<int>(Handover::kNotUserCode) + 1;

std::array<Counter*, kReasons> make_frame_counters() {
  std::array<Counter*, kReasons> counters{};
  for (int r = 0; r < kReasons; ++r) {
    const auto reason = static_cast<Handover>(r);
    counters[r] = reason == Handover::kNone
                      ? &counter("frames.evaluated")
                      : &counter(std::string("frames.to_cpython.") + handover_name(reason));
  }
  return counters;
}

std::array<Counter*, kReasons> g_frame_counters;

// Under the hook every Python call takes C stack (CPython inlines them
// otherwise). Below this much stack left, a new frame raises RecursionError
// rather than overflow the stack.
constexpr std::size_t kStackReserveBytes = 256 * 1024;

// Out of line: the hook, run for every Python frame, stays small.
[[gnu::noinline]] const char* find_stack_floor() {
  pthread_attr_t attr;
  void* low = nullptr;
  std::size_t size = 0;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    pthread_attr_getstack(&attr, &low, &size);
    pthread_attr_destroy(&attr);
  }
  return low ? static_cast<const char*>(low) + kStackReserveBytes : nullptr;
}

const char* stack_floor() {
  thread_local const char* floor = find_stack_floor();
  return floor;
}

bool stack_exhausted() {
  const char here = 0;
  const char* floor = stack_floor();
  return floor && &here < floor;
}

[[gnu::noinline, gnu::cold]] PyObject* raise_c_stack_exhausted() {
  PyErr_SetString(PyExc_RecursionError, "maximum recursion depth exceeded (C stack)");
  return nullptr;
}

// A generator's frame (next(), a for loop, list(gen)) runs in CPython,
// whose calls npython does not see: one that writes into an array a pending
// region reads must come after it, so pending work is computed first. An
// error in it is thrown into the generator, as gen.throw() would: 1 then.
[[gnu::noinline, gnu::cold]] int flush_before_generator(npy_frame* frame) {
  npy_frame_fields f;
  npy_frame_fields_get(frame, &f);
  const numpy_shim::Location where{f.code, 0, f.globals};
  return numpy_shim::flush(numpy_shim::Reason::k_call, where, "a generator resumed") < 0 ? 1 : 0;
}

// Called for every Python frame: its common paths end in tail calls, with
// what else it may call kept out of line.
PyObject* evaluate(PyThreadState* tstate, struct _PyInterpreterFrame* frame, int throwflag) {
  if (!throwflag && !npy_frame_owned_by_generator(frame) && stack_exhausted()) return raise_c_stack_exhausted();
  const Decision decision = decide(tstate, frame, throwflag);
  g_frame_counters[static_cast<int>(decision.handover)]->add_serialized();  // under the GIL
  if (decision.handover == Handover::kNone) {
    if (!numpy_shim::g_ndarray_type) {
      numpy_shim::notice_numpy();
      if (numpy_shim::g_ndarray_type) numpy_shim::prepare_tracing();
    }
    return evaluate_frame(tstate, frame, decision.code);
  }
  if (decision.handover == Handover::kGenerator && numpy_shim::g_live_lazies) {
    throwflag |= flush_before_generator(frame);
  }
  return _PyEval_EvalFrameDefault(tstate, frame, throwflag);
}

void set_hook() {
  _PyInterpreterState_SetEvalFrameFunc(PyInterpreterState_Get(), evaluate);
}

// Audit hook: the first "import" event for NumPy installs the frame hook;
// every import is news to numpy_shim.
int watch_imports(const char* event, PyObject* args, void*) {
  if (std::strcmp(event, "import") != 0 || !PyTuple_Check(args) || PyTuple_GET_SIZE(args) == 0) return 0;
  PyObject* module = PyTuple_GET_ITEM(args, 0);
  const char* name = PyUnicode_Check(module) ? PyUnicode_AsUTF8(module) : nullptr;
  if (!name) {
    PyErr_Clear();
    return 0;
  }
  numpy_shim::note_import(name);
  if (!eval_hook_installed() && (std::strcmp(name, "numpy") == 0 || std::strncmp(name, "numpy.", 6) == 0)) {
    set_hook();
  }
  return 0;
}

}  // namespace

void install_evaluator(Scope scope, bool main_uses_numpy) {
  g_frame_counters = make_frame_counters();
  init_policy(scope);
  if (scope == Scope::kAll || main_uses_numpy) set_hook();
  if (PySys_AddAuditHook(watch_imports, nullptr) < 0) {
    PyErr_Clear();
    set_hook();
  }
}

bool eval_hook_installed() {
  return _PyInterpreterState_GetEvalFrameFunc(PyInterpreterState_Get()) == evaluate;
}

}  // namespace npy::interp
