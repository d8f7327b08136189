// Recording: checks that an operation can be expressed (operand kinds,
// dtypes by NumPy's own resolution, broadcast shapes, arguments) and appends
// it to the thread's trace.
#include "numpy_shim/tracer.h"

#include <opcode.h>
#include <sys/mman.h>

#include <algorithm>
#include <cfenv>
#include <climits>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "jit/host.h"
#include "jit/warm_up.h"
#include "numpy_shim/counting.h"
#include "numpy_shim/default_float.h"
#include "numpy_shim/diagnostics.h"
#include "numpy_shim/errstate.h"
#include "numpy_shim/inner_loops.h"
#include "numpy_shim/py_ref.h"
#include "numpy_shim/region_runner.h"
#include "numpy_shim/sites.h"
#include "numpy_shim/temporary_elision.h"
#include "numpy_shim/trace.h"
#include "numpy_shim/vocabulary.h"

#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL npy_numpy_shim_ARRAY_API
#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#include <numpy/arrayobject.h>

#include "numpy_shim/array_size.h"
#include "numpy_shim/numpy_dtypes.h"

namespace npy::numpy_shim {
namespace {

using jit::DType;
using jit::Op;
using jit::Shape;

// A trace longer than this is computed before it grows further.
constexpr std::size_t kMaxRegionNodes = 512;

// Python's bool, int and float take part as NEP 50 "weak" scalars.
enum class Weak { kNone, kBool, kInt, kFloat };

struct Operand {
  PyObject* object = nullptr;  // borrowed: the lazy value, array or scalar
  bool lazy = false;           // a pending node of the open trace
  bool numpy_scalar = false;   // eager NumPy has a NumPy scalar here (scalar math)
  Weak weak = Weak::kNone;
  DType dtype = DType::kFloat64;
  Shape shape;
  PyObject* descr = nullptr;  // owned, for strong operands
  npy_intp size = 1;

  Operand() = default;
  Operand(const Operand&) = delete;
  Operand& operator=(const Operand&) = delete;
  ~Operand() {
    if (holds_gil()) Py_XDECREF(descr);
  }
};

// Values compressed by a mask (EagerForm::compressed_by) are values of the
// mask's shape to the region and shorter ones to NumPy: only element-wise
// work among values compressed by the same mask and 0-d values keeps that
// true. While such work is recorded, t_compressed_mask is that mask's node
// in t_compressed_trace: classify takes values compressed by it, and the
// nodes recorded are compressed by it. Elsewhere classify refuses
// compressed values, so that no other recording reads one.
thread_local const Trace* t_compressed_trace = nullptr;
thread_local int t_compressed_mask = -1;

class CompressedOperands {
 public:
  CompressedOperands(const Trace* trace, int mask)
      : trace_(t_compressed_trace), mask_(t_compressed_mask) {
    t_compressed_trace = mask >= 0 ? trace : nullptr;
    t_compressed_mask = mask;
  }
  ~CompressedOperands() {
    t_compressed_trace = trace_;
    t_compressed_mask = mask_;
  }
  CompressedOperands(const CompressedOperands&) = delete;
  CompressedOperands& operator=(const CompressedOperands&) = delete;

