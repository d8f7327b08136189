#include "interp/eval_hook.h"

#include <Python.h>
#include <pthread.h>
#include <sys/mman.h>
#include <ucontext.h>

#include <array>
#include <cstring>
#include <memory>
#include <string>

#include "common/stats.h"
#include "interp/evaluator.h"
#include "jit/trace_log.h"
#include "numpy_shim/blas_threads.h"
#include "numpy_shim/numpy_api.h"
#include "numpy_shim/trace.h"
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
// otherwise). A frame that finds less than this much stack left runs on a
// stack segment of its own, so that recursion goes as deep as under
// python3 on a thread of any stack size (threading.stack_size), and the C
// code frames call keeps this much room.
constexpr std::size_t kStackReserveBytes = 256 * 1024;
constexpr std::size_t kSegmentBytes = std::size_t{64} << 20;  // pages are committed as they are touched
constexpr std::size_t kGuardBytes = 64 * 1024;                // unmapped-access guard at a segment's low end

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

// The lowest address the current stack (the thread's, or the segment it
// runs on) lets a frame start at.
thread_local const char* t_stack_floor = find_stack_floor();

bool stack_exhausted() {
  const char here = 0;
  return t_stack_floor && &here < t_stack_floor;
}

[[gnu::noinline, gnu::cold]] PyObject* raise_c_stack_exhausted() {
  PyErr_SetString(PyExc_RecursionError, "maximum recursion depth exceeded (C stack)");
  return nullptr;
}

PyObject* evaluate(PyThreadState* tstate, struct _PyInterpreterFrame* frame, int throwflag);

// A stack segment: anonymous memory with an inaccessible guard at its low end.
class StackSegment {
 public:
  StackSegment() {
    void* memory = mmap(nullptr, kSegmentBytes, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (memory == MAP_FAILED) return;
    if (mprotect(memory, kGuardBytes, PROT_NONE) != 0) {
      munmap(memory, kSegmentBytes);
      return;
    }
    base_ = static_cast<char*>(memory);
  }
  ~StackSegment() {
    if (base_) munmap(base_, kSegmentBytes);
  }
  StackSegment(const StackSegment&) = delete;
  StackSegment& operator=(const StackSegment&) = delete;
  char* base() const { return base_; }

 private:
  char* base_ = nullptr;
};

// The frame a new segment runs, and its result.
struct SegmentCall {
  PyThreadState* tstate;
  struct _PyInterpreterFrame* frame;
  int throwflag;
  PyObject* result;
};
thread_local SegmentCall* t_segment_call = nullptr;
// A segment kept from the last call that left one, so that recursion that
// goes back and forth over a segment's edge does not map one each time.
thread_local std::unique_ptr<StackSegment> t_spare_segment;

void run_segment_call() {
  SegmentCall& call = *t_segment_call;
  call.result = evaluate(call.tstate, call.frame, call.throwflag);
}

[[gnu::noinline, gnu::cold]] PyObject* evaluate_on_stack_segment(PyThreadState* tstate,
                                                                struct _PyInterpreterFrame* frame,
                                                                int throwflag) {
  std::unique_ptr<StackSegment> segment = std::move(t_spare_segment);
  if (!segment) segment = std::make_unique<StackSegment>();
  if (!segment->base()) return raise_c_stack_exhausted();
  ucontext_t caller;
  ucontext_t callee;
  if (getcontext(&callee) != 0) return raise_c_stack_exhausted();
  callee.uc_stack.ss_sp = segment->base() + kGuardBytes;
  callee.uc_stack.ss_size = kSegmentBytes - kGuardBytes;
  callee.uc_link = &caller;
  makecontext(&callee, run_segment_call, 0);
  SegmentCall call{tstate, frame, throwflag, nullptr};
  SegmentCall* const outer_call = t_segment_call;
  const char* const outer_floor = t_stack_floor;
  t_segment_call = &call;
  t_stack_floor = segment->base() + kGuardBytes + kStackReserveBytes;
  const int switched = swapcontext(&caller, &callee);
  t_stack_floor = outer_floor;
  t_segment_call = outer_call;
  t_spare_segment = std::move(segment);
  if (switched != 0) return raise_c_stack_exhausted();
  return call.result;
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

// The first frame a tracer or profiler sees: npython says it steps aside.
[[gnu::noinline, gnu::cold]] void note_tracing_once() {
  jit::note_stepped_aside(
      "a tracer or profiler is active (sys.settrace or sys.setprofile: a debugger, coverage, cProfile); "
      "the frames it sees run in CPython's own evaluator, without regions");
}

inline void note_tracing() {
  static bool noted = false;
  if (noted) return;
  noted = true;
  note_tracing_once();
}

// A frame a tool sees runs in CPython's evaluator with no frame hook set
// until it returns or yields, and so do the frames it calls: CPython 3.12's
// evaluator reports some events differently while any hook is set (its SEND
// then reports a finished coroutine's StopIteration twice). npython's hook
// comes back after, unless another one was set meanwhile.
[[gnu::noinline, gnu::cold]] PyObject* evaluate_seen_by_tool(PyThreadState* tstate,
                                                            struct _PyInterpreterFrame* frame, int throwflag) {
  _PyInterpreterState_SetEvalFrameFunc(tstate->interp, _PyEval_EvalFrameDefault);
  PyObject* result = _PyEval_EvalFrameDefault(tstate, frame, throwflag);
  if (_PyInterpreterState_GetEvalFrameFunc(tstate->interp) == _PyEval_EvalFrameDefault) {
    _PyInterpreterState_SetEvalFrameFunc(tstate->interp, evaluate);
  }
  return result;
}

// Called for every Python frame: its common paths end in tail calls, with
// what else it may call kept out of line.
PyObject* evaluate(PyThreadState* tstate, struct _PyInterpreterFrame* frame, int throwflag) {
  if (!throwflag && !npy_frame_owned_by_generator(frame) && stack_exhausted()) {
    return evaluate_on_stack_segment(tstate, frame, throwflag);
  }
  const Decision decision = decide(tstate, frame, throwflag);
  g_frame_counters[static_cast<int>(decision.handover)]->add_serialized();  // under the GIL
  if (decision.handover == Handover::kNone) {
    if (!numpy_shim::g_ndarray_type) {
      numpy_shim::notice_numpy();
      if (numpy_shim::g_ndarray_type) numpy_shim::prepare_tracing();
    }
    return evaluate_frame(tstate, frame, decision.code);
  }
  if (decision.handover == Handover::kTracing) note_tracing();
  if (decision.handover == Handover::kGenerator && numpy_shim::g_live_lazies) {
    throwflag |= flush_before_generator(frame);
  }
  if ((decision.handover == Handover::kTracing || decision.handover == Handover::kGenerator) &&
      tool_active(tstate)) {
    return evaluate_seen_by_tool(tstate, frame, throwflag);
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
