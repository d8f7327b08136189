#include "numpy_shim/trace.h"

#include <new>

#include "numpy_shim/py_ref.h"
#include "numpy_shim/cpython_api.h"
#include "numpy_shim/region_runner.h"

namespace npy::numpy_shim {

long g_live_lazies = 0;
bool g_regions_end_at_lines = false;
RecordedAt g_failed_op;

namespace {

struct LazyObject {
  PyObject_HEAD
  std::shared_ptr<Trace> trace;
  int node;
};

thread_local std::weak_ptr<Trace> t_open;

// The per-node lists of a trace that ended on this thread, emptied, for
// a later trace to record into.
struct SpareLists {
  std::vector<jit::Node> nodes;
  std::vector<EagerForm> eager;
  std::vector<PyObject*> objects;
  std::vector<int> handles;
  std::vector<std::pair<PyObject*, int>> input_nodes;
  std::vector<RecordedAt> recorded_at;
};
// A few: a loop's regions overlap, each alive while the next records (its
// values still named), so each ends after the next begins.
constexpr std::size_t kSpareTraces = 4;
thread_local SpareLists t_spare[kSpareTraces];
thread_local std::size_t t_spares = 0;

// Lists longer than this go with their trace rather than stay held.
constexpr std::size_t kMaxSpareNodes = 256;

void swap_lists(Trace& trace, SpareLists& spare) {
  trace.region.nodes.swap(spare.nodes);
  trace.eager.swap(spare.eager);
  trace.objects.swap(spare.objects);
  trace.handles.swap(spare.handles);
  trace.input_nodes.swap(spare.input_nodes);
  trace.recorded_at.swap(spare.recorded_at);
}

void lazy_dealloc(PyObject* self) {
  auto* lazy = reinterpret_cast<LazyObject*>(self);
  --lazy->trace->handles[lazy->node];
  --lazy->trace->live_handles;
  --g_live_lazies;
  Trace& trace = *lazy->trace;
  // A computed value nothing names any more is let go now, not with the
  // trace: it may be a view of an array the program holds (an assignment's
  // target), which NumPy would otherwise see referenced (ndarray.resize).
  if (trace.done && trace.handles[lazy->node] == 0) Py_CLEAR(trace.objects[lazy->node]);
  if (trace.live_handles == 0 && !trace.done && !cpython::is_finalizing()) {
    // Nothing needs the trace's values any more, but eager NumPy would have
    // computed them, and warned about their floating-point errors.
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    if (run_trace(trace, Reason::k_unused, Location{}, nullptr) < 0) PyErr_WriteUnraisable(nullptr);
    PyErr_Restore(type, value, traceback);
  }
  lazy->trace.~shared_ptr<Trace>();
  PyTypeObject* type = Py_TYPE(self);
  type->tp_free(self);
  Py_DECREF(type);
}

PyTypeObject* make_lazy_type() {
  static PyType_Slot slots[] = {
      {Py_tp_dealloc, reinterpret_cast<void*>(lazy_dealloc)},
      {Py_tp_doc, const_cast<char*>("a NumPy value npython has recorded but not computed yet")},
      {0, nullptr}};
  static PyType_Spec spec = {"npython.lazy", sizeof(LazyObject), 0, Py_TPFLAGS_DEFAULT, slots};
  return reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&spec));
}

}  // namespace

PyTypeObject* g_lazy_type = nullptr;

Trace::Trace() {
  if (t_spares > 0) {
    swap_lists(*this, t_spare[--t_spares]);
    return;
  }
  // Room for a small region's nodes from the start: growing each per-node
  // list one node at a time would allocate again at the 2nd, 3rd, 5th ...
  constexpr std::size_t kNodesAtFirst = 8;
  region.nodes.reserve(kNodesAtFirst);
  eager.reserve(kNodesAtFirst);
  objects.reserve(kNodesAtFirst);
  handles.reserve(kNodesAtFirst);
  input_nodes.reserve(kNodesAtFirst);
  recorded_at.reserve(kNodesAtFirst);
}

Trace::~Trace() {
  if (!holds_gil()) return;
  for (PyObject* o : error) Py_XDECREF(o);
  for (PyObject* o : objects) Py_XDECREF(o);
  for (EagerForm& form : eager) {
    Py_XDECREF(form.callable);
    Py_XDECREF(form.kwargs);
    for (PyObject* c : form.constants) Py_XDECREF(c);
  }
  if (t_spares == kSpareTraces || region.nodes.capacity() > kMaxSpareNodes) return;
  region.nodes.clear();
  eager.clear();
  objects.clear();
  handles.clear();
  input_nodes.clear();
  recorded_at.clear();
  swap_lists(*this, t_spare[t_spares++]);
}

Trace* trace_of(PyObject* lazy) { return reinterpret_cast<LazyObject*>(lazy)->trace.get(); }
int node_of(PyObject* lazy) { return reinterpret_cast<LazyObject*>(lazy)->node; }

PyObject* new_lazy(const std::shared_ptr<Trace>& trace, int node) {
  if (!g_lazy_type && !(g_lazy_type = make_lazy_type())) return nullptr;
  auto* lazy = PyObject_New(LazyObject, g_lazy_type);
  if (!lazy) return nullptr;
  new (&lazy->trace) std::shared_ptr<Trace>(trace);
  lazy->node = node;
  ++trace->handles[node];
  ++trace->live_handles;
  ++g_live_lazies;
  return reinterpret_cast<PyObject*>(lazy);
}

void retarget_lazy(PyObject* lazy, int node) {
  auto* object = reinterpret_cast<LazyObject*>(lazy);
  --object->trace->handles[object->node];
  ++object->trace->handles[node];
  object->node = node;
}

std::shared_ptr<Trace> open_trace() {
  std::shared_ptr<Trace> trace = t_open.lock();
  if (!trace || trace->done || trace->live_handles == 0) {
    trace = std::make_shared<Trace>();
    t_open = trace;
  }
  return trace;
}

Trace* pending_trace() {
  std::shared_ptr<Trace> trace = t_open.lock();
  return trace && !trace->done && trace->live_handles > 0 ? trace.get() : nullptr;
}

}  // namespace npy::numpy_shim