 private:
  const Trace* trace_;
  int mask_;
};

// The mask the operands of an element-wise operation are compressed by
// (in the pending trace): -1 where none is, -2 where they do not combine
// so: values compressed by different masks, or a compressed one with an
// array of more than 0 dimensions, whose elements NumPy pairs with the
// compressed ones by position.
int compressed_operands_mask(PyObject* const* objects, int n) {
  const Trace* trace = pending_trace();
  int mask = -1;
  bool other_array = false;
  for (int i = 0; i < n; ++i) {
    PyObject* o = objects[i];
    if (is_lazy(o)) {
      const Trace* t = trace_of(o);
      if (t != trace || t->done) continue;  // not taken anyway
      const int by = t->eager[node_of(o)].compressed_by;
      if (by < 0) {
        other_array = other_array || !t->region.nodes[node_of(o)].shape.empty();
      } else if (mask >= 0 && by != mask) {
        return -2;
      } else {
        mask = by;
      }
    } else if (PyArray_Check(o)) {
      other_array = other_array || PyArray_NDIM(reinterpret_cast<PyArrayObject*>(o)) > 0;
    }
  }
  return mask >= 0 && other_array ? -2 : mask;
}

// Whether a lazy value of `trace` may be read here: not compressed, or
// compressed by the mask of the element-wise work being recorded.
bool takes_compressed(const Trace& trace, int node) {
  const int by = trace.eager[static_cast<std::size_t>(node)].compressed_by;
  if (by < 0 || (&trace == t_compressed_trace && by == t_compressed_mask)) return true;
  refuse(EagerReason::k_compressed);
  return false;
}

// Why an operand of this dtype is not traced, for the diagnostics.
void refuse_dtype(PyArray_Descr* descr) {
  if (!g_diagnostics) return;
  PyObject* name = PyObject_Str(reinterpret_cast<PyObject*>(descr));
  const char* text = name ? PyUnicode_AsUTF8(name) : nullptr;
  refuse(EagerReason::k_unsupported_dtype, text);
  Py_XDECREF(name);
  PyErr_Clear();
}

// What NumPy would see; false when the tracer cannot take the operand.
bool classify(PyObject* o, Operand& out) {
  out.object = o;
  if (is_lazy(o)) {
    Trace* trace = trace_of(o);
    if (trace->done || trace != pending_trace() || !takes_compressed(*trace, node_of(o))) return false;
    const jit::Node& node = trace->region.nodes[node_of(o)];
    if (jit::is_complex(node.dtype)) {  // only the complex recording reads them, as their parts
      refuse(EagerReason::k_complex_op);
      return false;
    }
    out.lazy = true;
    out.numpy_scalar = trace->eager[node_of(o)].gives_scalar;
    out.dtype = node.dtype;
    out.shape = node.shape;
    out.size = jit::element_count(node.shape);
    out.descr = reinterpret_cast<PyObject*>(PyArray_DescrFromType(typenum_of(node.dtype)));
    return out.descr != nullptr;
  }
  if (Py_TYPE(o) == &PyArray_Type) {
    auto* array = reinterpret_cast<PyArrayObject*>(o);
    const auto dtype = plain_dtype(PyArray_DESCR(array));
    if (!dtype) {
      refuse_dtype(PyArray_DESCR(array));
      return false;
    }
    out.dtype = *dtype;
    out.shape.assign(PyArray_DIMS(array), PyArray_DIMS(array) + PyArray_NDIM(array));
    out.size = PyArray_SIZE(array);
    out.descr = reinterpret_cast<PyObject*>(PyArray_DESCR(array));
    Py_INCREF(out.descr);
    return true;
  }
  if (PyBool_Check(o)) {
    out.weak = Weak::kBool;
    out.dtype = DType::kBool;
    return true;
  }
  if (PyLong_CheckExact(o)) {
    if (!python_int64(o)) {
      refuse(EagerReason::k_operand_kind);
      return false;
    }
    out.weak = Weak::kInt;
    out.dtype = DType::kInt64;
    return true;
  }
  if (PyFloat_CheckExact(o)) {
    out.weak = Weak::kFloat;
    out.dtype = DType::kFloat64;
    return true;
  }
  if (PyArray_IsScalar(o, Generic)) {
    out.numpy_scalar = true;
    PyArray_Descr* descr = PyArray_DescrFromScalar(o);
    if (!descr) {
      PyErr_Clear();
      return false;
    }
    const auto dtype = dtype_of_typenum(descr->type_num);
    out.descr = reinterpret_cast<PyObject*>(descr);
    if (!dtype) {
      refuse_dtype(descr);
      return false;
    }
    out.dtype = *dtype;
    return true;
  }
  refuse(EagerReason::k_operand_kind);
  return false;
}

// A complex128 array or pending value, as the prototype of a *_like call
// (its shape, dtype and whether it is lazy; the complex recording alone
// reads its values).
bool complex_array_or_lazy(PyObject* o, Operand& out) {
  if (is_lazy(o)) {
    Trace* trace = trace_of(o);
    const jit::Node& node = trace->region.nodes[node_of(o)];
    if (trace->done || trace != pending_trace() || node.dtype != DType::kComplex128 ||
        trace->eager[node_of(o)].compressed_by >= 0) {
      return false;
    }
    out.lazy = true;
    out.shape = node.shape;
  } else if (Py_TYPE(o) == &PyArray_Type) {
    auto* a = reinterpret_cast<PyArrayObject*>(o);
    const PyArray_Descr* descr = PyArray_DESCR(a);
    if (descr->type_num != NPY_CDOUBLE || !PyArray_ISNBO(descr->byteorder) || PyDataType_METADATA(descr)) return false;
    out.shape.assign(PyArray_DIMS(a), PyArray_DIMS(a) + PyArray_NDIM(a));
  } else {
    return false;
  }
  out.object = o;
  out.dtype = DType::kComplex128;
  out.size = jit::element_count(out.shape);
  out.descr = reinterpret_cast<PyObject*>(PyArray_DescrFromType(NPY_CDOUBLE));
  return true;
}

// Whether an object may start or extend a region: a lazy value, or an
// array big enough to trace. Everything else is answered here, before any
// work, so that small-array code pays next to nothing.
[[gnu::always_inline]] inline bool may_trace(PyObject* o) {
  if (is_lazy(o)) return true;
  return Py_TYPE(o) == &PyArray_Type && element_count(reinterpret_cast<PyArrayObject*>(o)) >= kMinTracedElements;
}

// NumPy's error state and the warnings filters allow deferring reports.
// Looked at when a region opens: neither can change while one is pending,
// since whatever changes them (np.seterr, errstate, warnings.simplefilter)
// is a call that computes the pending region first.
bool state_allows_tracing() {
  if (pending_trace() != nullptr) return true;
  const Deferral deferral = regions_defer();
  g_regions_end_at_lines = deferral == Deferral::kToLineEnd;
  if (deferral != Deferral::kNone) return true;
  refuse(EagerReason::k_error_state);
  return false;
}

bool worth_tracing(const Operand* const* operands, int n) {
  if (running_trace()) return false;
  for (int i = 0; i < n; ++i) {
    if (operands[i]->lazy || operands[i]->size >= kMinTracedElements) {
      if (operands[i]->lazy || operands[i]->weak == Weak::kNone) return true;
    }
  }
  refuse(EagerReason::k_small_arrays);
  return false;
}

bool broadcast(const Operand* const* operands, int n, Shape& out) {
  std::size_t rank = 0;
  for (int i = 0; i < n; ++i) rank = std::max(rank, operands[i]->shape.size());
  out.assign(rank, 1);
  for (int i = 0; i < n; ++i) {
    const Shape& s = operands[i]->shape;
    for (std::size_t k = 0; k < s.size(); ++k) {
      std::int64_t& d = out[rank - s.size() + k];
      if (s[k] == d || s[k] == 1) continue;
      if (d != 1) {
        refuse(EagerReason::k_shapes);
        return false;
      }
      d = s[k];
    }
  }
  return true;
}

// The descriptor or Python type resolve_dtypes takes for an operand.
PyObject* dtype_key(const Operand& o) {
  switch (o.weak) {
    case Weak::kBool: return reinterpret_cast<PyObject*>(&PyBool_Type);
    case Weak::kInt: return reinterpret_cast<PyObject*>(&PyLong_Type);
    case Weak::kFloat: return reinterpret_cast<PyObject*>(&PyFloat_Type);
    case Weak::kNone: return o.descr;
  }
  return nullptr;
}

int key_code(const Operand& o) {
  return o.weak == Weak::kNone ? static_cast<int>(o.dtype) : 100 + static_cast<int>(o.weak);
}

struct Resolved {
  bool ok = false;
  DType compute = DType::kFloat64;
  DType result = DType::kFloat64;
};

// NumPy's own type resolution for a ufunc over these operands (NEP 50).
Resolved resolve_ufunc(PyObject* ufunc, const Operand* const* operands, int n) {
  static std::map<std::tuple<PyObject*, int, int, int>, Resolved> cache;
  const auto key = std::make_tuple(ufunc, key_code(*operands[0]), n > 1 ? key_code(*operands[1]) : -1,
                                   n > 2 ? key_code(*operands[2]) : -1);
  const auto found = cache.find(key);
  if (found != cache.end()) return found->second;
  Resolved r;
  PyObject* dtypes = PyTuple_New(n + 1);
  for (int i = 0; i < n; ++i) PyTuple_SET_ITEM(dtypes, i, Py_NewRef(dtype_key(*operands[i])));
  PyTuple_SET_ITEM(dtypes, n, Py_NewRef(Py_None));
  PyObject* loop = PyObject_CallMethod(ufunc, "resolve_dtypes", "(O)", dtypes);
  Py_DECREF(dtypes);
  if (loop && PyTuple_Check(loop) && PyTuple_GET_SIZE(loop) == n + 1) {
    auto typenum = [&](int i) {
      return reinterpret_cast<PyArray_Descr*>(PyTuple_GET_ITEM(loop, i))->type_num;
    };
    const auto compute = dtype_of_typenum(typenum(0));
    const auto result = dtype_of_typenum(typenum(n));
    bool same_inputs = true;
    for (int i = 1; i < n; ++i) same_inputs = same_inputs && typenum(i) == typenum(0);
    if (compute && result && same_inputs) r = {true, *compute, *result};
  }
  Py_XDECREF(loop);
  PyErr_Clear();
  cache.emplace(key, r);
  return r;
}

// A Python int must fit the integer type it is computed in (NumPy raises
// OverflowError otherwise, which eager evaluation reports).
bool weak_int_fits(const Operand& o, DType compute) {
  if (o.weak != Weak::kInt || jit::is_float(compute)) return true;
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(o.object, &overflow);
  if (overflow || (v == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    return false;
  }
  const int bits = jit::itemsize(compute) * 8;
  if (compute == DType::kBool) return v == 0 || v == 1;
  if (jit::is_unsigned(compute)) return v >= 0 && (bits == 64 || v < (1LL << bits));
  return bits == 64 || (v >= -(1LL << (bits - 1)) && v < (1LL << (bits - 1)));
}

// Two array objects that are the same view of the same memory (each
// `solutions[:, 0]` is a new object): one input, read once by a kernel.
bool same_memory(PyObject* a, PyObject* b) {
  if (!PyArray_CheckExact(a) || !PyArray_CheckExact(b)) return false;
  auto* x = reinterpret_cast<PyArrayObject*>(a);
  auto* y = reinterpret_cast<PyArrayObject*>(b);
  const int nd = PyArray_NDIM(x);
  return PyArray_DATA(x) == PyArray_DATA(y) && nd == PyArray_NDIM(y) &&
         PyArray_EquivTypes(PyArray_DESCR(x), PyArray_DESCR(y)) &&
         std::equal(PyArray_DIMS(x), PyArray_DIMS(x) + nd, PyArray_DIMS(y)) &&
         std::equal(PyArray_STRIDES(x), PyArray_STRIDES(x) + nd, PyArray_STRIDES(y));
}

int input_node(Trace& trace, const Operand& o) {
  if (o.lazy) return node_of(o.object);
  for (const auto& [object, node] : trace.input_nodes) {
    if (object == o.object || same_memory(object, o.object)) return node;
  }
  jit::Node node;
  node.op = Op::input;
  node.dtype = o.dtype;
  node.compute = o.dtype;
  if (o.weak != Weak::kNone) {
    node.is_scalar_constant = true;
    if (o.weak == Weak::kFloat) {
      node.constant_float = PyFloat_AS_DOUBLE(o.object);
    } else {
      node.constant_int = PyLong_AsLongLong(o.object);
      if (node.constant_int == -1 && PyErr_Occurred()) PyErr_Clear();
      node.constant_float = static_cast<double>(node.constant_int);
    }
  } else {
    node.shape = o.shape;  // an array (where its data is, the runner reads from the object)
    if (PyArray_Check(o.object)) {
      auto* a = reinterpret_cast<PyArrayObject*>(o.object);
      for (int d = PyArray_NDIM(a); d-- > 0;) {
        if (PyArray_DIM(a, d) == 1) continue;
        node.stepped = PyArray_STRIDE(a, d) != PyArray_ITEMSIZE(a);
        break;
      }
    }
  }
  // NumPy scalars are 0-D inputs whose value is read from the object.
  const int index = trace.region.add(std::move(node));
  trace.eager.emplace_back();
  trace.objects.push_back(Py_NewRef(o.object));
  trace.handles.push_back(0);
  trace.input_nodes.emplace_back(o.object, index);
  return index;
}

// Whether the system would refuse NumPy the memory of an array of `shape`
// and `dtype` now. Such an operation is left to NumPy, which raises its
// MemoryError at the call, as under python3, rather than recorded and
// failing (or, as a temporary no kernel writes, succeeding) where the region
// is computed. Arrays of 16 MiB and more are tried, by mapping their memory
// as malloc does for such sizes and unmapping it untouched (no page is
// faulted in): through malloc, the free would raise glibc's threshold for
// mapping memory, and so change where the program's own arrays come from.
bool allocation_refused(const Shape& shape, DType dtype) {
  constexpr std::int64_t kTriedBytes = std::int64_t{16} << 20;
  std::int64_t bytes = jit::itemsize(dtype);
  for (std::int64_t d : shape) {
    if (d != 0 && bytes > std::numeric_limits<std::int64_t>::max() / d) {
      refuse(EagerReason::k_memory);
      return true;
    }
    bytes *= d;
  }
  if (bytes < kTriedBytes) return false;
  void* memory = mmap(nullptr, static_cast<std::size_t>(bytes), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                      -1, 0);
  if (memory == MAP_FAILED) {
    refuse(EagerReason::k_memory);
    return true;
  }
  munmap(memory, static_cast<std::size_t>(bytes));
  return false;
}

int add_node(Trace& trace, jit::Node node, EagerForm form, const Location& where) {
  const jit::OpKind kind = jit::op_info(node.op).kind;
  // np.where and astype give 0-d arrays where ufuncs give scalars.
  form.gives_scalar = node.shape.empty() && kind != jit::OpKind::kCast && node.op != Op::where;
  node.site = site_of(where);
  const SiteInfo* site = site_info(node.site);
  trace.last_op_line = site ? site->lineno : -1;
  if (&trace == t_compressed_trace) form.compressed_by = t_compressed_mask;
  const int index = trace.region.add(std::move(node));
  if (trace.recorded_at.size() <= static_cast<std::size_t>(index)) trace.recorded_at.resize(index + 1);
  trace.recorded_at[index] = RecordedAt{where.code, where.offset};
  trace.eager.push_back(std::move(form));
  trace.objects.push_back(nullptr);
  trace.handles.push_back(0);
  return index;
}

// A complex128 value over its parts' float64 nodes `re` and `im`, computed
// through NumPy as `form` says.
int complex_value_node(Trace& trace, const Shape& shape, int re, int im, EagerForm form, const Location& where) {
  jit::Node value;
  value.op = Op::complex;
  value.dtype = DType::kComplex128;
  value.compute = DType::kFloat64;
  value.shape = shape;
  value.inputs[0] = re;
  value.inputs[1] = im;
  return add_node(trace, std::move(value), std::move(form), where);
}

// Whether the operand is a Python int of 0 or more.
bool is_non_negative_int(const Operand& operand) {
  if (operand.weak != Weak::kInt) return false;
  int overflow = 0;
  const long long value = PyLong_AsLongLongAndOverflow(operand.object, &overflow);
  if (value == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    return false;
  }
  return overflow > 0 || (overflow == 0 && value >= 0);
}

// Adds `op` over the operands, computing the result of `form`; returns a new
// lazy value, or nullptr without exception when not traced.
PyObject* record_elementwise(Op op, const Operand* const* operands, int n, EagerForm form,
                             const Location& where, PyObject* in_place_target) {
  if (!worth_tracing(operands, n) || !state_allows_tracing()) return nullptr;
  Shape shape;
  if (!broadcast(operands, n, shape)) return nullptr;
  DType compute = DType::kFloat64;
  DType result = DType::kFloat64;
  if (op == Op::where) {
    PyObject* result_type = numpy_attr("result_type");
    if (!result_type) return nullptr;
    PyObject* a = operands[1]->weak != Weak::kNone ? operands[1]->object : operands[1]->descr;
    PyObject* b = operands[2]->weak != Weak::kNone ? operands[2]->object : operands[2]->descr;
    PyObject* descr = PyObject_CallFunctionObjArgs(result_type, a, b, nullptr);
    if (!descr) {
      PyErr_Clear();
      return nullptr;
    }
    const auto dtype = dtype_of_typenum(reinterpret_cast<PyArray_Descr*>(descr)->type_num);
    Py_DECREF(descr);
    if (!dtype) return nullptr;
    compute = result = *dtype;
  } else {
    PyObject* ufunc = ufunc_of(op);
    if (!ufunc) return nullptr;
    const Resolved r = resolve_ufunc(ufunc, operands, n);
    if (!r.ok) return nullptr;
    compute = r.compute;
    result = r.result;
  }
  for (int i = 0; i < n; ++i) {
    const DType as = op == Op::where ? result : compute;
    if (!weak_int_fits(*operands[i], as)) return nullptr;
    // A Python float beyond float32's range overflows as NumPy casts it,
    // which NumPy reports at the line itself.
    if (operands[i]->weak == Weak::kFloat && as == DType::kFloat32) {
      const double v = PyFloat_AS_DOUBLE(operands[i]->object);
      if (std::isfinite(v) && std::fabs(v) > 3.4028234663852886e38) return nullptr;
    }
  }
  // Integers to negative powers raise, depending on the data: NumPy must
  // see them at the line itself. A Python int exponent of 0 or more cannot
  // be negative anywhere.
  if (op == Op::power && !jit::is_float(compute) && !is_non_negative_int(*operands[1])) {
    refuse(EagerReason::k_integer_power);
    return nullptr;
  }
  // Operators on NumPy scalars (and Python numbers) take NumPy's scalar
  // math, or its array path where the types differ, with their own rules
  // for warnings (integer overflow, "scalar <op>" messages). Recorded there:
  // the operators that never warn (comparisons, logical and bitwise ones),
  // and float arithmetic on a pending value (a reduction's result) whose op
  // has no algorithm of NumPy's own (+ - * / and the signs: IEEE operations,
  // the same bits in scalar and array math). A flag such an op raises sends
  // the region through NumPy, which then does the scalar math and warns as
  // it does. Operators on scalars that exist already stay NumPy's: its
  // scalar math is faster than a region.
  bool scalar_math = form.kind != EagerForm::Kind::kCall;  // a ufunc call is array math
  bool any_pending = false;
  for (int i = 0; i < n; ++i) {
    scalar_math = scalar_math && (operands[i]->weak != Weak::kNone || operands[i]->numpy_scalar);
    any_pending = any_pending || operands[i]->lazy;
  }
  const bool never_warns = result == DType::kBool || op == Op::bitwise_and || op == Op::bitwise_or ||
                           op == Op::bitwise_xor;
  const bool exact_float_math = any_pending && jit::is_float(result) && !jit::op_info(op).numpy_loop;
  if (scalar_math && !never_warns && !exact_float_math) {
    refuse(EagerReason::k_scalar_math);
    return nullptr;
  }
  form.scalar_math = scalar_math;
  const bool lazy_target = in_place_target && is_lazy(in_place_target);
  if (in_place_target && (result != operands[0]->dtype || shape != operands[0]->shape)) return nullptr;
  if (!lazy_target && allocation_refused(shape, result)) return nullptr;
  std::shared_ptr<Trace> trace = open_trace();
  if (trace->region.nodes.size() > kMaxRegionNodes) {
    if (flush(Reason::k_size_cap, where, nullptr) < 0) return nullptr;
    return nullptr;
  }
  jit::Node node;
  node.op = op;
  node.dtype = result;
  node.compute = compute;
  node.shape = std::move(shape);
  for (int i = 0; i < n; ++i) node.inputs[i] = input_node(*trace, *operands[i]);
  form.arg_nodes.assign(node.inputs, node.inputs + n);
  form.constants.assign(n, nullptr);
  const int index = add_node(*trace, std::move(node), std::move(form), where);
  if (lazy_target) {
    // The target stays what it was: NumPy's in-place operator gives a 0-d
    // array back as itself, not as a scalar.
    trace->eager[index].gives_scalar = trace->eager[node_of(in_place_target)].gives_scalar;
    retarget_lazy(in_place_target, index);
    return Py_NewRef(in_place_target);
  }
  // An array only the program's name for it holds becomes the new value
  // (the interpreter stores the operator's result under that name).
  if (in_place_target) trace->eager[index].gives_scalar = false;
  return new_lazy(trace, index);
}

Op operator_op(int nb_op) {
  switch (nb_op % NB_INPLACE_ADD) {
    case NB_ADD: return Op::add;
    case NB_SUBTRACT: return Op::subtract;
    case NB_MULTIPLY: return Op::multiply;
    case NB_TRUE_DIVIDE: return Op::divide;
    case NB_FLOOR_DIVIDE: return Op::floor_divide;
    case NB_REMAINDER: return Op::remainder;
    case NB_POWER: return Op::power;
    case NB_AND: return Op::bitwise_and;
    case NB_OR: return Op::bitwise_or;
    case NB_XOR: return Op::bitwise_xor;
    case NB_LSHIFT: return Op::left_shift;
    case NB_RSHIFT: return Op::right_shift;
    default: return Op::input;
  }
}

Op compare_op(int op) {
  switch (op) {
    case Py_LT: return Op::less;
    case Py_LE: return Op::less_equal;
    case Py_EQ: return Op::equal;
    case Py_NE: return Op::not_equal;
    case Py_GT: return Op::greater;
    case Py_GE: return Op::greater_equal;
    default: return Op::input;
  }
}

// ---- calls ----

struct CallArgs {
  jit::PerOperand<PyObject*> positional;  // borrowed
  std::vector<std::pair<std::string, PyObject*>> keywords;

  PyObject* keyword(const char* name) const {
    for (const auto& [k, v] : keywords) {
      if (k == name) return v;
    }
    return nullptr;
  }
  bool only_keywords(std::initializer_list<const char*> allowed) const {
    for (const auto& kv : keywords) {
      bool ok = false;
      for (const char* a : allowed) ok = ok || kv.first == a;
      if (!ok) return false;
    }
    return true;
  }
};

bool parse_axes(PyObject* axis, int rank, bool tuple_allowed, std::uint32_t& mask) {
  mask = 0;
  if (!axis || axis == Py_None) {
    mask = rank >= 32 ? 0xffffffffu : (1u << rank) - 1;
    return rank < 32;
  }
  auto add = [&](PyObject* item) {
    if (!PyLong_CheckExact(item)) return false;
    long a = PyLong_AsLong(item);
    if (a == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      return false;
    }
    if (a < 0) a += rank;
    if (a < 0 || a >= rank || (mask & (1u << a))) return false;
    mask |= 1u << a;
    return true;
  };
  if (PyTuple_CheckExact(axis)) {
    if (!tuple_allowed) return false;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(axis); ++i) {
      if (!add(PyTuple_GET_ITEM(axis, i))) return false;
    }
    return true;
  }
  return add(axis);
}

std::optional<DType> reduction_dtype(Op op, DType in) {
  switch (op) {
    case Op::sum:
    case Op::prod:
    case Op::cumsum:
    case Op::cumprod:
      if (in == DType::kBool || (jit::is_signed_int(in) && in != DType::kInt64)) return DType::kInt64;
      if (jit::is_unsigned(in) && in != DType::kUInt64) return DType::kUInt64;
      return in;
    case Op::min:
    case Op::max: return in;
    case Op::mean:
      // NumPy adds bool and 8- and 16-bit integers as float64, exactly (no
      // sum of them reaches 2**53), so their mean is their integer sum over
      // the count, whatever order adds them.
      if (in == DType::kBool || jit::itemsize(in) <= 2) return DType::kFloat64;
      if (!jit::is_float(in)) return std::nullopt;
      return in;
    case Op::argmin:
    case Op::argmax: return DType::kInt64;
    case Op::any:
    case Op::all: return DType::kBool;
    default: return std::nullopt;
  }
}

// The program's call as eager NumPy makes it: `callable` with the node's
// value first, then the call's other positional arguments and keywords.
EagerForm program_call(PyObject* callable, int first_node, const CallArgs& call) {
  EagerForm form;
  form.kind = EagerForm::Kind::kCall;
  form.callable = Py_NewRef(callable);
  form.arg_nodes.push_back(first_node);
  form.constants.push_back(nullptr);
  for (std::size_t i = 1; i < call.positional.size(); ++i) {
    form.arg_nodes.push_back(-1);
    form.constants.push_back(Py_NewRef(call.positional[i]));
  }
  if (!call.keywords.empty()) {
    form.kwargs = PyDict_New();
    for (const auto& [k, v] : call.keywords) PyDict_SetItemString(form.kwargs, k.c_str(), v);
  }
  return form;
}

PyObject* record_vector_norm(double ord, PyObject* callable, const CallArgs& call, const Location& where);
PyObject* record_norm_across(const Operand& x, DType dtype, std::uint32_t mask, bool keepdims, PyObject* callable,
                             const CallArgs& call, const Location& where);

// A node of `op` over the axes in `mask` of x (a reduction, a norm, a
// scan) into a `result` of `shape`, computed eagerly by the program's call.
PyObject* record_over_axes(Op op, DType result, const Operand& x, Shape shape, std::uint32_t mask, bool keepdims,
                           PyObject* callable, const CallArgs& call, const Location& where) {
  std::shared_ptr<Trace> trace = open_trace();
  jit::Node node;
  node.op = op;
  node.dtype = result;
  node.compute = x.dtype;
  node.shape = std::move(shape);
  node.axes = mask;
  node.keepdims = keepdims;
  node.inputs[0] = input_node(*trace, x);
  EagerForm eager = program_call(callable, node.inputs[0], call);
  const int index = add_node(*trace, std::move(node), std::move(eager), where);
  return new_lazy(trace, index);
}

PyObject* record_reduction(Op op, CallForm form_kind, PyObject* callable, const CallArgs& call,
                           const Location& where) {
  const bool method = form_kind == CallForm::kReduceMethod;
  const std::size_t npos = call.positional.size();
  if (npos < 1 || npos > 2) return nullptr;
  const bool norm = op == Op::norm;
  if (norm) {
    if (npos != 1 || !call.only_keywords({"axis", "keepdims", "ord"})) return nullptr;
    PyObject* ord = call.keyword("ord");
    if (ord && ord != Py_None) {
      // ord=2 is the default norm of what is traced (vectors, one axis).
      const double value = PyLong_CheckExact(ord) || PyFloat_CheckExact(ord) ? PyFloat_AsDouble(ord) : 0.0;
      if (PyErr_Occurred()) PyErr_Clear();
      if (value == 1.0 || std::isinf(value)) return record_vector_norm(value, callable, call, where);
      if (value != 2.0) return nullptr;
    }
  } else if (!call.only_keywords({"axis", "keepdims"})) {
    return nullptr;
  }
  PyObject* axis = npos == 2 ? call.positional[1] : call.keyword("axis");
  if (npos == 2 && call.keyword("axis")) return nullptr;
  PyObject* keepdims_obj = call.keyword("keepdims");
  if (keepdims_obj && !PyBool_Check(keepdims_obj)) return nullptr;
  const bool keepdims = keepdims_obj == Py_True;
  Operand x;
  if (!classify(call.positional[0], x) || x.weak != Weak::kNone) return nullptr;
  if (method && ((!x.lazy && Py_TYPE(x.object) != &PyArray_Type) || (x.lazy && x.shape.empty()))) {
    return nullptr;  // a NumPy scalar's method, not ndarray's
  }
  const Operand* ops[] = {&x};
  if (!worth_tracing(ops, 1) || !state_allows_tracing()) return nullptr;
  const int rank = static_cast<int>(x.shape.size());
  const bool single_axis = jit::gives_index(op) || norm;
  std::uint32_t mask = 0;
  if (!parse_axes(axis, rank, !single_axis, mask)) return nullptr;
  if (norm && (axis == nullptr || axis == Py_None) && rank > 1) return nullptr;
  // NumPy's argmin/argmax over all axes flattens, which is all axes here.
  std::int64_t reduced = 1;
  Shape shape;
  for (int d = 0; d < rank; ++d) {
    if (mask & (1u << d)) {
      reduced *= x.shape[d];
      if (keepdims) shape.push_back(1);
    } else {
      shape.push_back(x.shape[d]);
    }
  }
  const bool needs_elements = jit::keeps_extreme(op) || op == Op::mean;
  if (needs_elements && reduced == 0) return nullptr;
  std::optional<DType> result = norm ? (jit::is_float(x.dtype) ? std::optional<DType>(x.dtype)
                                                                : std::nullopt)
                                     : reduction_dtype(op, x.dtype);
  if (!result) return nullptr;
  if (norm && allocation_refused(x.shape, *result)) return nullptr;  // NumPy's x * x
  if (norm && rank > 1 && !(mask & (1u << (rank - 1)))) {
    return record_norm_across(x, *result, mask, keepdims, callable, call, where);
  }
  return record_over_axes(op, *result, x, std::move(shape), mask, keepdims, callable, call, where);
}

// np.cumsum(a, axis=None) and np.cumprod, and the methods a.cumsum(axis)
// and a.cumprod: a scan node (OpKind::kScan) along the axis, or along all
// of a's elements in C order, flat, without one. Of bool, integer and
// float arrays of one dimension or more, into sum's and prod's types;
// `dtype=` and `out=` are NumPy's.
PyObject* record_scan(Op op, PyObject* callable, const CallArgs& call, const Location& where) {
  const std::size_t npos = call.positional.size();
  if (npos < 1 || npos > 2 || !call.only_keywords({"axis"})) return nullptr;
  if (npos == 2 && call.keyword("axis")) return nullptr;
  PyObject* axis = npos == 2 ? call.positional[1] : call.keyword("axis");
  Operand x;
  if (!classify(call.positional[0], x) || x.weak != Weak::kNone || x.shape.empty()) return nullptr;
  if (!x.lazy && Py_TYPE(x.object) != &PyArray_Type) return nullptr;
  if (x.dtype == DType::kComplex128) return nullptr;
  const Operand* ops[] = {&x};
  if (!worth_tracing(ops, 1) || !state_allows_tracing()) return nullptr;
  const int rank = static_cast<int>(x.shape.size());
  std::uint32_t mask = 0;
  if (!parse_axes(axis, rank, false, mask)) return nullptr;
  const std::optional<DType> result = reduction_dtype(op, x.dtype);
  if (!result) return nullptr;
  const bool flat = rank > 1 && mask == (1u << rank) - 1;
  Shape shape = flat ? Shape{jit::element_count(x.shape)} : x.shape;
  if (allocation_refused(shape, *result)) return nullptr;
  return record_over_axes(op, *result, x, std::move(shape), mask, false, callable, call, where);
}

PyObject* record_astype(PyObject* callable, const CallArgs& call, const Location& where) {
  if (call.positional.size() != 2 || !call.keywords.empty()) return nullptr;
  Operand x;
  if (!classify(call.positional[0], x) || x.weak != Weak::kNone) return nullptr;
  if ((!x.lazy && Py_TYPE(x.object) != &PyArray_Type) || (x.lazy && x.shape.empty())) return nullptr;
  const Operand* ops[] = {&x};
  if (!worth_tracing(ops, 1) || !state_allows_tracing()) return nullptr;
  PyArray_Descr* descr = nullptr;
  if (!PyArray_DescrConverter2(call.positional[1], &descr) || !descr) {
    PyErr_Clear();
    return nullptr;
  }
  const auto dtype = plain_dtype(descr);
  Py_DECREF(descr);
  if (!dtype || allocation_refused(x.shape, *dtype)) return nullptr;
  std::shared_ptr<Trace> trace = open_trace();
  jit::Node node;
  node.op = Op::astype;
  node.dtype = *dtype;
  node.compute = x.dtype;
  node.shape = x.shape;
  node.inputs[0] = input_node(*trace, x);
  EagerForm eager;
  eager.kind = EagerForm::Kind::kCall;
  eager.callable = Py_NewRef(callable);
  eager.arg_nodes = {node.inputs[0], -1};
  eager.constants = {nullptr, Py_NewRef(call.positional[1])};
  // ndarray.astype is C called from the program: NumPy reports a bad cast
  // at the program's line.
  eager.reports_at_call_site = true;
  eager.ufunc_name = "cast";
  const int index = add_node(*trace, std::move(node), std::move(eager), where);
  return new_lazy(trace, index);
}

// A shape argument NumPy's creation functions take: an int or a tuple or
// list of ints, none negative. False for anything else (NumPy decides).
bool parse_shape(PyObject* o, Shape& out) {
  out.clear();
  auto dim = [&out](PyObject* d) {
    if (!PyLong_CheckExact(d)) return false;
    const long long v = PyLong_AsLongLong(d);
    if (v < 0) {
      PyErr_Clear();
      return false;
    }
    out.push_back(v);
    return true;
  };
  if (PyTuple_CheckExact(o) || PyList_CheckExact(o)) {
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
    if (n > NPY_MAXDIMS) return false;
    for (Py_ssize_t i = 0; i < n; ++i) {
      if (!dim(PySequence_Fast_GET_ITEM(o, i))) return false;
    }
    return true;
  }
  return dim(o);
}

// Whether converting `fill` to `to` (NumPy's unsafe cast in np.full) can
// warn: floats into integers or bools (NaN, infinities), floats beyond
// float32's range, NumPy scalars of another type. Such calls stay eager, so
// that the warning comes once, from NumPy.
bool fill_may_warn(const Operand& fill, std::optional<DType> target) {
  if (!target) return true;
  const DType to = *target;
  if (fill.numpy_scalar) return fill.dtype != to;
  if (fill.weak != Weak::kFloat) return false;
  if (!jit::is_float(to)) return true;
  const double v = PyFloat_AS_DOUBLE(fill.object);
  return to == DType::kFloat32 && std::isfinite(v) && std::fabs(v) > 3.4028234663852886e38;
}

// The dtype np.full / full_like converts its fill value to, or nullopt
// when the call names one the tracer does not know (it is left to NumPy).
std::optional<DType> fill_target(bool like, const CallArgs& call, const Operand& prototype, const Operand& fill) {
  PyObject* named = call.positional.size() > 2 ? call.positional[2] : call.keyword("dtype");
  if (named && named != Py_None) {
    PyArray_Descr* descr = nullptr;
    if (!PyArray_DescrConverter2(named, &descr) || !descr) {
      PyErr_Clear();
      return std::nullopt;
    }
    const auto dtype = plain_dtype(descr);
    Py_DECREF(descr);
    return dtype;
  }
  if (like) return prototype.dtype;
  if (fill.weak == Weak::kFloat && default_float32()) return DType::kFloat32;
  return fill.dtype;
}

// The program's creation call as eager NumPy makes it: its arguments as
// given, plus dtype=float32 where NPY_DEFAULT_FLOAT gave the node that type.
EagerForm creation_call(PyObject* callable, const CallArgs& call, bool add_float32) {
  EagerForm eager;
  eager.kind = EagerForm::Kind::kCall;
  eager.callable = Py_NewRef(callable);
  for (PyObject* arg : call.positional) {
    eager.arg_nodes.push_back(-1);
    eager.constants.push_back(Py_NewRef(arg));
  }
  if (!call.keywords.empty() || add_float32) {
    eager.kwargs = PyDict_New();
    for (const auto& [k, v] : call.keywords) PyDict_SetItemString(eager.kwargs, k.c_str(), v);
    if (add_float32) PyDict_SetItemString(eager.kwargs, "dtype", numpy_attr("float32"));
  }
  return eager;
}

// Whether a lazy value comes out in C order whatever layouts the region's
// inputs have when it runs: NumPy lays a result out as its inputs are
// (region_runner.cpp), so none of the arrays it is computed from (inputs,
// and views the region makes) may be of two or more dimensions unless it is
// a C-contiguous input.
bool lazy_is_c_ordered(const Trace& trace, int index) {
  std::vector<bool> seen(trace.region.nodes.size(), false);
  std::vector<int> pending{index};
  while (!pending.empty()) {
    const int i = pending.back();
    pending.pop_back();
    if (seen[i]) continue;
    seen[i] = true;
    const jit::Node& node = trace.region.nodes[i];
    const bool layout_shows = node.shape.size() >= 2 && jit::element_count(node.shape) > 1;
    if (layout_shows && node.op == Op::view) return false;
    if (layout_shows && node.op == Op::input) {
      PyObject* o = trace.objects[i];
      if (!o || !PyArray_Check(o) || !PyArray_IS_C_CONTIGUOUS(reinterpret_cast<PyArrayObject*>(o))) return false;
    }
    for (int input : node.inputs) {
      if (input >= 0) pending.push_back(input);
    }
  }
  return true;
}

// A *_like call on a lazy prototype as the plain creation call eager NumPy
// makes the same array with (a lazy value is a C-ordered ndarray): zeros,
// ones, empty or full over the prototype's shape, in the named dtype or the
// prototype's, so that the call needs no value of the prototype, which the
// region may never compute (only its shape and dtype are used).
EagerForm like_call_on_lazy(PyObject* callable, const CallArgs& call, const Operand& prototype) {
  const char* const names[][2] = {{"zeros_like", "zeros"}, {"ones_like", "ones"},
                                  {"empty_like", "empty"}, {"full_like", "full"}};
  PyObject* plain = nullptr;
  for (const auto& [like_name, plain_name] : names) {
    if (callable == numpy_attr(like_name)) plain = numpy_attr(plain_name);
  }
  EagerForm eager;
  eager.kind = EagerForm::Kind::kCall;
  eager.callable = Py_NewRef(plain);
  PyObject* shape = PyTuple_New(static_cast<Py_ssize_t>(prototype.shape.size()));
  for (std::size_t d = 0; d < prototype.shape.size(); ++d) {
    PyTuple_SET_ITEM(shape, static_cast<Py_ssize_t>(d), PyLong_FromLongLong(prototype.shape[d]));
  }
  eager.arg_nodes.push_back(-1);
  eager.constants.push_back(shape);
  const bool full = callable == numpy_attr("full_like");
  const std::size_t dtype_at = full ? 2 : 1;  // (prototype, [fill_value,] dtype)
  PyObject* dtype = call.positional.size() > dtype_at ? call.positional[dtype_at] : call.keyword("dtype");
  for (std::size_t i = 1; i < call.positional.size() && i < dtype_at; ++i) {
    eager.arg_nodes.push_back(-1);
    eager.constants.push_back(Py_NewRef(call.positional[i]));
  }
  eager.kwargs = PyDict_New();
  PyObject* fill = call.keyword("fill_value");
  if (fill) PyDict_SetItemString(eager.kwargs, "fill_value", fill);
  PyDict_SetItemString(eager.kwargs, "dtype", dtype && dtype != Py_None ? dtype : prototype.descr);
  return eager;
}

// A 0-d array of `dtype` holding `value` (converted in C, as NumPy's
// setitem converts a Python number).
PyObject* zero_d_of(DType dtype, double value_f, std::int64_t value_i) {
  PyObject* a = PyArray_SimpleNew(0, nullptr, typenum_of(dtype));
  if (!a) return nullptr;
  void* data = PyArray_DATA(reinterpret_cast<PyArrayObject*>(a));
  switch (dtype) {
    case DType::kFloat64: std::memcpy(data, &value_f, 8); break;
    case DType::kFloat32: {
      const auto f = static_cast<float>(value_f);
      std::memcpy(data, &f, 4);
      break;
    }
    case DType::kInt32: {
      const auto i = static_cast<std::int32_t>(value_i);
      std::memcpy(data, &i, 4);
      break;
    }
    default: std::memcpy(data, &value_i, 8); break;
  }
  return a;
}

// np.zeros, ones, full and their *_like forms: a `full` node broadcasting
// a 0-d value over the result's shape, which kernels read as a constant.
// The 0-d value is made by the same function called with shape () (or a
// 0-d prototype), so that NumPy decides its dtype and value, NPY_DEFAULT_FLOAT
// included. A filled array that leaves the region is made by the program's
// own call (jit/fusion.cpp). np.empty and empty_like are filled with zero
// (made by zeros or zeros_like): what they hold is unspecified, and one that
// leaves the region unwritten is the program's own call's memory.
PyObject* record_creation(bool like, PyObject* callable, PyObject* const* args, Py_ssize_t nargs,
                          PyObject* kwnames, const CallArgs& call, const Location& where) {
  const bool full = like ? callable == numpy_attr("full_like") : callable == numpy_attr("full");
  const bool empty = like ? callable == numpy_attr("empty_like") : callable == numpy_attr("empty");
  PyObject* zero_d_maker = empty ? numpy_attr(like ? "zeros_like" : "zeros") : callable;
  if (!zero_d_maker) return nullptr;
  const std::size_t most_positional = full ? 3 : 2;  // (shape or prototype, [fill_value,] dtype)
  if (call.positional.empty() || call.positional.size() > most_positional) return nullptr;
  if (!call.only_keywords({"dtype", "order", "fill_value"})) return nullptr;
  PyObject* order = call.keyword("order");
  if (order && !(PyUnicode_Check(order) && (PyUnicode_CompareWithASCIIString(order, "C") == 0 ||
                                            (like && PyUnicode_CompareWithASCIIString(order, "K") == 0)))) {
    PyErr_Clear();
    return nullptr;
  }
  if (running_trace() || !state_allows_tracing()) return nullptr;
  Operand prototype;
  Shape shape;
  const bool complex_prototype = like && complex_array_or_lazy(call.positional[0], prototype);
  if (like) {
    // The result takes the prototype's layout: C order for a lazy value
    // that comes out so, or a C-contiguous array.
    if (!complex_prototype &&
        (!classify(call.positional[0], prototype) || prototype.weak != Weak::kNone || prototype.numpy_scalar)) {
      return nullptr;
    }
    if (prototype.lazy) {
      if (!lazy_is_c_ordered(*trace_of(prototype.object), node_of(prototype.object))) return nullptr;
    } else if (!PyArray_IS_C_CONTIGUOUS(reinterpret_cast<PyArrayObject*>(prototype.object))) {
      return nullptr;
    }
    shape = prototype.shape;
  } else if (!parse_shape(call.positional[0], shape)) {
    return nullptr;
  }
  if (jit::element_count(shape) < kMinTracedElements) {
    refuse(EagerReason::k_small_arrays);
    return nullptr;
  }
  PyObject* fill = full ? (call.positional.size() > 1 ? call.positional[1] : call.keyword("fill_value")) : nullptr;
  Operand fill_operand;
  // A complex fill makes a complex array, quietly, where no dtype is named
  // (a real prototype's dtype would discard its imaginary part, warning).
  const bool complex_fill = fill && (PyComplex_CheckExact(fill) || PyArray_IsScalar(fill, CDouble)) &&
                            (!like || complex_prototype) && call.positional.size() <= 2 &&
                            !call.keyword("dtype");
  if (full && !complex_fill &&
      (!fill || !classify(fill, fill_operand) || fill_operand.lazy ||
       (fill_operand.weak == Weak::kNone && !fill_operand.numpy_scalar) ||
       fill_may_warn(fill_operand, fill_target(like, call, prototype, fill_operand)))) {
    return nullptr;
  }

  // The 0-d value, made as the program's call would make it.
  PyObject* zero_d_prototype = nullptr;
  if (like) {
    Py_INCREF(prototype.descr);
    zero_d_prototype = PyArray_Zeros(0, nullptr, reinterpret_cast<PyArray_Descr*>(prototype.descr), 0);
    if (!zero_d_prototype) {
      PyErr_Clear();
      return nullptr;
    }
  }
  PyObject* empty_shape = like ? nullptr : PyTuple_New(0);
  std::vector<PyObject*> zero_d_args(args, args + nargs + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0));
  zero_d_args[0] = like ? zero_d_prototype : empty_shape;
  bool default_float = false;
  PyObject* value = nullptr;
  if (zero_d_args[0]) {
    value = like ? nullptr : call_with_default_float(zero_d_maker, zero_d_args.data(), nargs, kwnames);
    default_float = value != nullptr;
    if (!value && !PyErr_Occurred()) value = PyObject_Vectorcall(zero_d_maker, zero_d_args.data(), nargs, kwnames);
  }
  Py_XDECREF(zero_d_prototype);
  Py_XDECREF(empty_shape);
  if (!value) {
    PyErr_Clear();  // the program's own call says what is wrong
    return nullptr;
  }
  auto eager_call = [&] {
    return like && prototype.lazy ? like_call_on_lazy(callable, call, prototype)
                                  : creation_call(callable, call, default_float);
  };
  const bool zero_d_array =
      Py_TYPE(value) == &PyArray_Type && PyArray_NDIM(reinterpret_cast<PyArrayObject*>(value)) == 0;
  if (zero_d_array && PyArray_TYPE(reinterpret_cast<PyArrayObject*>(value)) == NPY_CDOUBLE &&
      PyArray_ISNBO(PyArray_DESCR(reinterpret_cast<PyArrayObject*>(value))->byteorder)) {
    // A complex value over two filled float64 parts.
    double parts[2];
    std::memcpy(parts, PyArray_DATA(reinterpret_cast<PyArrayObject*>(value)), sizeof parts);
    Py_DECREF(value);
    PyRef re(zero_d_of(DType::kFloat64, parts[0], 0)), im(zero_d_of(DType::kFloat64, parts[1], 0));
    Operand re_operand, im_operand;
    if (!re || !im || !classify(re.get(), re_operand) || !classify(im.get(), im_operand) ||
        allocation_refused(shape, DType::kComplex128)) {
      PyErr_Clear();
      return nullptr;
    }
    std::shared_ptr<Trace> trace = open_trace();
    if (trace->region.nodes.size() > kMaxRegionNodes) {
      if (flush(Reason::k_size_cap, where, nullptr) < 0) return nullptr;
      return nullptr;
    }
    int filled[2];
    const Operand* part_values[2] = {&re_operand, &im_operand};
    for (int k = 0; k < 2; ++k) {
      jit::Node node;
      node.op = Op::full;
      node.dtype = node.compute = DType::kFloat64;
      node.shape = shape;
      node.inputs[0] = input_node(*trace, *part_values[k]);
      EagerForm part;
      part.kind = EagerForm::Kind::kPartOfCall;
      filled[k] = add_node(*trace, std::move(node), std::move(part), where);
    }
    return new_lazy(trace, complex_value_node(*trace, shape, filled[0], filled[1], eager_call(), where));
  }
  Operand zero_d;
  const bool usable = zero_d_array && classify(value, zero_d);
  if (!usable || allocation_refused(shape, zero_d.dtype)) {
    Py_DECREF(value);
    return nullptr;
  }
  std::shared_ptr<Trace> trace = open_trace();
  jit::Node node;
  node.op = Op::full;
  node.dtype = zero_d.dtype;
  node.compute = zero_d.dtype;
  node.shape = shape;
  node.inputs[0] = input_node(*trace, zero_d);
  Py_DECREF(value);  // the trace holds it
  const int index = add_node(*trace, std::move(node), eager_call(), where);
  return new_lazy(trace, index);
}

// np.arange with Python int or float bounds, as NumPy's PyArray_ArangeObj
// makes it: the length is ceil((stop - start) / step) of the Python
// numbers; element 0 is start and element 1 start + step (added as Python
// numbers), both converted to the dtype; the dtype's fill gives element i
// as start + i * (element 1 - element 0), in the dtype's arithmetic. An
// arange node computes that from element indices. Other dtypes, NumPy
// scalars and numbers that do not convert exactly stay with NumPy.
PyObject* record_arange(PyObject* callable, const CallArgs& call, const Location& where) {
  const std::size_t npos = call.positional.size();
  if (npos < 1 || npos > 3 || !call.only_keywords({"dtype"})) return nullptr;
  bool any_float = false;
  for (PyObject* a : call.positional) {
    if (!PyLong_CheckExact(a) && !PyFloat_CheckExact(a)) return nullptr;
    any_float = any_float || PyFloat_CheckExact(a);
  }
  if (running_trace() || !state_allows_tracing()) return nullptr;
  PyObject* zero = PyLong_FromLong(0);
  PyObject* one = PyLong_FromLong(1);
  PyObject* start = npos == 1 ? zero : call.positional[0];
  PyObject* stop = npos == 1 ? call.positional[0] : call.positional[1];
  PyObject* step = npos == 3 ? call.positional[2] : one;
  // The dtype: named, or NumPy's for the numbers (NPY_DEFAULT_FLOAT included).
  DType dtype = any_float ? (default_float32() ? DType::kFloat32 : DType::kFloat64) : DType::kInt64;
  bool default_float = any_float && default_float32();
  PyObject* named = call.keyword("dtype");
  bool ok = true;
  if (named && named != Py_None) {
    default_float = false;
    PyArray_Descr* descr = nullptr;
    if (!PyArray_DescrConverter2(named, &descr) || !descr) {
      ok = false;
    } else {
      const auto d = plain_dtype(descr);
      Py_DECREF(descr);
      ok = d.has_value();
      if (ok) dtype = *d;
    }
  }
  const bool integer = dtype == DType::kInt64 || dtype == DType::kInt32;
  ok = ok && (dtype == DType::kFloat64 || dtype == DType::kFloat32 || integer) && !(integer && any_float);
  double length_f = 0, start_f = 0, second_f = 0;
  std::int64_t start_i = 0, second_i = 0;
  if (ok) {
    PyObject* range = PyNumber_Subtract(stop, start);
    PyObject* quotient = range ? PyNumber_TrueDivide(range, step) : nullptr;
    PyObject* second = PyNumber_Add(start, step);
    length_f = quotient ? PyFloat_AsDouble(quotient) : -1;
    if (second && integer) {
      int overflow = 0;
      start_i = PyLong_AsLongLongAndOverflow(start, &overflow);
      ok = !overflow;
      second_i = PyLong_AsLongLongAndOverflow(second, &overflow);
      ok = ok && !overflow;
      const std::int64_t limit = dtype == DType::kInt32 ? INT32_MAX : INT64_MAX;
      ok = ok && start_i <= limit && start_i >= -limit - 1 && second_i <= limit && second_i >= -limit - 1;
    } else if (second) {
      start_f = PyFloat_AsDouble(start);
      second_f = PyFloat_AsDouble(second);
    }
    ok = ok && second && quotient && !PyErr_Occurred();
    Py_XDECREF(range);
    Py_XDECREF(quotient);
    Py_XDECREF(second);
  }
  Py_DECREF(zero);
  Py_DECREF(one);
  PyErr_Clear();
  // NaN, infinite or huge lengths: NumPy's errors.
  if (ok && !(std::ceil(length_f) >= kMinTracedElements)) refuse(EagerReason::k_small_arrays);
  if (!ok || !(std::ceil(length_f) >= kMinTracedElements) || std::ceil(length_f) > 1e15) return nullptr;
  if (dtype == DType::kFloat32 && (std::fabs(start_f) > 3.4e38 || std::fabs(second_f) > 3.4e38)) return nullptr;
  const auto length = static_cast<std::int64_t>(std::ceil(length_f));
  // The fill's step, in the dtype's arithmetic.
  double delta_f = second_f - start_f;
  if (dtype == DType::kFloat32) delta_f = static_cast<float>(second_f) - static_cast<float>(start_f);
  const std::int64_t delta_i = static_cast<std::int64_t>(static_cast<std::uint64_t>(second_i) -
                                                         static_cast<std::uint64_t>(start_i));
  PyObject* values[3] = {zero_d_of(dtype, start_f, start_i), zero_d_of(dtype, second_f, second_i),
                         zero_d_of(dtype, delta_f, delta_i)};
  if (!values[0] || !values[1] || !values[2]) {
    for (PyObject* v : values) Py_XDECREF(v);
    PyErr_Clear();
    return nullptr;
  }
  if (allocation_refused({length}, dtype)) {
    for (PyObject* v : values) Py_DECREF(v);
    return nullptr;
  }
  std::shared_ptr<Trace> trace = open_trace();
  jit::Node node;
  node.op = Op::arange;
  node.dtype = node.compute = dtype;
  node.shape = {length};
  for (int k = 0; k < 3; ++k) {
    Operand v;
    classify(values[k], v);
    node.inputs[k] = input_node(*trace, v);
    Py_DECREF(values[k]);  // the trace holds it
  }
  EagerForm eager = creation_call(callable, call, default_float);
  const int index = add_node(*trace, std::move(node), std::move(eager), where);
  return new_lazy(trace, index);
}

// np.clip(a, lo, hi) and a.clip(lo, hi), as NumPy's _clip computes them:
// a Python int bound beyond an integer array's range, or None, is no bound,
// leaving um.clip, um.minimum, um.maximum or um.positive. The eager form is
// the program's own call, so that anything NumPy says comes from where it
// would.
PyObject* record_clip(PyObject* callable, const CallArgs& call, const Location& where) {
  if (call.positional.size() != 3 || !call.keywords.empty()) return nullptr;
  Operand x, bounds[2];
  if (!classify(call.positional[0], x) || x.weak != Weak::kNone) return nullptr;
  if (!x.lazy && Py_TYPE(x.object) != &PyArray_Type) return nullptr;
  const bool integer = jit::is_signed_int(x.dtype) || jit::is_unsigned(x.dtype);
  const Operand* ops[3] = {&x};
  int n = 1;
  bool present[2] = {false, false};
  for (int i = 0; i < 2; ++i) {
    PyObject* bound = call.positional[1 + i];
    if (bound == Py_None) continue;
    if (!classify(bound, bounds[i])) return nullptr;
    if (integer && bounds[i].weak == Weak::kInt) {
      const long long v = PyLong_AsLongLong(bound);  // classify saw it fit
      const int bits = jit::itemsize(x.dtype) * 8;
      const bool is_signed = jit::is_signed_int(x.dtype);
      const long double lowest = is_signed ? -std::ldexp(1.0L, bits - 1) : 0.0L;
      const long double highest = std::ldexp(1.0L, is_signed ? bits - 1 : bits) - 1.0L;
      if (i == 0 ? v <= lowest : v >= highest) continue;
    }
    present[i] = true;
    ops[n++] = &bounds[i];
  }
  const Op op = present[0] && present[1] ? Op::clip
                : present[0]             ? Op::maximum
                : present[1]             ? Op::minimum
                                         : Op::positive;
  EagerForm form;
  form.kind = EagerForm::Kind::kCall;
  form.callable = Py_NewRef(callable);
  form.ufunc_name = jit::op_info(op).name;
  PyObject* lazy = record_elementwise(op, ops, n, std::move(form), where, nullptr);
  if (!lazy) return nullptr;
  EagerForm& eager = trace_of(lazy)->eager[node_of(lazy)];
  const jit::Node& node = trace_of(lazy)->region.nodes[node_of(lazy)];
  Py_XDECREF(eager.kwargs);
  eager.kwargs = nullptr;
  eager.arg_nodes = {node.inputs[0], -1, -1};
  eager.constants = {nullptr, nullptr, nullptr};
  for (int i = 0, next = 1; i < 2; ++i) {
    if (present[i] && bounds[i].weak == Weak::kNone) {
      eager.arg_nodes[1 + i] = node.inputs[next];
    } else {
      eager.constants[1 + i] = Py_NewRef(call.positional[1 + i]);
    }
    next += present[i];
  }
  return lazy;
}

// ---- matrix products ----

// `a @ b`, np.matmul(a, b), np.dot(a, b) and a.dot(b) of two float64 or
// two float32 arrays of 1 or 2 dimensions, where an operand is pending or
// a region is open: a node the program's own call computes when the
// region runs (NumPy's, through the BLAS it links, whose results do not
// depend on where the operands lie in memory), so that the region goes on
// and the element-wise work either side of the product stays in kernels.
// `callable` makes the product (nullptr: the operator), and names it in
// NumPy's floating-point reports.
PyObject* record_product(PyObject* lhs, PyObject* rhs, PyObject* callable, const Location& where) {
  Operand a, b;
  const bool arrays = classify(lhs, a) && classify(rhs, b) && a.weak == Weak::kNone && b.weak == Weak::kNone;
  if (!arrays || a.dtype != b.dtype || (a.dtype != DType::kFloat64 && a.dtype != DType::kFloat32) ||
      a.shape.empty() || b.shape.empty() || a.shape.size() > 2 || b.shape.size() > 2 ||
      a.shape.back() != b.shape[0] || running_trace() || (!a.lazy && !b.lazy && !pending_trace())) {
    PyErr_Clear();
    refuse(EagerReason::k_matrix_product);
    return nullptr;
  }
  Shape shape;
  if (a.shape.size() == 2) shape.push_back(a.shape[0]);
  if (b.shape.size() == 2) shape.push_back(b.shape[1]);
  if (!state_allows_tracing() || allocation_refused(shape, a.dtype)) return nullptr;
  std::shared_ptr<Trace> trace = open_trace();
  if (trace->region.nodes.size() + 3 > kMaxRegionNodes) {
    if (flush(Reason::k_size_cap, where, nullptr) < 0) return nullptr;
    return nullptr;
  }
  jit::Node node;
  node.op = Op::matmul;
  node.dtype = node.compute = a.dtype;
  node.shape = shape;
  node.inputs[0] = input_node(*trace, a);
  node.inputs[1] = input_node(*trace, b);
  EagerForm form;
  if (callable) {
    form.kind = EagerForm::Kind::kCall;
    form.callable = Py_NewRef(callable);
  } else {
    form.kind = EagerForm::Kind::kBinaryOperator;
    form.operator_code = NB_MATRIX_MULTIPLY;
  }
  // np.dot and ndarray.dot report as "dot"; the operator and np.matmul as the ufunc.
  form.ufunc_name = callable && callable != ufunc_of(Op::matmul) ? "dot" : "matmul";
  form.reports_at_call_site = true;
  form.arg_nodes = {node.inputs[0], node.inputs[1]};
  form.constants = {nullptr, nullptr};
  return new_lazy(trace, add_node(*trace, std::move(node), std::move(form), where));
}

// ---- variance and standard deviation ----

// A float constant of the region (a count, as NumPy's intp divides).
int constant_node(Trace& trace, double value) {
  // One node per value (its bits: -0.0 is not 0.0): a kernel holds each of
  // a region's constants apart, and the driver takes a bounded number.
  for (std::size_t i = 0; i < trace.region.nodes.size(); ++i) {
    const jit::Node& known = trace.region.nodes[i];
    if (known.op == Op::input && known.is_scalar_constant && known.dtype == DType::kFloat64 && !trace.objects[i] &&
        std::memcmp(&known.constant_float, &value, sizeof value) == 0) {
      return static_cast<int>(i);
    }
  }
  jit::Node node;
  node.op = Op::input;
  node.dtype = node.compute = DType::kFloat64;
  node.is_scalar_constant = true;
  node.constant_float = value;
  // The integer only where the double converts to one (not inf or NaN).
  node.constant_int = std::fabs(value) < 9.2e18 ? static_cast<std::int64_t>(value) : 0;
  const int index = trace.region.add(std::move(node));
  trace.eager.emplace_back();
  trace.objects.push_back(nullptr);
  trace.handles.push_back(0);
  return index;
}

// A step of a NumPy function the tracer spells out in region ops: kernels
// compute it; through NumPy, the function's last node makes the call.
int add_part(Trace& trace, Op op, DType dtype, Shape shape, int a, int b, std::uint32_t axes, bool keepdims,
             const Location& where) {
  jit::Node node;
  node.op = op;
  node.dtype = node.compute = dtype;
  node.shape = std::move(shape);
  node.inputs[0] = a;
  node.inputs[1] = b;
  node.axes = axes;
  node.keepdims = keepdims;
  EagerForm part;
  part.kind = EagerForm::Kind::kPartOfCall;
  return add_node(trace, std::move(node), std::move(part), where);
}

// np.var / np.std of a float64 or float32 array, spelled out as NumPy's
// _var computes it: the sum over the axes kept as dimensions, divided by
// the count; the squares of the deviations from it summed; divided by
// count - ddof; the square root for std. Each step is a region op that
// kernels fuse; through NumPy, the last one makes the program's call (and
// NumPy says what it says). NumPy divides float32 sums by its intp counts
// in float64 and rounds the quotients to float32: the float32 quotient
// itself where float32 holds the count exactly (up to 2**24), so larger
// float32 counts, other dtypes, ddof >= count and other arguments run
// eagerly.
PyObject* record_moment(bool is_std, PyObject* callable, const CallArgs& call, const Location& where) {
  const std::size_t npos = call.positional.size();
  if (npos < 1 || npos > 2 || !call.only_keywords({"axis", "ddof", "keepdims"})) return nullptr;
  if (npos == 2 && call.keyword("axis")) return nullptr;
  PyObject* axis = npos == 2 ? call.positional[1] : call.keyword("axis");
  PyObject* keepdims_obj = call.keyword("keepdims");
  if (keepdims_obj && !PyBool_Check(keepdims_obj)) return nullptr;
  const bool keepdims = keepdims_obj == Py_True;
  long long ddof = 0;
  if (PyObject* d = call.keyword("ddof")) {
    if (!PyLong_CheckExact(d)) return nullptr;
    int overflow = 0;
    ddof = PyLong_AsLongLongAndOverflow(d, &overflow);
    if (overflow || ddof < 0 || PyErr_Occurred()) {
      PyErr_Clear();
      return nullptr;
    }
  }
  Operand x;
  if (!classify(call.positional[0], x) || x.weak != Weak::kNone || x.numpy_scalar) return nullptr;
  if (!x.lazy && Py_TYPE(x.object) != &PyArray_Type) return nullptr;
  if (x.dtype != DType::kFloat64 && x.dtype != DType::kFloat32) return nullptr;
  const Operand* ops[] = {&x};
  if (!worth_tracing(ops, 1) || !state_allows_tracing()) return nullptr;
  const int rank = static_cast<int>(x.shape.size());
  std::uint32_t mask = 0;
  if (!parse_axes(axis, rank, true, mask)) return nullptr;
  std::int64_t count = 1;
  Shape kept, result;
  for (int d = 0; d < rank; ++d) {
    const bool reduced = mask & (1u << d);
    if (reduced) count *= x.shape[d];
    kept.push_back(reduced ? 1 : x.shape[d]);
    if (!reduced || keepdims) result.push_back(reduced ? 1 : x.shape[d]);
  }
  if (count == 0 || ddof >= count) return nullptr;  // NumPy warns, with its own messages
  if (x.dtype == DType::kFloat32 && count > (std::int64_t{1} << 24)) return nullptr;
  if (allocation_refused(x.shape, x.dtype)) return nullptr;  // NumPy's deviations
  std::shared_ptr<Trace> trace = open_trace();
  if (trace->region.nodes.size() + 10 > kMaxRegionNodes) {
    if (flush(Reason::k_size_cap, where, nullptr) < 0) return nullptr;
    return nullptr;
  }
  const int input = input_node(*trace, x);
  auto step = [&](Op op, Shape shape, int a, int b, std::uint32_t axes, bool keep) {
    return add_part(*trace, op, x.dtype, std::move(shape), a, b, axes, keep, where);
  };
  const int total = step(Op::sum, kept, input, -1, mask, true);
  const int mean = step(Op::divide, kept, total, constant_node(*trace, static_cast<double>(count)), 0, false);
  const int deviation = step(Op::subtract, x.shape, input, mean, 0, false);
  const int squares = step(Op::square, x.shape, deviation, -1, 0, false);
  const int sum_squares = step(Op::sum, result, squares, -1, mask, keepdims);
  int last = step(Op::divide, result, sum_squares, constant_node(*trace, static_cast<double>(count - ddof)), 0, false);
  if (is_std) last = step(Op::sqrt, result, last, -1, 0, false);
  // The last node is the program's call, reading the array itself (the
  // runner keeps it alive until then).
  EagerForm form = program_call(callable, input, call);
  form.gives_scalar = trace->eager[last].gives_scalar;
  trace->eager[last] = std::move(form);
  return new_lazy(trace, last);
}

// np.linalg.norm(x, ord=1 / inf / -inf) of a vector or along one axis of a
// float array, as NumPy computes it: add.reduce(abs(x)), abs(x).max() or
// abs(x).min() over the axis. Each step is a region op; through NumPy, the
// last one makes the program's call. Matrix norms run eagerly.
PyObject* record_vector_norm(double ord, PyObject* callable, const CallArgs& call, const Location& where) {
  Operand x;
  if (!classify(call.positional[0], x) || x.weak != Weak::kNone || x.numpy_scalar) return nullptr;
  if ((!x.lazy && Py_TYPE(x.object) != &PyArray_Type) || !jit::is_float(x.dtype)) return nullptr;
  const Operand* ops[] = {&x};
  if (!worth_tracing(ops, 1) || !state_allows_tracing()) return nullptr;
  const int rank = static_cast<int>(x.shape.size());
  PyObject* axis = call.keyword("axis");
  std::uint32_t mask = 1;
  if (axis && axis != Py_None) {
    if (!parse_axes(axis, rank, false, mask)) return nullptr;
  } else if (rank != 1) {
    return nullptr;
  }
  PyObject* keepdims_obj = call.keyword("keepdims");
  if (keepdims_obj && !PyBool_Check(keepdims_obj)) return nullptr;
  const bool keepdims = keepdims_obj == Py_True;
  Shape result;
  std::int64_t count = 1;
  for (int d = 0; d < rank; ++d) {
    const bool reduced = mask & (1u << d);
    if (reduced) count *= x.shape[d];
    if (!reduced || keepdims) result.push_back(reduced ? 1 : x.shape[d]);
  }
  if (count == 0 && !(ord == 1.0)) return nullptr;  // max/min of nothing: NumPy raises
  if (allocation_refused(x.shape, x.dtype)) return nullptr;  // NumPy's magnitudes
  std::shared_ptr<Trace> trace = open_trace();
  const int input = input_node(*trace, x);
  const int magnitudes = add_part(*trace, Op::absolute, x.dtype, x.shape, input, -1, 0, false, where);
  const Op reduce = ord == 1.0 ? Op::sum : (ord > 0 ? Op::max : Op::min);
  const int last = add_part(*trace, reduce, x.dtype, result, magnitudes, -1, mask, keepdims, where);
  EagerForm form = program_call(callable, input, call);
  form.gives_scalar = trace->eager[last].gives_scalar;
  trace->eager[last] = std::move(form);
  return new_lazy(trace, last);
}

// np.linalg.norm(x, axis=k) of a float array (ord 2), along an axis other
// than the last, as NumPy computes it there: sqrt(add.reduce(x * x,
// axis=k)), the squares added row after row in order (folds, in kernels).
// Each step is a region op; through NumPy, the last one makes the
// program's call. (Along the last axis a norm node of its own adds each
// row's squares pairwise.)
PyObject* record_norm_across(const Operand& x, DType dtype, std::uint32_t mask, bool keepdims, PyObject* callable,
                             const CallArgs& call, const Location& where) {
  Shape result;
  for (int d = 0; d < static_cast<int>(x.shape.size()); ++d) {
    const bool reduced = mask & (1u << d);
    if (!reduced || keepdims) result.push_back(reduced ? 1 : x.shape[d]);
  }
  std::shared_ptr<Trace> trace = open_trace();
  const int input = input_node(*trace, x);
  const int squares = add_part(*trace, Op::multiply, dtype, x.shape, input, input, 0, false, where);
  const int sum = add_part(*trace, Op::sum, dtype, result, squares, -1, mask, keepdims, where);
  const int last = add_part(*trace, Op::sqrt, dtype, result, sum, -1, 0, false, where);
  EagerForm form = program_call(callable, input, call);
  form.gives_scalar = trace->eager[last].gives_scalar;
  trace->eager[last] = std::move(form);
  return new_lazy(trace, last);
}

// np.linspace(start, stop, num) of Python numbers, as NumPy's linspace
// computes it in float64: i * step + start for i of arange(0, num), step
// (stop - start) / div, the last element stop when the end point is in;
// then astype for float32 (named, or NPY_DEFAULT_FLOAT). Each step is a
// region op; through NumPy, the last one makes the program's call. A zero
// step (NumPy's denormal path), integer dtypes, retstep and axis stay with
// NumPy.
PyObject* record_linspace(PyObject* callable, const CallArgs& call, const Location& where) {
  const std::size_t npos = call.positional.size();
  if (npos < 2 || npos > 3 || !call.only_keywords({"num", "endpoint", "dtype"})) return nullptr;
  for (std::size_t i = 0; i < 2; ++i) {
    PyObject* a = call.positional[i];
    if (!PyFloat_CheckExact(a) && !PyLong_CheckExact(a)) return nullptr;
  }
  PyObject* num_obj = npos == 3 ? call.positional[2] : call.keyword("num");
  if (!num_obj || !PyLong_CheckExact(num_obj)) return nullptr;
  const long long num = PyLong_AsLongLong(num_obj);
  PyObject* endpoint_obj = call.keyword("endpoint");
  if (endpoint_obj && !PyBool_Check(endpoint_obj)) return nullptr;
  const bool endpoint = endpoint_obj != Py_False;
  bool to_float32 = default_float32();
  if (PyObject* named = call.keyword("dtype"); named && named != Py_None) {
    PyArray_Descr* descr = nullptr;
    if (!PyArray_DescrConverter2(named, &descr) || !descr) {
      PyErr_Clear();
      return nullptr;
    }
    const auto dtype = plain_dtype(descr);
    Py_DECREF(descr);
    if (dtype != DType::kFloat64 && dtype != DType::kFloat32) return nullptr;
    to_float32 = dtype == DType::kFloat32;
  }
  const double start = PyFloat_AsDouble(call.positional[0]);
  const double stop = PyFloat_AsDouble(call.positional[1]);
  if (PyErr_Occurred()) {
    PyErr_Clear();
    return nullptr;
  }
  // Python ints NumPy holds exactly in float64 (beyond int64 it goes another way).
  for (std::size_t i = 0; i < 2; ++i) {
    if (PyLong_CheckExact(call.positional[i]) && std::fabs(i ? stop : start) > 9007199254740992.0) return nullptr;
  }
  if (num < kMinTracedElements) refuse(EagerReason::k_small_arrays);
  if (num < kMinTracedElements || num > (std::int64_t{1} << 40)) return nullptr;
  if (running_trace() || !state_allows_tracing()) return nullptr;
  const double step = (stop - start) / static_cast<double>(endpoint ? num - 1 : num);
  if (step == 0 || !std::isfinite(step) || allocation_refused({num}, DType::kFloat64)) return nullptr;
  std::shared_ptr<Trace> trace = open_trace();
  if (trace->region.nodes.size() + 10 > kMaxRegionNodes) {
    if (flush(Reason::k_size_cap, where, nullptr) < 0) return nullptr;
    return nullptr;
  }
  const Shape shape{num};
  // arange(0, num) in float64: the index itself.
  jit::Node iota;
  iota.op = Op::arange;
  iota.dtype = iota.compute = DType::kFloat64;
  iota.shape = shape;
  iota.inputs[0] = constant_node(*trace, 0.0);
  iota.inputs[1] = constant_node(*trace, 1.0);
  iota.inputs[2] = constant_node(*trace, 1.0);
  EagerForm part;
  part.kind = EagerForm::Kind::kPartOfCall;
  const int index = add_node(*trace, std::move(iota), std::move(part), where);
  const int scaled = add_part(*trace, Op::multiply, DType::kFloat64, shape, index, constant_node(*trace, step), 0,
                              false, where);
  int last = add_part(*trace, Op::add, DType::kFloat64, shape, scaled, constant_node(*trace, start), 0, false, where);
  if (endpoint) {
    const int is_last = add_part(*trace, Op::equal, DType::kBool, shape, index,
                                 constant_node(*trace, static_cast<double>(num - 1)), 0, false, where);
    trace->region.nodes[is_last].compute = DType::kFloat64;
    jit::Node pick;
    pick.op = Op::where;
    pick.dtype = pick.compute = DType::kFloat64;
    pick.shape = shape;
    pick.inputs[0] = is_last;
    pick.inputs[1] = constant_node(*trace, stop);
    pick.inputs[2] = last;
    EagerForm pick_part;
    pick_part.kind = EagerForm::Kind::kPartOfCall;
    last = add_node(*trace, std::move(pick), std::move(pick_part), where);
  }
  if (to_float32) {
    jit::Node cast;
    cast.op = Op::astype;
    cast.dtype = DType::kFloat32;
    cast.compute = DType::kFloat64;
    cast.shape = shape;
    cast.inputs[0] = last;
    EagerForm cast_part;
    cast_part.kind = EagerForm::Kind::kPartOfCall;
    last = add_node(*trace, std::move(cast), std::move(cast_part), where);
  }
  trace->eager[last] = creation_call(callable, call, to_float32 && !call.keyword("dtype"));
  return new_lazy(trace, last);
}

// ---- views ----

// A shape argument: an int, or a tuple or list of ints.
bool parse_ints(PyObject* o, jit::Dims& out) {
  out.clear();
  auto add = [&](PyObject* item) {
    if (!PyLong_CheckExact(item)) return false;
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(item, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred())) {
      PyErr_Clear();
      return false;
    }
    out.push_back(v);
    return true;
  };
  if (PyTuple_CheckExact(o) || PyList_CheckExact(o)) {
    PyObject* fast = PySequence_Fast(o, "");
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    bool ok = true;
    for (Py_ssize_t i = 0; i < n && ok; ++i) ok = add(PySequence_Fast_GET_ITEM(fast, i));
    Py_DECREF(fast);
    return ok;
  }
  return add(o);
}

