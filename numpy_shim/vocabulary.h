// Which NumPy callables become region ops, recognised by identity (the
// ufunc objects, the module functions, ndarray's method descriptors), and
// how each is called.
#pragma once

#include <Python.h>

#include "jit/region_ops.h"

namespace npy::numpy_shim {

enum class CallForm : unsigned char {
  kNone,       // not a NumPy callable npython traces
  kUfunc,      // np.<ufunc>(operands...)
  kWhere,      // np.where(cond, a, b)
  kReduce,     // np.<reduction>(a, axis=None, keepdims=False)
  kReduceMethod,  // a.<reduction>(axis=None, keepdims=False)
  kNorm,       // np.linalg.norm(x, ord=None, axis=None, keepdims=False)
  kAstype,     // a.astype(dtype)
  kClip,       // np.clip(a, a_min, a_max) and a.clip(a_min, a_max)
  kView,       // a call that gives a view: which one in `view`
  kVar,        // np.var(a, axis, ddof=, keepdims=) and a.var(...)
  kStd,        // np.std and a.std, likewise
  kCreate,     // np.zeros / ones (shape, dtype=None, order='C'), np.full (shape, fill_value, ...)
  kCreateLike, // np.zeros_like / ones_like (a, dtype=None, ...), np.full_like (a, fill_value, ...)
  kArange,     // np.arange([start,] stop[, step], dtype=None)
  kLinspace,   // np.linspace(start, stop, num=50, endpoint=True, dtype=None)
  kProduct,    // np.matmul(a, b), np.dot(a, b) and a.dot(b)
  kScan,       // np.cumsum(a, axis=None), np.cumprod, and the methods a.cumsum(axis), a.cumprod
  kBincount,   // np.bincount(x, weights=None, minlength=0): not a region op (counting.h)
  kHistogram,  // np.histogram(a, bins=10, range=None, density=None, weights=None): likewise
};

// The calls that give views, as functions (np.reshape(a, ...)) or methods.
enum class ViewCall : unsigned char { kReshape, kRavel, kTranspose, kSqueeze, kExpandDims, kBroadcastTo };

struct VocabularyEntry {
  CallForm form = CallForm::kNone;
  jit::Op op = jit::Op::input;
  ViewCall view = ViewCall::kReshape;  // for kView
  bool method = false;                 // an ndarray method: the array comes first
};

// Looks NumPy's callables up now rather than at the first lookup. NumPy must
// be loaded.
void load_vocabulary();

// What `callable` is to the tracer. NumPy must be loaded.
VocabularyEntry lookup_callable(PyObject* callable);

// Whether `callable` is one of the kCreate or kArange functions, which take
// no array (a few comparisons: asked of calls that have no array argument).
bool creates_without_arrays(PyObject* callable);

// Whether `callable` belongs to NumPy (a ufunc, an ndarray method, or a
// function of a numpy module): calls to those that are not traced count as
// fallbacks.
bool is_numpy_callable(PyObject* callable);

// Whether a call that is not traced, with no lazy argument, can be made
// while a region is pending: a builtin that cannot look at frames or write
// into arrays, or a NumPy call that writes into no existing array (no
// `out=`, nothing like np.copyto) and never warns (so warnings keep the
// program's order). Anything else computes the region first, and so do
// calls whose effects the region's warnings must come before: output
// (print, a stream's methods) and changes to warnings.filters in place (a
// list method called on it: `first_arg`, the call's first argument, or
// nullptr). `positional`: the call's positional arguments (a method's self
// among them).
bool call_keeps_region_pending(PyObject* callable, PyObject* first_arg, Py_ssize_t positional, PyObject* kwnames);

// Whether `callable` is a function of module time (perf_counter, time,
// sleep, ...). A call to one computes everything pending first, as python3
// would have by then, so that a program's own timings measure its work.
bool reads_clock(PyObject* callable);

// The ufunc of a region op (borrowed), or nullptr when it has none.
PyObject* ufunc_of(jit::Op op);

// The unbound ndarray method for the name (borrowed), or nullptr when the
// tracer has no reduction or conversion of that name.
PyObject* traced_method(PyObject* name);

// The same by its name.
PyObject* ndarray_method(const char* name);

// For `x.name` taken as a value (a builtin method bound to the ndarray x,
// as `f = x.sum` or `getattr(x, "cumsum")` make it), the unbound method the
// tracer traces (borrowed) and x (borrowed, in `self`); nullptr for any
// other callable.
PyObject* unbound_array_method(PyObject* callable, PyObject*& self);

// numpy module attribute (borrowed), looked up once.
PyObject* numpy_attr(const char* name);

}  // namespace npy::numpy_shim
