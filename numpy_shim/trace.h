// A thread's trace: the region it is recording (jit::Region) together with
// the Python side of each node: the objects its inputs are, how eager NumPy
// would compute it, and, once the region has run, its value. Lazy values are
// handles to one node of one trace.
#pragma once

#include <Python.h>

#include <memory>
#include <vector>

#include "jit/region.h"

namespace npy::numpy_shim {

// How eager NumPy computes a node: the exact call the program made.
struct EagerForm {
  // kPartOfCall: a step of a NumPy function the tracer spelled out in
  // region ops (np.std as sums, a division, ...): only kernels compute it;
  // through NumPy, the function's last node makes the program's own call.
  // kSetItem: `target[index] = value` (arguments in that order) done to a
  // copy of the target, which is the node's value.
  enum class Kind {
    kCall, kBinaryOperator, kInPlaceOperator, kCompare, kUnaryOperator, kSubscript, kPartOfCall, kSetItem
  };
  Kind kind = Kind::kCall;
  PyObject* callable = nullptr;  // kCall (owned)
  int operator_code = 0;         // NB_* / Py_LT... / UnaryOp
  // Positional arguments: a node index, or -1 with the object in `constants`.
  jit::PerOperand<int> arg_nodes;
  jit::PerOperand<PyObject*> constants;  // owned, parallel to arg_nodes
  PyObject* kwargs = nullptr;        // owned, may be null
  // A ufunc or operator called straight from the program: NumPy reports its
  // floating-point errors at the program's line, named after `ufunc_name`.
  bool reports_at_call_site = false;
  // An operator on NumPy scalars: NumPy's scalar math, whose reports name
  // it "scalar <ufunc_name>".
  bool scalar_math = false;
  // Eager NumPy gives a NumPy scalar (not an array) for this node.
  bool gives_scalar = false;
  // The node's value is compressed by the boolean mask of node
  // `compressed_by` (-1: it is not): eager NumPy's value holds, in C
  // order, the elements of a value of the mask's shape that lie where the
  // mask is true: `x[mask]` (jit's compress), or element-wise work on such
  // values and 0-d ones. The region holds the value of the mask's shape,
  // which kernels compute whole; only eager NumPy compresses it.
  int compressed_by = -1;
  // An assignment `x[mask] = value` of a value compressed by that mask,
  // recorded as where(mask, value, x): kernels read the value over the
  // mask's shape, eager NumPy as compressed.
  bool expands_compressed = false;
  // What kernels compute of such nodes differs from their eager forms'
  // values: the runner must not mix the two (region_runner.cpp).
  bool over_mask_shape() const { return compressed_by >= 0 || expands_compressed; }
  const char* ufunc_name = "";
};

// Where the program recorded an op: its code object (compared, not held)
// and instruction.
struct RecordedAt {
  PyCodeObject* code = nullptr;
  int offset = 0;  // in code units
};

struct Trace {
  jit::Region region;
  std::vector<EagerForm> eager;     // per node
  std::vector<PyObject*> objects;   // per node: input object, then value once run (owned)
  std::vector<int> handles;         // per node: live lazy values naming it
  std::vector<std::pair<PyObject*, int>> input_nodes;  // input object -> its node
  long live_handles = 0;
  bool done = false;
  // Where each op was recorded (per node, up to the last op; none for
  // inputs), and the line of the last one: where regions end at lines
  // (g_regions_end_at_lines).
  std::vector<RecordedAt> recorded_at;
  int last_op_line = -1;
  RecordedAt last_op() const { return recorded_at.empty() ? RecordedAt{} : recorded_at.back(); }
  // The exception running the trace raised (type, value, traceback; owned),
  // raised again for every value of the trace asked for afterwards.
  PyObject* error[3] = {nullptr, nullptr, nullptr};

  // A new trace takes over the per-node lists (emptied, their room kept)
  // of one that ended on this thread, so that recording a region like one
  // before it allocates nothing for them.
  Trace();
  Trace(const Trace&) = delete;
  Trace& operator=(const Trace&) = delete;
  ~Trace();
};

// The lazy value type; never seen by code npython does not evaluate.
extern PyTypeObject* g_lazy_type;
inline bool is_lazy(PyObject* o) { return Py_TYPE(o) == g_lazy_type; }

// Lazy values alive in the process. The evaluator reads it at every
// instruction to pick its dispatch table.
extern long g_live_lazies;

// Whether the regions pending now end where the program leaves the line
// that recorded their ops (Deferral::kToLineEnd, errstate.h): set when a
// region opens. The evaluator reads it while lazy values exist.
extern bool g_regions_end_at_lines;

// The op whose computation raised the exception a region's run last
// raised, where the program recorded it (the instruction that raises it).
extern RecordedAt g_failed_op;

// The trace a lazy value belongs to and its node there.
Trace* trace_of(PyObject* lazy);
int node_of(PyObject* lazy);

// A new lazy value for node `node` of `trace` (a new reference).
PyObject* new_lazy(const std::shared_ptr<Trace>& trace, int node);
// Points an existing lazy value at another node of its trace (in-place
// operators: every alias of the value sees the update).
void retarget_lazy(PyObject* lazy, int node);

// The thread's trace that is recording, creating one when there is none.
// Lazy values own traces; the thread only remembers the one recording, so
// that a trace always dies with its last lazy value, under the GIL.
std::shared_ptr<Trace> open_trace();
// The thread's recording trace if it has one that someone still needs.
Trace* pending_trace();

}  // namespace npy::numpy_shim