// Axes given as an int or a sequence of ints, normalised against `rank`,
// each once; false where NumPy would raise.
bool parse_axis_list(PyObject* o, int rank, std::vector<int>& axes) {
  jit::Dims raw;
  if (!parse_ints(o, raw)) return false;
  axes.clear();
  for (std::int64_t a : raw) {
    if (a < -rank || a >= rank) return false;
    const int axis = static_cast<int>(a < 0 ? a + rank : a);
    if (std::find(axes.begin(), axes.end(), axis) != axes.end()) return false;
    axes.push_back(axis);
  }
  return true;
}

// The shape `view` gives `x` with these arguments (after the array), or
// false where the tracer leaves the call to NumPy (bad arguments raise
// there, at the program's line).
bool view_shape(ViewCall view, const Shape& x, const std::vector<PyObject*>& args, Shape& out) {
  const int rank = static_cast<int>(x.size());
  const std::int64_t size = jit::element_count(x);
  out.clear();
  switch (view) {
    case ViewCall::kReshape: {
      jit::Dims dims;
      if (args.size() == 1) {
        if (!parse_ints(args[0], dims)) return false;
      } else {
        for (PyObject* a : args) {
          jit::Dims one;
          if (!parse_ints(a, one) || one.size() != 1 || PyTuple_Check(a) || PyList_Check(a)) return false;
          dims.push_back(one[0]);
        }
      }
      if (dims.empty() && !args.empty() && args.size() != 1) return false;
      int unknown = -1;
      std::int64_t known = 1;
      for (std::size_t i = 0; i < dims.size(); ++i) {
        if (dims[i] == -1 && unknown < 0) {
          unknown = static_cast<int>(i);
        } else if (dims[i] < 0) {
          return false;
        } else {
          known *= dims[i];
        }
      }
      if (unknown >= 0) {
        if (known == 0 || size % known != 0) return false;
        dims[unknown] = size / known;
      } else if (known != size) {
        return false;
      }
      out.assign(dims.begin(), dims.end());
      return !args.empty();
    }
    case ViewCall::kRavel:
      if (!args.empty()) return false;
      out = {size};
      return true;
    case ViewCall::kTranspose: {
      std::vector<int> axes;
      if (args.empty() || (args.size() == 1 && args[0] == Py_None)) {
        for (int d = rank - 1; d >= 0; --d) axes.push_back(d);
      } else if (args.size() == 1) {
        if (!parse_axis_list(args[0], rank, axes)) return false;
      } else {
        PyObject* tuple = PyTuple_New(static_cast<Py_ssize_t>(args.size()));
        for (std::size_t i = 0; i < args.size(); ++i) {
          PyTuple_SET_ITEM(tuple, static_cast<Py_ssize_t>(i), Py_NewRef(args[i]));
        }
        const bool ok = parse_axis_list(tuple, rank, axes);
        Py_DECREF(tuple);
        if (!ok) return false;
      }
      if (static_cast<int>(axes.size()) != rank) return false;
      for (int a : axes) out.push_back(x[a]);
      return true;
    }
    case ViewCall::kSqueeze: {
      if (args.size() > 1) return false;
      std::vector<int> axes;
      if (args.empty() || args[0] == Py_None) {
        for (int d = 0; d < rank; ++d) {
          if (x[d] == 1) axes.push_back(d);
        }
      } else if (!parse_axis_list(args[0], rank, axes)) {
        return false;
      }
      for (int d = 0; d < rank; ++d) {
        const bool dropped = std::find(axes.begin(), axes.end(), d) != axes.end();
        if (dropped && x[d] != 1) return false;
        if (!dropped) out.push_back(x[d]);
      }
      return true;
    }
    case ViewCall::kExpandDims: {
      if (args.size() != 1) return false;
      jit::Dims raw;
      if (!parse_ints(args[0], raw)) return false;
      const int out_rank = rank + static_cast<int>(raw.size());
      std::vector<int> axes;
      if (!parse_axis_list(args[0], out_rank, axes)) return false;
      for (int d = 0, next = 0; d < out_rank; ++d) {
        const bool added = std::find(axes.begin(), axes.end(), d) != axes.end();
        out.push_back(added ? 1 : x[next]);
        next += !added;
      }
      return true;
    }
    case ViewCall::kBroadcastTo: {
      jit::Dims dims;
      if (args.size() != 1 || !parse_ints(args[0], dims) || dims.size() < x.size()) return false;
      const std::size_t offset = dims.size() - x.size();
      for (std::size_t d = 0; d < dims.size(); ++d) {
        if (dims[d] < 0) return false;
        if (d >= offset && x[d - offset] != dims[d] && x[d - offset] != 1) return false;
      }
      out.assign(dims.begin(), dims.end());
      return true;
    }
  }
  return false;
}

// A view of a pending lazy value with `shape`, made eagerly by `form` when
// the region runs; views of arrays the program holds are NumPy's own.
PyObject* record_view(const Operand& x, Shape shape, EagerForm form, bool gives_scalar, const Location& where) {
  std::shared_ptr<Trace> trace = open_trace();
  if (trace->region.nodes.size() > kMaxRegionNodes) {
    if (flush(Reason::k_size_cap, where, nullptr) < 0) return nullptr;
    return nullptr;
  }
  jit::Node node;
  node.op = Op::view;
  node.dtype = node.compute = x.dtype;
  node.shape = std::move(shape);
  node.inputs[0] = node_of(x.object);
  const int index = add_node(*trace, std::move(node), std::move(form), where);
  trace->eager[index].gives_scalar = gives_scalar;
  return new_lazy(trace, index);
}

// A lazy operand a view may be taken of: pending, and an array to NumPy.
bool viewable(PyObject* o, Operand& x) {
  return is_lazy(o) && classify(o, x) && !x.numpy_scalar && !x.shape.empty();
}

PyObject* record_view_call(const VocabularyEntry& entry, PyObject* callable, const CallArgs& call,
                           const Location& where) {
  if (call.positional.empty() || !call.keywords.empty()) return nullptr;
  Operand x;
  if (!viewable(call.positional[0], x)) return nullptr;
  std::vector<PyObject*> rest(call.positional.begin() + 1, call.positional.end());
  // The functions take their arguments as one object each: np.reshape(a, shape),
  // np.transpose(a, axes), np.squeeze(a, axis).
  if (!entry.method && rest.size() > 1) return nullptr;
  if (!entry.method && entry.view == ViewCall::kReshape && rest.size() != 1) return nullptr;
  Shape shape;
  if (!view_shape(entry.view, x.shape, rest, shape)) return nullptr;
  return record_view(x, std::move(shape), program_call(callable, node_of(x.object), call), false, where);
}

// Whether an in-place update of this lazy value would have to be seen
// through views of it (or it is a view, and updates its base): NumPy
// writes the memory they share, the trace would not.
bool shares_with_views(const Trace& trace, int node) {
  if (trace.region.nodes[node].op == Op::view) return true;
  for (const jit::Node& n : trace.region.nodes) {
    if (n.op == Op::view && n.inputs[0] == node) return true;
  }
  return false;
}

// The shape `x[key]` has for a basic index (ints, slices, None, one
// Ellipsis), and whether it is one element (an int for every dimension);
// false for other keys, and for indices NumPy rejects (it raises them at
// the program's line).
bool basic_index_shape(const Shape& x, PyObject* key, Shape& shape, bool& element) {
  const PyRef tuple(PyTuple_CheckExact(key) ? Py_NewRef(key) : PyTuple_Pack(1, key));
  if (!tuple) {
    PyErr_Clear();
    return false;
  }
  PyObject* items = tuple.get();
  const Py_ssize_t n = PyTuple_GET_SIZE(items);
  int consumed = 0, ellipses = 0;
  bool only_ints = true;
  bool ok = true;
  for (Py_ssize_t i = 0; i < n && ok; ++i) {
    PyObject* item = PyTuple_GET_ITEM(items, i);
    if (item == Py_Ellipsis) {
      ++ellipses;
      only_ints = false;
    } else if (PyLong_CheckExact(item) || PySlice_Check(item)) {
      ++consumed;
      only_ints = only_ints && PyLong_CheckExact(item);
    } else if (item == Py_None) {
      only_ints = false;
    } else {
      ok = false;
    }
  }
  const int rank = static_cast<int>(x.size());
  ok = ok && ellipses <= 1 && consumed <= rank;
  shape.clear();
  int dim = 0;
  for (Py_ssize_t i = 0; i < n && ok; ++i) {
    PyObject* item = PyTuple_GET_ITEM(items, i);
    if (item == Py_None) {
      shape.push_back(1);
    } else if (item == Py_Ellipsis) {
      for (int skip = rank - consumed; skip > 0; --skip) shape.push_back(x[dim++]);
    } else if (PyLong_CheckExact(item)) {
      int overflow = 0;
      const long long v = PyLong_AsLongLongAndOverflow(item, &overflow);
      ok = !overflow && v >= -x[dim] && v < x[dim];
      ++dim;
    } else {
      Py_ssize_t start = 0, stop = 0, step = 0;
      if (PySlice_Unpack(item, &start, &stop, &step) < 0) {
        PyErr_Clear();
        ok = false;
        break;
      }
      shape.push_back(PySlice_AdjustIndices(static_cast<Py_ssize_t>(x[dim]), &start, &stop, step));
      ++dim;
    }
  }
  for (; ok && dim < rank; ++dim) shape.push_back(x[dim]);
  element = only_ints && consumed == rank;
  return ok;
}

// ---- assignments ----

// Whether an assignment into lazy `node` would have to show through memory
// NumPy shares: `node` is a view (its base would change too), or a view of
// it (or of such a view) is named by a lazy value, other than the one
// handle of `consumed` (the value assigned, which dies with the assignment;
// -1: none). Views nobody names were read only by what was recorded before
// the assignment, which NumPy computed before it too.
bool shares_with_live_views(const Trace& trace, int node, int consumed) {
  const std::vector<jit::Node>& nodes = trace.region.nodes;
  if (nodes[node].op == Op::view) return true;
  std::vector<bool> sees(nodes.size(), false);
  sees[node] = true;
  for (std::size_t i = node + 1; i < nodes.size(); ++i) {
    if (nodes[i].op != Op::view || !sees[nodes[i].inputs[0]]) continue;
    sees[i] = true;
    if (trace.handles[i] - (static_cast<int>(i) == consumed ? 1 : 0) > 0) return true;
  }
  return false;
}

// Whether the array `o`, the left operand of an in-place operator, is held
// by nothing but the interpreter's stack, one name of the program (a
// local, a global, an attribute, an item: where the operator's result is
// stored again) and the open trace, owns its memory and may be
// written: nothing else can see its memory change, so the operator may
// give a new value instead, as it would give a lazy value's update.
bool held_by_one_name(PyObject* o) {
  if (Py_TYPE(o) != &PyArray_Type) return false;
  auto* a = reinterpret_cast<PyArrayObject*>(o);
  if (!PyArray_CHKFLAGS(a, NPY_ARRAY_OWNDATA) || !PyArray_ISWRITEABLE(a) ||
      PyArray_CHKFLAGS(a, NPY_ARRAY_WRITEBACKIFCOPY)) {
    return false;
  }
  // A weak reference sees the array itself, which would keep its old value.
  const Py_ssize_t weak_list = Py_TYPE(o)->tp_weaklistoffset;
  if (weak_list > 0 && *reinterpret_cast<PyObject**>(reinterpret_cast<char*>(o) + weak_list)) return false;
  // References the trace holds: inputs, the operands of NumPy calls, and
  // the bases of the views only the trace holds (a complex array's parts).
  Py_ssize_t traced = 0;
  if (Trace* trace = pending_trace()) {
    for (const auto& [object, node] : trace->input_nodes) {
      if (trace->objects[node] != object) continue;
      traced += object == o || (Py_TYPE(object) == &PyArray_Type && Py_REFCNT(object) == 1 &&
                                PyArray_BASE(reinterpret_cast<PyArrayObject*>(object)) == o);
    }
    for (const EagerForm& form : trace->eager) traced += std::count(form.constants.begin(), form.constants.end(), o);
  }
  return Py_REFCNT(o) == 2 + traced;
}

// How NumPy takes the value of `x[index] = value`: for a boolean mask as an
// array of x's dtype (np.asarray with a forced cast), for one element as
// that element (ndarray's setitem of the dtype), for a part like an array
// assigned to it. Each casts a scalar its own way.
enum class AssignForm { kMask, kElement, kPart };

// NumPy's own conversion of a scalar `value` (a Python or NumPy scalar, a
// 0-d array) for `x[index] = value` with `descr` x's dtype, found by making
// that assignment into an array of one element: a 0-d array of x's dtype,
// or nullptr (no exception) where NumPy raises, or reports a floating-point
// error (NaN into an integer), which the program's own assignment then does.
PyObject* converted_for_assignment(PyObject* value, PyObject* descr, AssignForm form) {
  npy_intp one = 1;
  Py_INCREF(descr);
  PyRef trial(PyArray_Zeros(1, &one, reinterpret_cast<PyArray_Descr*>(descr), 0));
  auto make_index = [&]() -> PyObject* {
    switch (form) {
      case AssignForm::kMask: return PyArray_Zeros(1, &one, PyArray_DescrFromType(NPY_BOOL), 0);
      case AssignForm::kElement: return PyLong_FromLong(0);
      case AssignForm::kPart: return PySlice_New(nullptr, nullptr, nullptr);
    }
    return nullptr;
  };
  PyRef index(trial ? make_index() : nullptr);
  if (index && form == AssignForm::kMask) {
    *static_cast<npy_bool*>(PyArray_DATA(reinterpret_cast<PyArrayObject*>(index.get()))) = 1;
  }
  if (!index) {
    PyErr_Clear();
    return nullptr;
  }
  int status = 0;
  bool reported = false;
  {
    const bool every_category[4] = {true, true, true, true};
    FpErrorsNoted noting(every_category);
    status = PyObject_SetItem(trial.get(), index.get(), value);
    reported = noting.noted();
  }
  if (status < 0 || reported) {
    PyErr_Clear();
    return nullptr;
  }
  PyArray_Dims scalar = {nullptr, 0};
  PyObject* converted = PyArray_Newshape(reinterpret_cast<PyArrayObject*>(trial.get()), &scalar, NPY_CORDER);
  if (!converted) PyErr_Clear();
  return converted;
}

// Whether NumPy assigns a value of shape `value` into a part of shape
// `part`: leading 1s dropped, the rest broadcast. One element takes a 0-d
// value only (NumPy deprecates the others).
bool assignable(const Shape& value, const Shape& part, bool element) {
  if (element) return value.empty();
  std::size_t lead = 0;
  while (value.size() - lead > part.size() && value[lead] == 1) ++lead;
  if (value.size() - lead > part.size()) return false;
  const std::size_t offset = part.size() - (value.size() - lead);
  for (std::size_t k = lead; k < value.size(); ++k) {
    const std::int64_t d = part[offset + k - lead];
    if (value[k] != d && value[k] != 1) return false;
  }
  return true;
}

// Whether NumPy's cast of array elements from `from` into `to` can never
// fail or warn, whatever the data: floats into integers can (NaN, out of
// range), floats into narrower floats can (overflow); the rest wrap or round.
bool casts_quietly(DType from, DType to) {
  if (!jit::is_float(from)) return true;
  return jit::is_float(to) ? jit::itemsize(to) >= jit::itemsize(from) : to == DType::kBool;
}

// The value's node for an assignment into x: a lazy value or an array
// whose elements go into x's dtype with no error or warning whatever the
// data, or a scalar as NumPy converts it; -1 when not traced.
int assigned_value_node(Trace& trace, const Operand& x, const Operand& v, AssignForm form) {
  const bool array = v.lazy || (v.weak == Weak::kNone && !v.numpy_scalar && !v.shape.empty());
  if (array) {
    // A NumPy scalar assigned to an element or a part goes in as a Python
    // number does (it may not fit); a mask's value, and arrays, are cast.
    const bool quiet = v.numpy_scalar && form != AssignForm::kMask
                           ? PyArray_CanCastTypeTo(reinterpret_cast<PyArray_Descr*>(v.descr),
                                                   reinterpret_cast<PyArray_Descr*>(x.descr), NPY_SAFE_CASTING)
                           : casts_quietly(v.dtype, x.dtype);
    return quiet ? input_node(trace, v) : -1;
  }
  PyRef converted(converted_for_assignment(v.object, x.descr, form));
  Operand c;
  if (!converted || !classify(converted.get(), c)) return -1;
  return input_node(trace, c);
}

// `x[key] = value` into a lazy value x, recorded as a new node that x then
// names (every alias of x sees it, as NumPy writes x's memory). A boolean
// mask of x's shape with a scalar value is `where(mask, value as NumPy
// converts it, x)`, which kernels fuse; a basic index is `setitem(x,
// value)`, which NumPy computes. 1: recorded; 0: not traced; -1: error.
//
// An array the program's local `name` alone holds (held_by_one_name) takes
// a mask's assignment too: recorded on the array as a region input, and the
// local then names the result.
int record_assignment(PyObject* container, PyObject* key, PyObject* value, const Location& where,
                      PyObject** name = nullptr) {
  Operand x, v;
  const bool array = name && !is_lazy(container);
  if (array ? !held_by_one_name(container) || !classify(container, x) || x.shape.empty()
            : !viewable(container, x)) {
    return 0;
  }
  if (!classify(value, v) || !state_allows_tracing()) return 0;
  std::shared_ptr<Trace> trace = open_trace();
  const int consumed = v.lazy && Py_REFCNT(value) == 1 ? node_of(value) : -1;
  if (!array && shares_with_live_views(*trace, node_of(container), consumed)) return 0;
  if (trace->region.nodes.size() > kMaxRegionNodes) return flush(Reason::k_size_cap, where, nullptr) < 0 ? -1 : 0;
  jit::Node node;
  node.dtype = node.compute = x.dtype;
  node.shape = x.shape;
  EagerForm form;
  form.kind = EagerForm::Kind::kSetItem;
  const bool mask_key = is_lazy(key) || Py_TYPE(key) == &PyArray_Type;
  if (array && !mask_key) return 0;  // a part: the evaluator's store writes it (store_into_array)
  const int target = array ? input_node(*trace, x) : node_of(container);
  if (mask_key) {
    Operand mask;
    if (!classify(key, mask) || mask.dtype != DType::kBool || mask.shape != x.shape) return 0;
    if (!v.shape.empty()) return 0;  // an array of values: NumPy's, through materialization
    const int value_node = assigned_value_node(*trace, x, v, AssignForm::kMask);
    if (value_node < 0) return 0;
    node.op = Op::where;
    node.inputs[0] = input_node(*trace, mask);
    node.inputs[1] = value_node;
    node.inputs[2] = target;
    form.arg_nodes = {target, node.inputs[0], value_node};
    form.constants = {nullptr, nullptr, nullptr};
  } else {
    Shape part;
    bool element = false;
    if (!basic_index_shape(x.shape, key, part, element) || !assignable(v.shape, part, element)) return 0;
    const int value_node =
        assigned_value_node(*trace, x, v, element ? AssignForm::kElement : AssignForm::kPart);
    if (value_node < 0) return 0;
    node.op = Op::setitem;
    node.inputs[0] = target;
    node.inputs[1] = value_node;
    form.arg_nodes = {target, -1, value_node};
    form.constants = {nullptr, Py_NewRef(key), nullptr};
  }
  const int index = add_node(*trace, std::move(node), std::move(form), where);
  if (array) {
    PyObject* result = new_lazy(trace, index);
    if (!result) return -1;
    Py_SETREF(*name, result);
    return 1;
  }
  retarget_lazy(container, index);
  return 1;
}

// Masks' compressing and expanding (after the complex recording they use).
PyObject* record_compress(PyObject* container, PyObject* key, const Location& where);
int record_compressed_assignment(PyObject* container, PyObject* key, PyObject* value, const Location& where,
                                 PyObject** name);

// `u[key] = value` for an array u the program holds and a lazy value that
// only the assignment uses: the region runs now (u is memory others see),
// offered u[key] as where its last step may compute the value. 1: the value
// is in u[key]; 0: not (the evaluator assigns it, as NumPy); -1: error.
int store_into_array(PyObject* container, PyObject* key, PyObject* value, const Location& where) {
  Operand v;
  if (!classify(value, v) || v.shape.empty() || Py_REFCNT(value) != 1) return 0;
  Trace& trace = *trace_of(value);
  if (trace.handles[node_of(value)] != 1) return 0;
  auto* u = reinterpret_cast<PyArrayObject*>(container);
  Shape part;
  bool element = false;
  if (!basic_index_shape(Shape(PyArray_DIMS(u), PyArray_DIMS(u) + PyArray_NDIM(u)), key, part, element) ||
      element || part != v.shape) {
    return 0;
  }
  PyRef view(PyObject_GetItem(container, key));
  if (!view || !PyArray_CheckExact(view.get())) {
    PyErr_Clear();
    return 0;
  }
  StoreTarget target;
  target.node = node_of(value);
  target.part = view.get();
  if (run_trace(trace, Reason::k_store, where, "STORE_SUBSCR", &target) < 0) return -1;
  return target.stored ? 1 : 0;
}

}  // namespace

void prepare_tracing() {
  load_vocabulary();
  jit::start_kernel_threads();
}

PyObject* trace_subscript(PyObject* container, PyObject* key, const Location& where) {
  if (is_lazy(key) || (PyArray_Check(key) && PyArray_ISBOOL(reinterpret_cast<PyArrayObject*>(key)))) {
    return record_compress(container, key, where);
  }
  Operand x;
  if (!viewable(container, x)) return nullptr;
  Shape shape;
  bool element = false;
  if (!basic_index_shape(x.shape, key, shape, element)) return nullptr;
  EagerForm form;
  form.kind = EagerForm::Kind::kSubscript;
  form.arg_nodes = {node_of(container), -1};
  form.constants = {nullptr, Py_NewRef(key)};
  // An element is a NumPy scalar.
  return record_view(x, std::move(shape), std::move(form), element, where);
}

int trace_store_subscript(PyObject* container, PyObject* key, PyObject* value, const Location& where,
                          PyObject** name) {
  if (running_trace()) return 0;
  if (is_lazy(value)) {
    const int recorded = record_compressed_assignment(container, key, value, where, name);
    if (recorded != 0) return recorded;
  }
  if (is_lazy(container)) return record_assignment(container, key, value, where);
  if (name && Py_TYPE(container) == &PyArray_Type && (is_lazy(key) || Py_TYPE(key) == &PyArray_Type)) {
    const int recorded = record_assignment(container, key, value, where, name);
    if (recorded != 0) return recorded;
  }
  if (is_lazy(value) && Py_TYPE(container) == &PyArray_Type) return store_into_array(container, key, value, where);
  return 0;
}

namespace {

// NumPy's `**` on a float array with the exponent 2 or -1 (Python ints) or
// 0.5 (a Python float) calls square, reciprocal or sqrt instead of power:
// the values (sqrt(-0.0) is -0.0) and the warnings are those ufuncs'.
// Op::input when `**` stays power.
Op power_shortcut(const Operand& base, PyObject* exponent) {
  if (base.weak != Weak::kNone || base.numpy_scalar || !jit::is_float(base.dtype)) return Op::input;
  if (PyLong_CheckExact(exponent)) {
    int overflow = 0;
    const long e = PyLong_AsLongAndOverflow(exponent, &overflow);
    if (overflow != 0 || (e == -1 && PyErr_Occurred())) {
      PyErr_Clear();
      return Op::input;
    }
    return e == 2 ? Op::square : e == -1 ? Op::reciprocal : Op::input;
  }
  if (PyFloat_CheckExact(exponent) && PyFloat_AS_DOUBLE(exponent) == 0.5) return Op::sqrt;
  return Op::input;
}

// complex128 values, recorded as their parts. A complex value in a region
// is a node of op `complex` over two float64 nodes, its real and imaginary
// parts; a complex operation is recorded as float64 steps on the parts
// (EagerForm::kPartOfCall) that compute what NumPy's own loop computes, and
// its complex node (or, for np.abs, its last step) makes the program's call
// through NumPy. Kernels so compute complex work in double lanes and write
// complex128 only where a value leaves the region. A complex128 array is
// read as its .real and .imag views, a complex scalar as two constants, and
// a real operand as NumPy casts it before its loop: itself as a double,
// with an imaginary part of 0.0 (which the steps add, subtract and multiply
// as NumPy does: -0.0 + 0.0 is 0.0).

// Whether NumPy's complex products round a * b - c once, as its SIMD code
// for CPUs with FMA does, asked of NumPy's own multiply once:
// (1 + 2^-27 + i)(1 - 2^-27 + i) has the real part 1 - 2^-54 - 1, which
// rounds to 0 unless the product and the difference round together.
bool numpy_fuses_complex_products() {
  static int fused = -1;
  if (fused >= 0) return fused == 1;
  npy_intp one = 1;
  PyRef a(PyArray_SimpleNew(1, &one, NPY_CDOUBLE)), b(PyArray_SimpleNew(1, &one, NPY_CDOUBLE));
  if (!a || !b) {
    PyErr_Clear();
    return false;
  }
  auto* x = static_cast<double*>(PyArray_DATA(reinterpret_cast<PyArrayObject*>(a.get())));
  auto* y = static_cast<double*>(PyArray_DATA(reinterpret_cast<PyArrayObject*>(b.get())));
  x[0] = 1 + std::ldexp(1.0, -27);
  x[1] = 1;
  y[0] = 1 - std::ldexp(1.0, -27);
  y[1] = 1;
  PyRef product(PyNumber_Multiply(a.get(), b.get()));
  if (!product || !PyArray_Check(product.get())) {
    PyErr_Clear();
    return false;
  }
  fused = static_cast<const double*>(PyArray_DATA(reinterpret_cast<PyArrayObject*>(product.get())))[0] != 0 ? 1 : 0;
  return fused == 1;
}

// Whether an operand makes an operation complex: a complex lazy value, a
// complex array or a complex scalar (of any precision: those the
// recording does not take it refuses, rather than the real recording).
bool is_complex_operand(PyObject* o) {
  if (is_lazy(o)) {
    Trace* trace = trace_of(o);
    return !trace->done && jit::is_complex(trace->region.nodes[node_of(o)].dtype);
  }
  if (PyArray_Check(o)) return PyArray_ISCOMPLEX(reinterpret_cast<PyArrayObject*>(o));
  return PyComplex_Check(o) || PyArray_IsScalar(o, ComplexFloating);
}

struct ComplexOperand {
  enum class Kind { kArray, kLazy, kScalar, kReal };
  Kind kind = Kind::kReal;
  PyObject* object = nullptr;  // borrowed
  bool weak = false;           // a Python complex (kScalar)
  Py_complex value{0, 0};      // kScalar
  Operand real;                // kReal: the operand as a real one
  Shape shape;
  npy_intp size = 1;
};

// A complex operation's operand, or false (refused) for one it does not take.
bool classify_complex(PyObject* o, ComplexOperand& out) {
  using Kind = ComplexOperand::Kind;
  out.object = o;
  if (is_lazy(o) && is_complex_operand(o)) {
    Trace* trace = trace_of(o);
    if (trace != pending_trace() || !takes_compressed(*trace, node_of(o))) return false;
    out.kind = Kind::kLazy;
    out.shape = trace->region.nodes[node_of(o)].shape;
    out.size = jit::element_count(out.shape);
    return true;
  }
  if (PyArray_Check(o) && PyArray_ISCOMPLEX(reinterpret_cast<PyArrayObject*>(o))) {
    auto* a = reinterpret_cast<PyArrayObject*>(o);
    const PyArray_Descr* descr = PyArray_DESCR(a);
    if (Py_TYPE(o) != &PyArray_Type) {
      refuse(EagerReason::k_operand_kind);
      return false;
    }
    if (descr->type_num != NPY_CDOUBLE || !PyArray_ISNBO(descr->byteorder) || PyDataType_METADATA(descr)) {
      refuse_dtype(PyArray_DESCR(a));
      return false;
    }
    out.kind = Kind::kArray;
    out.shape.assign(PyArray_DIMS(a), PyArray_DIMS(a) + PyArray_NDIM(a));
    out.size = PyArray_SIZE(a);
    return true;
  }
  if (PyComplex_CheckExact(o) || PyArray_IsScalar(o, CDouble)) {
    out.kind = Kind::kScalar;
    out.weak = PyComplex_CheckExact(o);
    out.value = PyComplex_AsCComplex(o);
    return true;
  }
  if (is_complex_operand(o)) {  // a complex64 or clongdouble scalar
    if (PyArray_Descr* descr = PyArray_DescrFromScalar(o)) {
      refuse_dtype(descr);
      Py_DECREF(descr);
    }
    PyErr_Clear();
    return false;
  }
  out.kind = Kind::kReal;
  if (!classify(o, out.real)) return false;
  out.shape = out.real.shape;
  out.size = out.real.size;
  return true;
}

// What np.result_type takes for the operand: its dtype, or a Python number
// itself (NEP 50's weak scalars).
PyObject* complex_type_key(const ComplexOperand& x) {
  if (x.kind == ComplexOperand::Kind::kReal) return dtype_key(x.real);
  if (x.weak) return x.object;
  static PyObject* complex128 = reinterpret_cast<PyObject*>(PyArray_DescrFromType(NPY_CDOUBLE));
  return complex128;
}

// Whether NumPy computes the operation in complex128 (not complex64, which
// a Python complex with float32 gives).
bool gives_complex128(const ComplexOperand* const* xs, int n) {
  PyObject* result_type = numpy_attr("result_type");
  if (!result_type) return false;
  PyRef descr(n == 1 ? PyObject_CallFunctionObjArgs(result_type, complex_type_key(*xs[0]), nullptr)
                     : PyObject_CallFunctionObjArgs(result_type, complex_type_key(*xs[0]),
                                                    complex_type_key(*xs[1]), nullptr));
  if (!descr) {
    PyErr_Clear();
    return false;
  }
  return reinterpret_cast<PyArray_Descr*>(descr.get())->type_num == NPY_CDOUBLE;
}

struct ComplexParts {
  int re = -1;
  int im = -1;
};

// The real and imaginary parts of an operand, as nodes of the trace.
bool complex_parts(Trace& trace, const ComplexOperand& x, const Location& where, ComplexParts& parts) {
  using Kind = ComplexOperand::Kind;
  switch (x.kind) {
    case Kind::kLazy: {
      const jit::Node& node = trace.region.nodes[node_of(x.object)];
      parts = {node.inputs[0], node.inputs[1]};
      return true;
    }
    case Kind::kScalar:
      parts = {constant_node(trace, x.value.real), constant_node(trace, x.value.imag)};
      return true;
    case Kind::kArray: {
      const char* names[2] = {"real", "imag"};
      int nodes[2];
      for (int k = 0; k < 2; ++k) {
        PyRef view(PyObject_GetAttrString(x.object, names[k]));
        Operand part;
        if (!view || !classify(view.get(), part)) {
          PyErr_Clear();
          return false;
        }
        nodes[k] = input_node(trace, part);
      }
      parts = {nodes[0], nodes[1]};
      return true;
    }
    case Kind::kReal: {
      const Operand& r = x.real;
      if (r.weak != Weak::kNone) {
        const double v = r.weak == Weak::kFloat ? PyFloat_AS_DOUBLE(r.object)
                         : r.weak == Weak::kBool ? (r.object == Py_True ? 1.0 : 0.0)
                                                 : static_cast<double>(*python_int64(r.object));
        parts.re = constant_node(trace, v);
      } else if (!r.lazy && r.shape.empty() && r.dtype != DType::kFloat64) {
        // A NumPy scalar of another type: its value as a double, the
        // conversion NumPy's cast makes, folded here rather than a step.
        PyRef value(PyNumber_Float(r.object));
        if (!value) {
          PyErr_Clear();
          return false;
        }
        parts.re = constant_node(trace, PyFloat_AS_DOUBLE(value.get()));
      } else {
        parts.re = input_node(trace, r);
        if (r.dtype != DType::kFloat64) {
          parts.re = add_part(trace, Op::astype, DType::kFloat64, r.shape, parts.re, -1, 0, false, where);
        }
      }
      parts.im = constant_node(trace, 0.0);
      return true;
    }
  }
  return false;
}

// A float64 (or, for comparisons, bool) step of a complex operation.
int complex_step(Trace& trace, Op op, const Shape& shape, int a, int b, int c, const Location& where) {
  jit::Node node;
  node.op = op;
  node.dtype = node.compute = DType::kFloat64;
  const jit::OpKind kind = jit::op_info(op).kind;
  const bool gives_bool = op == Op::equal || op == Op::not_equal || op == Op::isnan || op == Op::logical_or ||
                          op == Op::logical_and || op == Op::logical_not || op == Op::signaling_greater_equal ||
                          op == Op::isinf || op == Op::isfinite;
  if (gives_bool) node.dtype = DType::kBool;
  if (op == Op::logical_or || op == Op::logical_and || op == Op::logical_not) node.compute = DType::kBool;
  node.shape = shape;
  node.inputs[0] = a;
  node.inputs[1] = b;
  node.inputs[2] = kind == jit::OpKind::kTernary ? c : -1;
  EagerForm part;
  part.kind = EagerForm::Kind::kPartOfCall;
  return add_node(trace, std::move(node), std::move(part), where);
}

// The steps of NumPy's product of two complex values: its SIMD code's
// (re = a.re * b.re - a.im * b.im and im = a.re * b.im + a.im * b.re, the
// second products rounded first, each first product and sum rounded once
// where NumPy's are), or its scalar code's (each product rounded). The
// operands are in the order of NumPy's machine code for whole vectors, which
// decides which NaN is the result where a step has one NaN operand among
// others that are not (b's part first in the second products). Where a step
// has several NaN operands, NumPy's own result's sign depends on where in
// its loop the element falls (its two unrolled vectors and the tail are
// compiled with other operand orders); kernels keep one order.
ComplexParts complex_product(Trace& trace, const Shape& shape, ComplexParts a, ComplexParts b,
                             const Location& where) {
  auto step = [&](Op op, int x, int y, int z = -1) { return complex_step(trace, op, shape, x, y, z, where); };
  if (numpy_fuses_complex_products()) {
    const int re = step(Op::fms, a.re, b.re, step(Op::multiply, b.im, a.im));
    const int im = step(Op::fma, a.re, b.im, step(Op::multiply, b.re, a.im));
    return {re, im};
  }
  const int re = step(Op::subtract, step(Op::multiply, a.re, b.re), step(Op::multiply, a.im, b.im));
  const int im = step(Op::add, step(Op::multiply, a.re, b.im), step(Op::multiply, a.im, b.re));
  return {re, im};
}

// |z| as NumPy's SIMD loop computes it (loops_unary_complex): with
// x = |re| and y = |im|, inf where either is inf, else NaN where re is NaN,
// else y where im is NaN, else max * sqrt(1 + (min / max)^2) (0 where max
// is 0; the square and the 1 added in one rounding where NumPy's are).
// Steps that NumPy does not take are given operands that raise no flags:
// NumPy clears them after this loop.
int complex_magnitude(Trace& trace, const Shape& shape, ComplexParts z, const Location& where) {
  auto step = [&](Op op, int x, int y = -1, int w = -1) { return complex_step(trace, op, shape, x, y, w, where); };
  auto constant = [&](double v) { return constant_node(trace, v); };
  const double inf = std::numeric_limits<double>::infinity();
  const int x = step(Op::absolute, z.re), y = step(Op::absolute, z.im);
  const int infinite = step(Op::logical_or, step(Op::equal, x, constant(inf)), step(Op::equal, y, constant(inf)));
  const int larger = step(Op::maximum, x, y), smaller = step(Op::minimum, x, y);
  const int divides = step(Op::logical_and, step(Op::not_equal, larger, constant(0.0)), step(Op::logical_not, infinite));
  const int ratio = step(Op::where, divides, step(Op::divide, smaller, step(Op::where, divides, larger, constant(1.0))),
                         constant(0.0));
  const int one_plus = numpy_fuses_complex_products() ? step(Op::fma, ratio, ratio, constant(1.0))
                                                      : step(Op::add, step(Op::multiply, ratio, ratio), constant(1.0));
  const int scaled = step(Op::multiply, step(Op::sqrt, one_plus), larger);
  const int finite = step(Op::where, step(Op::isnan, z.re), constant(std::numeric_limits<double>::quiet_NaN()),
                          step(Op::where, step(Op::isnan, z.im), y, scaled));
  return step(Op::where, infinite, constant(inf), finite);
}

// NumPy's complex division (its scalar loop: Smith's method), with its
// branches on the divisor's parts taken as selects:
//   |c| >= |d| (C's >=, which raises invalid where either is NaN):
//     both 0: a / |c|, b / |d|;
//     else rat = d / c, scl = 1 / (c + d * rat),
//          ((a + b * rat) * scl, (b - a * rat) * scl);
//   else rat = c / d, scl = 1 / (d + c * rat),
//        ((a * rat + b) * scl, (b * rat - a) * scl).
// Both branches are one computation on the divisor's larger and smaller
// part (p, q) and the dividend's parts in the matching order (s, t):
// a * rat + b is b + a * rat, and the imaginary part's difference takes
// its operands in the branch's order. Each step takes its operands in the
// order of NumPy's machine code, which decides which NaN is the result
// where several meet (found against NumPy over every combination of
// zeros, infinities, NaNs of other payloads and signs, and ordinary and
// extreme values): the two branches' real sums have theirs the other way
// round, so both are computed and the branch's taken. Where the divisor
// is 0 the steps take operands that raise no flags, but 1 / 0 (scl, +inf):
// a * scl is a / +0, its bits and flags, and that divide-by-zero NumPy may
// not raise (0 / 0 and inf / 0 do not) only makes NumPy compute the region
// again. Elsewhere every step is NumPy's, on NumPy's operands.
ComplexParts complex_quotient(Trace& trace, const Shape& shape, ComplexParts x, ComplexParts y,
                              const Location& where) {
  auto step = [&](Op op, int a, int b = -1, int c = -1) { return complex_step(trace, op, shape, a, b, c, where); };
  const int zero = constant_node(trace, 0.0), one = constant_node(trace, 1.0);
  const int c = step(Op::absolute, y.re), d = step(Op::absolute, y.im);
  const int real_larger = step(Op::signaling_greater_equal, c, d);
  const int by_zero = step(Op::logical_and, step(Op::equal, c, zero), step(Op::equal, d, zero));
  const int p = step(Op::where, real_larger, y.re, y.im);
  const int q = step(Op::where, by_zero, zero, step(Op::where, real_larger, y.im, y.re));
  const int rat = step(Op::divide, q, step(Op::where, by_zero, one, p));
  const int scl = step(Op::divide, one, step(Op::add, step(Op::multiply, rat, q), p));
  const int s = step(Op::where, by_zero, one, step(Op::where, real_larger, x.re, x.im));
  const int t = step(Op::where, by_zero, one, step(Op::where, real_larger, x.im, x.re));
  const int bt = step(Op::multiply, rat, t);
  const int re = step(Op::multiply, step(Op::where, real_larger, step(Op::add, bt, s), step(Op::add, s, bt)), scl);
  const int u = step(Op::multiply, rat, s);
  const int im = step(Op::multiply,
                      step(Op::subtract, step(Op::where, real_larger, t, u), step(Op::where, real_larger, u, t)), scl);
  const int zero_scl = step(Op::where, by_zero, scl, one);
  const int zero_re = step(Op::multiply, step(Op::where, by_zero, x.re, zero), zero_scl);
  const int zero_im = step(Op::multiply, step(Op::where, by_zero, x.im, zero), zero_scl);
  return {step(Op::where, by_zero, zero_re, re), step(Op::where, by_zero, zero_im, im)};
}

// complex_quotient's computation, element by element as NumPy's loop
// branches: what numpy_divides_complex_as_recorded compares NumPy with.
void smith_quotient(const double* x, const double* y, double* out) {
  const double c = std::fabs(y[0]), d = std::fabs(y[1]);
  if (c >= d && c == 0 && d == 0) {
    out[0] = x[0] / c;
    out[1] = x[1] / d;
  } else if (c >= d) {
    const double rat = y[1] / y[0], scl = 1.0 / (y[0] + y[1] * rat);
    out[0] = (x[0] + x[1] * rat) * scl;
    out[1] = (x[1] - x[0] * rat) * scl;
  } else {
    const double rat = y[0] / y[1], scl = 1.0 / (y[1] + y[0] * rat);
    out[0] = (x[0] * rat + x[1]) * scl;
    out[1] = (x[1] * rat - x[0]) * scl;
  }
}

// Whether NumPy's complex division is the one complex_quotient records:
// its results, bit for bit, on quotients that tell its versions and builds
// apart (a product and sum rounded once, special cases for NaNs and
// infinities, which NumPy 2.5 has), asked of NumPy's own inner loop once,
// called directly: no Python code runs (which could end the region being
// recorded) and no warning is issued; the floating-point flags it raises
// are put back as they were.
bool numpy_divides_complex_as_recorded() {
  static int same = -1;
  if (same >= 0) return same == 1;
  same = 0;
  const jit::NumpyLoop loop = inner_loop_of(numpy_attr("divide"), NPY_CDOUBLE);
  if (!loop.function) {
    PyErr_Clear();
    return false;
  }
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  constexpr int kCases = 14;
  double xs[kCases][2] = {{1.1, -2.3}, {1.0 / 3, 2.0 / 7}, {3.3, 1e-3}, {1 + std::ldexp(1.0, -27), 1.0},
                          {1e300, 1e300}, {5, 7}, {-0.0, 0.0}, {1, 1}, {0, 0}, {inf, nan}, {nan, 0}, {inf, 1},
                          {1, 1}, {2, -3}};
  double ys[kCases][2] = {{0.7, 0.3}, {1.0 / 9, -1.0 / 11}, {-0.2, 5.5}, {1.0, 1 - std::ldexp(1.0, -27)},
                          {1e-300, 1e-300}, {0, 2}, {-0.0, 1.0}, {0, 0}, {-0.0, 0}, {inf, inf}, {0, 0}, {2, 3},
                          {inf, 1}, {1, nan}};
  double got[kCases][2];
  char* args[3] = {reinterpret_cast<char*>(xs), reinterpret_cast<char*>(ys), reinterpret_cast<char*>(got)};
  const std::intptr_t dimensions[1] = {kCases};
  const std::intptr_t steps[3] = {16, 16, 16};
  std::fenv_t flags;
  std::fegetenv(&flags);
  loop.function(args, dimensions, steps, loop.data);
  std::fesetenv(&flags);
  for (int k = 0; k < kCases; ++k) {
    double expected[2];
    smith_quotient(xs[k], ys[k], expected);
    if (std::memcmp(expected, got[k], sizeof expected) != 0) return false;
  }
  same = 1;
  return true;
}

// A complex operation through an operator or a ufunc call: the form that
// computes it through NumPy.
EagerForm complex_form(EagerForm::Kind kind, int operator_code, PyObject* callable, Op op) {
  EagerForm form;
  form.kind = kind;
  form.operator_code = operator_code;
  form.callable = callable ? Py_NewRef(callable) : nullptr;
  form.reports_at_call_site = true;
  form.ufunc_name = jit::op_info(op).name;
  return form;
}

// Whether python3's NumPy would compute the NB_* operator `nb_op` into x's
// memory, x its `left` operand or the other (temporary_elision.h,
// elides_into): x a complex128 temporary only the interpreter's stack
// holds, the shape of the result.
bool numpy_would_elide(int nb_op, bool left, PyObject* o, const ComplexOperand& x, const Shape& result) {
  using Kind = ComplexOperand::Kind;
  if ((x.kind != Kind::kLazy && x.kind != Kind::kArray) || Py_REFCNT(o) != 1 || x.shape != result) return false;
  if (!elides_into(nb_op, left, 'c', static_cast<std::int64_t>(x.size) * 16)) return false;
  if (x.kind == Kind::kLazy) return true;
  auto* a = reinterpret_cast<PyArrayObject*>(o);
  return PyArray_CHKFLAGS(a, NPY_ARRAY_OWNDATA) && PyArray_ISWRITEABLE(a) &&
         !PyArray_CHKFLAGS(a, NPY_ARRAY_WRITEBACKIFCOPY);
}

// The complex operations record_complex records, whether an operator or a
// ufunc call spells them; NumPy computes the others (complex ordering
// compares among them: NumPy's order of complex values is its own).
bool records_complex(Op op) {
  switch (op) {
    case Op::add: case Op::subtract: case Op::multiply: case Op::divide: case Op::square: case Op::negative:
    case Op::positive: case Op::conjugate: case Op::absolute: case Op::equal: case Op::not_equal:
    case Op::isnan: case Op::isinf: case Op::isfinite: case Op::exp:
      return true;
    default: return false;
  }
}

// Records a complex operation, `op` (records_complex), over the operands,
// computing the result of `form`, which also passes `last_argument` (z **
// 2's exponent) where there is one. nullptr without exception when not
// recorded.
PyObject* record_complex(Op op, PyObject* const* objects, int n, EagerForm form, const Location& where,
                         PyObject* last_argument = nullptr) {
  ComplexOperand xs[2];
  const ComplexOperand* ops[2] = {&xs[0], &xs[1]};
  bool worth = false;
  for (int i = 0; i < n; ++i) {
    if (!classify_complex(objects[i], xs[i])) return nullptr;
    const bool array = xs[i].kind == ComplexOperand::Kind::kArray ||
                       (xs[i].kind == ComplexOperand::Kind::kReal && xs[i].real.weak == Weak::kNone &&
                        !xs[i].real.numpy_scalar);
    const bool lazy = xs[i].kind == ComplexOperand::Kind::kLazy ||
                      (xs[i].kind == ComplexOperand::Kind::kReal && xs[i].real.lazy);
    worth = worth || lazy || (array && xs[i].size >= kMinTracedElements);
  }
  if (running_trace() || !worth) {
    refuse(EagerReason::k_small_arrays);
    return nullptr;
  }
  if (!state_allows_tracing() || !gives_complex128(ops, n)) {
    refuse(EagerReason::k_complex_op);
    return nullptr;
  }
  // Products and magnitudes NumPy rounds as FMA does need kernels that have
  // it, not SSE2's (NPY_VECTOR_ISA=sse2 on a CPU with FMA): NumPy computes
  // complex work there, sums too, so that its chains elide their
  // temporaries as under python3 rather than alternate with regions.
  if (numpy_fuses_complex_products() && jit::host_vector_isa() == jit::VectorIsa::kSse2) {
    refuse(EagerReason::k_complex_op);
    return nullptr;
  }
  if (op == Op::divide && !numpy_divides_complex_as_recorded()) {
    refuse(EagerReason::k_complex_op);
    return nullptr;
  }
  // NumPy's complex absolute takes its SIMD loop, whose formula the
  // recording follows, only where its loop's stride is positive; an array
  // with a negative stride (z[::-1]) can reach the loop as it is and get
  // the C library's hypot, which rounds otherwise. NumPy computes those.
  if (op == Op::absolute && xs[0].kind == ComplexOperand::Kind::kArray) {
    auto* a = reinterpret_cast<PyArrayObject*>(xs[0].object);
    if (std::any_of(PyArray_STRIDES(a), PyArray_STRIDES(a) + PyArray_NDIM(a), [](npy_intp s) { return s < 0; })) {
      refuse(EagerReason::k_complex_op);
      return nullptr;
    }
  }
  Operand shapes[2];
  const Operand* shape_ops[2] = {&shapes[0], &shapes[1]};
  for (int i = 0; i < n; ++i) shapes[i].shape = xs[i].shape;
  Shape shape;
  if (!broadcast(shape_ops, n, shape)) return nullptr;
  if (allocation_refused(shape, DType::kComplex128)) return nullptr;
  // `lhs + rhs` and `lhs * rhs` with rhs a temporary NumPy elides and lhs
  // not are NumPy's `rhs += lhs`, `rhs *= lhs`: their operands the other way
  // round (a product's roundings, the NaN a sum keeps). Asked before the
  // parts' views hold references to the arrays.
  const int nb_op = form.operator_code;
  const bool swapped = form.kind == EagerForm::Kind::kBinaryOperator && (op == Op::add || op == Op::multiply) &&
                       numpy_would_elide(nb_op, false, objects[1], xs[1], shape) &&
                       !numpy_would_elide(nb_op, true, objects[0], xs[0], shape);
  std::shared_ptr<Trace> trace = open_trace();
  if (trace->region.nodes.size() + 48 > kMaxRegionNodes) {  // a quotient's steps, the most
    if (flush(Reason::k_size_cap, where, nullptr) < 0) return nullptr;
    return nullptr;
  }
  ComplexParts parts[2];
  for (int i = 0; i < n; ++i) {
    if (!complex_parts(*trace, xs[i], where, parts[i])) return nullptr;
  }
  auto step = [&](Op o, int x, int y = -1) { return complex_step(*trace, o, shape, x, y, -1, where); };
  const ComplexParts& a = parts[swapped ? 1 : 0];
  const ComplexParts& b = parts[swapped ? 0 : 1];
  int last = -1;
  ComplexParts result;
  switch (op) {
    case Op::add:
    case Op::subtract: result = {step(op, a.re, b.re), step(op, a.im, b.im)}; break;
    case Op::multiply: result = complex_product(*trace, shape, a, b, where); break;
    case Op::divide: result = complex_quotient(*trace, shape, a, b, where); break;
    case Op::square: result = complex_product(*trace, shape, a, a, where); break;
    case Op::negative: result = {step(Op::negative, a.re), step(Op::negative, a.im)}; break;
    case Op::conjugate: result = {a.re, step(Op::negative, a.im)}; break;  // NumPy's: the sign bit flipped
    case Op::positive: result = a; break;
    case Op::absolute: last = complex_magnitude(*trace, shape, a, where); break;
    // NumPy's own complex loop computes both parts (its scalar code).
    case Op::exp: result = {step(Op::exp_real, a.re, a.im), step(Op::exp_imag, a.re, a.im)}; break;
    // NumPy's loops: both parts equal; either differs; either part NaN or
    // infinite; both finite (quiet compares, as NumPy's).
    case Op::equal: last = step(Op::logical_and, step(Op::equal, a.re, b.re), step(Op::equal, a.im, b.im)); break;
    case Op::not_equal:
      last = step(Op::logical_or, step(Op::not_equal, a.re, b.re), step(Op::not_equal, a.im, b.im));
      break;
    case Op::isnan: last = step(Op::logical_or, step(Op::isnan, a.re), step(Op::isnan, a.im)); break;
    case Op::isinf: last = step(Op::logical_or, step(Op::isinf, a.re), step(Op::isinf, a.im)); break;
    case Op::isfinite: last = step(Op::logical_and, step(Op::isfinite, a.re), step(Op::isfinite, a.im)); break;
    default: return nullptr;
  }
  if (last < 0) last = complex_value_node(*trace, shape, result.re, result.im, EagerForm{}, where);
  // The last node is the program's call, on the operands themselves; the
  // ufunc on them the other way round where NumPy would have elided (the
  // runner's eager operators elide only nodes of the region).
  if (swapped) form = complex_form(EagerForm::Kind::kCall, 0, ufunc_of(op), op);
  for (int k = 0; k < n; ++k) {
    const int i = swapped ? n - 1 - k : k;
    const bool lazy = xs[i].kind == ComplexOperand::Kind::kLazy ||
                      (xs[i].kind == ComplexOperand::Kind::kReal && xs[i].real.lazy);
    form.arg_nodes.push_back(lazy ? node_of(objects[i]) : -1);
    form.constants.push_back(lazy ? nullptr : Py_NewRef(objects[i]));
  }
  if (last_argument) {
    form.arg_nodes.push_back(-1);
    form.constants.push_back(Py_NewRef(last_argument));
  }
  form.gives_scalar = trace->eager[last].gives_scalar;
  form.compressed_by = trace->eager[last].compressed_by;
  trace->eager[last] = std::move(form);
  return new_lazy(trace, last);
}

// np.where(condition, a, b) with a or b complex: where over each part
// (NumPy's where copies what it picks, a real operand cast to complex
// first). A bool condition only: NumPy casts others to bool.
PyObject* record_complex_where(PyObject* callable, PyObject* const* args, const Location& where) {
  Operand condition;
  if (is_complex_operand(args[0]) || !classify(args[0], condition) || condition.dtype != DType::kBool ||
      condition.weak != Weak::kNone) {
    return nullptr;
  }
  ComplexOperand xs[2];
  const ComplexOperand* ops[2] = {&xs[0], &xs[1]};
  bool worth = condition.lazy || condition.size >= kMinTracedElements;
  for (int i = 0; i < 2; ++i) {
    if (!classify_complex(args[i + 1], xs[i])) return nullptr;
    worth = worth || xs[i].kind == ComplexOperand::Kind::kLazy || xs[i].size >= kMinTracedElements ||
            (xs[i].kind == ComplexOperand::Kind::kReal && xs[i].real.lazy);
  }
  if (running_trace() || !worth) {
    refuse(EagerReason::k_small_arrays);
    return nullptr;
  }
  if (!state_allows_tracing() || !gives_complex128(ops, 2)) {
    refuse(EagerReason::k_complex_op);
    return nullptr;
  }
  Operand shapes[3];
  const Operand* shape_ops[3] = {&condition, &shapes[1], &shapes[2]};
  for (int i = 0; i < 2; ++i) shapes[i + 1].shape = xs[i].shape;
  Shape shape;
  if (!broadcast(shape_ops, 3, shape) || allocation_refused(shape, DType::kComplex128)) return nullptr;
  std::shared_ptr<Trace> trace = open_trace();
  if (trace->region.nodes.size() + 8 > kMaxRegionNodes) {
    if (flush(Reason::k_size_cap, where, nullptr) < 0) return nullptr;
    return nullptr;
  }
  ComplexParts parts[2];
  for (int i = 0; i < 2; ++i) {
    if (!complex_parts(*trace, xs[i], where, parts[i])) return nullptr;
  }
  const int picks = input_node(*trace, condition);
  const int re = complex_step(*trace, Op::where, shape, picks, parts[0].re, parts[1].re, where);
  const int im = complex_step(*trace, Op::where, shape, picks, parts[0].im, parts[1].im, where);
  EagerForm form;
  form.kind = EagerForm::Kind::kCall;
  form.callable = Py_NewRef(callable);
  for (int i = 0; i < 3; ++i) {
    const bool lazy = is_lazy(args[i]);
    form.arg_nodes.push_back(lazy ? node_of(args[i]) : -1);
    form.constants.push_back(lazy ? nullptr : Py_NewRef(args[i]));
  }
  return new_lazy(trace, complex_value_node(*trace, shape, re, im, std::move(form), where));
}

// Whether `key` is the mask node `mask_node` of the trace: that pending
// value, or the array it is the input node of.
bool is_mask_node(const Trace& trace, PyObject* key, int mask_node) {
  if (is_lazy(key)) return trace_of(key) == &trace && node_of(key) == mask_node;
  for (const auto& [object, node] : trace.input_nodes) {
    if (node == mask_node && object == key) return true;
  }
  return false;
}

// `x[mask]` for a boolean mask (an array or a pending value) of x's own
// shape, x pending or an array: a compress node over x (for complex x,
// over each part), compressed by the mask (EagerForm::compressed_by), so
// that element-wise work on it and its assignment back under that mask,
// `x[mask] = f(x[mask], y[mask])`, fuse into loops over the whole shape.
// nullptr without exception when not traced.
PyObject* record_compress(PyObject* container, PyObject* key, const Location& where) {
  Operand mask;
  if (running_trace() || !classify(key, mask) || mask.dtype != DType::kBool || mask.weak != Weak::kNone ||
      mask.numpy_scalar || mask.shape.empty()) {
    return nullptr;
  }
  const bool complex = is_complex_operand(container);
  ComplexOperand z;
  Operand x;
  if (complex) {
    if (!classify_complex(container, z) ||
        (z.kind != ComplexOperand::Kind::kLazy && z.kind != ComplexOperand::Kind::kArray)) {
      return nullptr;
    }
  } else if (!classify(container, x) || x.weak != Weak::kNone || x.numpy_scalar) {
    return nullptr;
  }
  const Shape& shape = complex ? z.shape : x.shape;
  if (shape != mask.shape) return nullptr;
  if (!mask.lazy && !is_lazy(container) && mask.size < kMinTracedElements) {
    refuse(EagerReason::k_small_arrays);
    return nullptr;
  }
  if (!state_allows_tracing()) return nullptr;
  std::shared_ptr<Trace> trace = open_trace();
  // A region cut while a compressed value is live leaves the rest of its
  // statement to NumPy (those values are compressed then): past half its
  // size, it is cut here, where none is, and the evaluator traces this
  // subscript again on the arrays.
  const std::size_t size = trace->region.nodes.size();
  bool compressed_live = false;
  for (std::size_t i = 0; i < size && !compressed_live; ++i) {
    compressed_live = trace->handles[i] > 0 && trace->eager[i].compressed_by >= 0;
  }
  if (size + 4 > kMaxRegionNodes || (size > kMaxRegionNodes / 2 && !compressed_live)) {
    flush(Reason::k_size_cap, where, nullptr);
    return nullptr;
  }
  const int mask_node = input_node(*trace, mask);
  const CompressedOperands compressed(trace.get(), mask_node);
  EagerForm form;
  form.kind = EagerForm::Kind::kSubscript;
  if (!complex) {
    const int of = input_node(*trace, x);
    form.arg_nodes = {of, mask_node};
    form.constants = {nullptr, nullptr};
    jit::Node node;
    node.op = Op::compress;
    node.dtype = node.compute = x.dtype;
    node.shape = shape;
    node.inputs[0] = of;
    return new_lazy(trace, add_node(*trace, std::move(node), std::move(form), where));
  }
  ComplexParts parts;
  if (!complex_parts(*trace, z, where, parts)) return nullptr;
  const int re = add_part(*trace, Op::compress, DType::kFloat64, shape, parts.re, -1, 0, false, where);
  const int im = add_part(*trace, Op::compress, DType::kFloat64, shape, parts.im, -1, 0, false, where);
  const bool lazy = is_lazy(container);
  form.arg_nodes = {lazy ? node_of(container) : -1, mask_node};
  form.constants = {lazy ? nullptr : Py_NewRef(container), nullptr};
  return new_lazy(trace, complex_value_node(*trace, shape, re, im, std::move(form), where));
}

// `x[mask] = value` for a value compressed by that very mask
// (record_compress): where(mask, value, x) over x's shape, or for complex
// x and value, over each part, with the assignment as its eager form. x is
// pending, or an array only the program's local `name` holds
// (held_by_one_name), which the local then names the result of, as
// record_assignment's. 1: recorded; 0: not traced; -1: error.
int record_compressed_assignment(PyObject* container, PyObject* key, PyObject* value, const Location& where,
                                 PyObject** name) {
  Trace* pending = pending_trace();
  if (!pending || !is_lazy(value) || trace_of(value) != pending) return 0;
  const int mask_node = pending->eager[node_of(value)].compressed_by;
  if (mask_node < 0 || !is_mask_node(*pending, key, mask_node)) return 0;
  const bool lazy = is_lazy(container);
  if (lazy ? trace_of(container) != pending || pending->eager[node_of(container)].compressed_by >= 0
           : !name || !held_by_one_name(container)) {
    return 0;
  }
  const Shape& shape = pending->region.nodes[mask_node].shape;
  const int consumed = Py_REFCNT(value) == 1 ? node_of(value) : -1;
  if (lazy && shares_with_live_views(*pending, node_of(container), consumed)) return 0;
  const bool complex = is_complex_operand(container);
  if (complex != jit::is_complex(pending->region.nodes[node_of(value)].dtype)) return 0;
  if (!state_allows_tracing()) return 0;
  std::shared_ptr<Trace> trace = open_trace();
  if (trace->region.nodes.size() + 4 > kMaxRegionNodes) return flush(Reason::k_size_cap, where, nullptr) < 0 ? -1 : 0;
  EagerForm form;
  form.kind = EagerForm::Kind::kSetItem;
  form.expands_compressed = true;
  int index = -1;
  if (!complex) {
    Operand x;
    if (!classify(container, x) || x.shape != shape) return 0;
    const jit::Node& v = trace->region.nodes[node_of(value)];
    if (!casts_quietly(v.dtype, x.dtype)) return 0;
    const int target = input_node(*trace, x);
    jit::Node node;
    node.op = Op::where;
    node.dtype = node.compute = x.dtype;
    node.shape = shape;
    node.inputs[0] = mask_node;
    node.inputs[1] = node_of(value);
    node.inputs[2] = target;
    form.arg_nodes = {target, mask_node, node_of(value)};
    form.constants = {nullptr, nullptr, nullptr};
    index = add_node(*trace, std::move(node), std::move(form), where);
  } else {
    ComplexOperand x;
    ComplexParts parts;
    if (!classify_complex(container, x) || x.shape != shape ||
        (x.kind != ComplexOperand::Kind::kLazy && x.kind != ComplexOperand::Kind::kArray) ||
        !complex_parts(*trace, x, where, parts)) {
      return 0;
    }
    const jit::Node& v = trace->region.nodes[node_of(value)];
    const int value_re = v.inputs[0], value_im = v.inputs[1];
    const int re = complex_step(*trace, Op::where, shape, mask_node, value_re, parts.re, where);
    const int im = complex_step(*trace, Op::where, shape, mask_node, value_im, parts.im, where);
    form.arg_nodes = {lazy ? node_of(container) : -1, mask_node, node_of(value)};
    form.constants = {lazy ? nullptr : Py_NewRef(container), nullptr, nullptr};
    index = complex_value_node(*trace, shape, re, im, std::move(form), where);
  }
  if (lazy) {
    retarget_lazy(container, index);
    return 1;
  }
  PyObject* result = new_lazy(trace, index);
  if (!result) return -1;
  Py_SETREF(*name, result);
  return 1;
}

// The recording halves of the trace_* entry points, kept out of line so
// that an operation on small arrays, answered by may_trace alone, pays for
// none of their set-up.
[[gnu::noinline]] PyObject* record_binary_operator(int nb_op, PyObject* lhs, PyObject* rhs,
                                                   const Location& where) {
  if (nb_op == NB_MATRIX_MULTIPLY) return record_product(lhs, rhs, nullptr, where);
  const Op op = operator_op(nb_op);
  if (op == Op::input) {
    refuse(nb_op == NB_INPLACE_MATRIX_MULTIPLY ? EagerReason::k_matrix_product : EagerReason::k_not_compiled);
    return nullptr;
  }
  const bool in_place = nb_op >= NB_INPLACE_ADD;
  PyObject* operands_in_order[2] = {lhs, rhs};
  const int mask = compressed_operands_mask(operands_in_order, 2);
  if (mask == -2) {
    refuse(EagerReason::k_compressed);
    return nullptr;
  }
  const CompressedOperands compressed(pending_trace(), mask);
  if (is_complex_operand(lhs) || is_complex_operand(rhs)) {
    // z ** 2 is NumPy's square (its scalar power shortcut); in-place
    // operators write the program's array.
    const bool squares = op == Op::power && PyLong_CheckExact(rhs) && PyLong_AsLong(rhs) == 2;
    if (in_place || (!records_complex(op) && !squares)) {
      PyErr_Clear();
      refuse(EagerReason::k_complex_op);
      return nullptr;
    }
    PyObject* operands[2] = {lhs, rhs};
    return record_complex(squares ? Op::square : op, operands, squares ? 1 : 2,
                          complex_form(EagerForm::Kind::kBinaryOperator, nb_op, nullptr, squares ? Op::square : op),
                          where, squares ? rhs : nullptr);
  }
  Operand a, b;
  if (!classify(lhs, a) || !classify(rhs, b)) return nullptr;
  if (a.weak != Weak::kNone && b.weak != Weak::kNone) return nullptr;
  // In place, only a pending lazy value, or an array nothing but the
  // program's one name for it holds, can be updated without writing memory
  // the program can see.
  if (in_place && (a.lazy ? shares_with_views(*trace_of(lhs), node_of(lhs)) : !held_by_one_name(lhs))) {
    refuse(EagerReason::k_in_place);
    return nullptr;
  }
  if (op == Op::power) {
    const Op shortcut = power_shortcut(a, rhs);
    if (shortcut != Op::input) {
      EagerForm form;
      form.kind = EagerForm::Kind::kCall;
      form.callable = Py_NewRef(ufunc_of(shortcut));
      form.reports_at_call_site = true;
      form.ufunc_name = jit::op_info(shortcut).name;
      const Operand* ops[] = {&a};
      return record_elementwise(shortcut, ops, 1, std::move(form), where, in_place ? lhs : nullptr);
    }
  }
  EagerForm form;
  form.kind = in_place ? EagerForm::Kind::kInPlaceOperator : EagerForm::Kind::kBinaryOperator;
  form.operator_code = nb_op;
  form.reports_at_call_site = true;
  form.ufunc_name = jit::op_info(op).name;
  const Operand* ops[] = {&a, &b};
  return record_elementwise(op, ops, 2, std::move(form), where, in_place ? lhs : nullptr);
}

[[gnu::noinline]] PyObject* record_compare(int compare, PyObject* lhs, PyObject* rhs, const Location& where) {
  const Op op = compare_op(compare);
  EagerForm form;
  form.kind = EagerForm::Kind::kCompare;
  form.operator_code = compare;
  form.reports_at_call_site = true;
  form.ufunc_name = jit::op_info(op).name;
  PyObject* operands_in_order[2] = {lhs, rhs};
  const int mask = compressed_operands_mask(operands_in_order, 2);
  if (mask == -2) {
    refuse(EagerReason::k_compressed);
    return nullptr;
  }
  const CompressedOperands compressed(pending_trace(), mask);
  if (is_complex_operand(lhs) || is_complex_operand(rhs)) {
    if (!records_complex(op)) {
      refuse(EagerReason::k_complex_op);
      return nullptr;
    }
    PyObject* operands[2] = {lhs, rhs};
    return record_complex(op, operands, 2, std::move(form), where);
  }
  Operand a, b;
  if (op == Op::input || !classify(lhs, a) || !classify(rhs, b)) return nullptr;
  if (a.weak != Weak::kNone && b.weak != Weak::kNone) return nullptr;
  const Operand* ops[] = {&a, &b};
  return record_elementwise(op, ops, 2, std::move(form), where, nullptr);
}

[[gnu::noinline]] PyObject* record_unary_operator(UnaryOperator which, PyObject* operand,
                                                  const Location& where) {
  const int mask = compressed_operands_mask(&operand, 1);
  const CompressedOperands compressed(pending_trace(), mask);
  if (is_complex_operand(operand)) {
    if (which == UnaryOperator::kInvert) return nullptr;  // NumPy's TypeError
    const Op op = which == UnaryOperator::kNegative ? Op::negative : Op::positive;
    return record_complex(op, &operand, 1,
                          complex_form(EagerForm::Kind::kUnaryOperator, static_cast<int>(which), nullptr, op), where);
  }
  Operand a;
  if (!classify(operand, a) || a.weak != Weak::kNone) return nullptr;
  const Op op = which == UnaryOperator::kNegative   ? Op::negative
                : which == UnaryOperator::kPositive ? Op::positive
                                                    : Op::invert;
  EagerForm form;
  form.kind = EagerForm::Kind::kUnaryOperator;
  form.operator_code = static_cast<int>(which);
  form.reports_at_call_site = true;
  form.ufunc_name = jit::op_info(op).name;
  const Operand* ops[] = {&a};
  return record_elementwise(op, ops, 1, std::move(form), where, nullptr);
}

[[gnu::noinline]] PyObject* record_call(PyObject* callable, PyObject* const* args, Py_ssize_t nargs,
                                        PyObject* kwnames, const Location& where) {
  const VocabularyEntry entry = lookup_callable(callable);
  if (entry.form == CallForm::kNone) {
    refuse(EagerReason::k_not_compiled);
    return nullptr;
  }
  CallArgs call;
  call.positional.assign(args, args + nargs);
  const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t i = 0; i < nkw; ++i) {
    const char* name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, i));
    if (!name) {
      PyErr_Clear();
      return nullptr;
    }
    call.keywords.emplace_back(name, args[nargs + i]);
  }
  switch (entry.form) {
    case CallForm::kUfunc: {
      const int arity = jit::op_info(entry.op).arity;
      if (nargs != arity || nkw != 0) return nullptr;
      const int mask = compressed_operands_mask(args, arity);
      if (mask == -2) {
        refuse(EagerReason::k_compressed);
        return nullptr;
      }
      const CompressedOperands compressed(pending_trace(), mask);
      if (std::any_of(args, args + nargs, is_complex_operand)) {
        const Op op = entry.op;
        if (!records_complex(op)) {
          refuse(EagerReason::k_complex_op);
          return nullptr;
        }
        return record_complex(op, args, arity, complex_form(EagerForm::Kind::kCall, 0, callable, op), where);
      }
      Operand operands[2];
      const Operand* ops[2] = {&operands[0], &operands[1]};
      int weak = 0;
      for (int i = 0; i < arity; ++i) {
        if (!classify(args[i], operands[i])) return nullptr;
        weak += operands[i].weak != Weak::kNone;
      }
      if (weak == arity) return nullptr;
      EagerForm form;
      form.kind = EagerForm::Kind::kCall;
      form.callable = Py_NewRef(callable);
      form.reports_at_call_site = true;
      form.ufunc_name = jit::op_info(entry.op).name;
      return record_elementwise(entry.op, ops, arity, std::move(form), where, nullptr);
    }
    case CallForm::kWhere: {
      if (nargs != 3 || nkw != 0) return nullptr;
      const int mask = compressed_operands_mask(args, 3);
      if (mask == -2) {
        refuse(EagerReason::k_compressed);
        return nullptr;
      }
      const CompressedOperands compressed(pending_trace(), mask);
      if (is_complex_operand(args[1]) || is_complex_operand(args[2])) return record_complex_where(callable, args, where);
      Operand operands[3];
      const Operand* ops[3] = {&operands[0], &operands[1], &operands[2]};
      for (int i = 0; i < 3; ++i) {
        if (!classify(args[i], operands[i])) return nullptr;
      }
      if (operands[0].weak != Weak::kNone) return nullptr;
      EagerForm form;
      form.kind = EagerForm::Kind::kCall;
      form.callable = Py_NewRef(callable);
      return record_elementwise(Op::where, ops, 3, std::move(form), where, nullptr);
    }
    case CallForm::kReduce:
    case CallForm::kReduceMethod:
    case CallForm::kNorm:
      return record_reduction(entry.op, entry.form, callable, call, where);
    case CallForm::kScan:
      return record_scan(entry.op, callable, call, where);
    case CallForm::kBincount:
    case CallForm::kHistogram:
      return count_into_bins(entry.form, args, nargs, kwnames, where);
    case CallForm::kAstype:
      return record_astype(callable, call, where);
    case CallForm::kClip:
      return record_clip(callable, call, where);
    case CallForm::kView:
      return record_view_call(entry, callable, call, where);
    case CallForm::kVar:
    case CallForm::kStd:
      return record_moment(entry.form == CallForm::kStd, callable, call, where);
    case CallForm::kCreate:
    case CallForm::kCreateLike:
      return record_creation(entry.form == CallForm::kCreateLike, callable, args, nargs, kwnames, call, where);
    case CallForm::kArange:
      return record_arange(callable, call, where);
    case CallForm::kLinspace:
      return record_linspace(callable, call, where);
    case CallForm::kProduct:
      if (nargs != 2 || nkw != 0) {
        refuse(EagerReason::k_matrix_product);
        return nullptr;
      }
      return record_product(args[0], args[1], callable, where);
    case CallForm::kNone: break;
  }
  return nullptr;
}

}  // namespace

bool may_trace_either(PyObject* lhs, PyObject* rhs) { return may_trace(lhs) || may_trace(rhs); }

bool may_trace_mask_subscript(PyObject* container, PyObject* key) {
  return Py_TYPE(container) == &PyArray_Type && PyArray_ISBOOL(reinterpret_cast<PyArrayObject*>(key)) &&
         may_trace(key);
}

PyObject* trace_binary_operator(int nb_op, PyObject* lhs, PyObject* rhs, const Location& where) {
  begin_tracing();
  if (!may_trace(lhs) && !may_trace(rhs)) {
    refuse(EagerReason::k_small_arrays);
    return nullptr;
  }
  return record_binary_operator(nb_op, lhs, rhs, where);
}

PyObject* trace_compare(int compare, PyObject* lhs, PyObject* rhs, const Location& where) {
  begin_tracing();
  if (!may_trace(lhs) && !may_trace(rhs)) {
    refuse(EagerReason::k_small_arrays);
    return nullptr;
  }
  return record_compare(compare, lhs, rhs, where);
}

PyObject* trace_unary_operator(UnaryOperator which, PyObject* operand, const Location& where) {
  begin_tracing();
  if (!may_trace(operand)) {
    refuse(EagerReason::k_small_arrays);
    return nullptr;
  }
  return record_unary_operator(which, operand, where);
}

PyObject* trace_call(PyObject* callable, PyObject* const* args, Py_ssize_t nargs,
                     PyObject* kwnames, const Location& where) {
  begin_tracing();
  PyObject* self = nullptr;
  if (PyObject* method = unbound_array_method(callable, self); method && may_trace(self)) {
    // `f = x.sum; f(...)`: the call `x.sum(...)` makes, self first.
    const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    std::vector<PyObject*> with_self(static_cast<std::size_t>(nargs + nkw + 1));
    with_self[0] = self;
    std::copy(args, args + nargs + nkw, with_self.begin() + 1);
    return record_call(method, with_self.data(), nargs + 1, kwnames, where);
  }
  // The arguments first: a call on small arrays, the common case, is left
  // to NumPy without looking the callable up.
  for (Py_ssize_t i = 0; i < nargs; ++i) {
    if (may_trace(args[i])) return record_call(callable, args, nargs, kwnames, where);
  }
  if (creates_without_arrays(callable)) return record_call(callable, args, nargs, kwnames, where);
  if (g_diagnostics) {
    // A callable outside the vocabulary is named as such where its call
    // is recorded (diagnostics.cpp), not looked up for every call here.
    bool array = false;
    for (Py_ssize_t i = 0; i < nargs; ++i) array = array || PyArray_Check(args[i]);
    refuse(array ? EagerReason::k_small_arrays : EagerReason::k_operand_kind);
  }
  return nullptr;
}

PyObject* lazy_attribute(PyObject* lazy, PyObject* name, const Location& where) {
  Trace* trace = trace_of(lazy);
  if (trace->done) return nullptr;
  const char* text = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : nullptr;
  if (!text) {
    PyErr_Clear();
    return nullptr;
  }
  const jit::Node& node = trace->region.nodes[node_of(lazy)];
  const std::string attr = text;
  // A compressed value's length is its mask's count: NumPy's to say.
  const bool compressed = trace->eager[node_of(lazy)].compressed_by >= 0;
  if (compressed && attr != "dtype" && attr != "itemsize") return nullptr;
  if (attr == "shape") {
    PyObject* shape = PyTuple_New(static_cast<Py_ssize_t>(node.shape.size()));
    if (!shape) return nullptr;
    for (std::size_t i = 0; i < node.shape.size(); ++i) {
      PyObject* d = PyLong_FromLongLong(node.shape[i]);
      if (!d) {
        Py_DECREF(shape);
        return nullptr;
      }
      PyTuple_SET_ITEM(shape, static_cast<Py_ssize_t>(i), d);
    }
    return shape;
  }
  if (attr == "ndim") return PyLong_FromSize_t(node.shape.size());
  if (attr == "T") {
    Operand x;
    if (!viewable(lazy, x)) return nullptr;
    PyObject* transpose = ndarray_method("transpose");
    if (!transpose) return nullptr;
    EagerForm form;
    form.kind = EagerForm::Kind::kCall;
    form.callable = Py_NewRef(transpose);
    form.arg_nodes = {node_of(lazy)};
    form.constants = {nullptr};
    return record_view(x, Shape(x.shape.rbegin(), x.shape.rend()), std::move(form), false, where);
  }
  if (attr == "size") return PyLong_FromLongLong(jit::element_count(node.shape));
  // A region's values are of native, built-in dtypes: what NumPy's result
  // would say is known without computing it.
  if (attr == "dtype") return reinterpret_cast<PyObject*>(PyArray_DescrFromType(typenum_of(node.dtype)));
  if (attr == "itemsize") return PyLong_FromLong(jit::itemsize(node.dtype));
  if (attr == "nbytes") return PyLong_FromLongLong(jit::element_count(node.shape) * jit::itemsize(node.dtype));
  return nullptr;
}

PyObject* lazy_method(PyObject* lazy, PyObject* name) {
  Trace* trace = trace_of(lazy);
  // A 0-d value becomes a NumPy scalar, whose methods are not ndarray's.
  if (trace->done || trace->region.nodes[node_of(lazy)].shape.empty()) return nullptr;
  return traced_method(name);
}

}  // namespace npy::numpy_shim
