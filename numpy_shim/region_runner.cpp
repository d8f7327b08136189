#include "numpy_shim/region_runner.h"

#include <opcode.h>

#include <cfenv>
#include <chrono>
#include <string>
#include <vector>

#include "common/stats.h"
#include "jit/trace_log.h"
#include "numpy_shim/errstate.h"
#include "numpy_shim/sites.h"
#include "numpy_shim/temporary_elision.h"
#include "numpy_shim/vocabulary.h"

namespace npy::numpy_shim {
namespace {

const char* reason_text(Reason reason) {
  switch (reason) {
#define NPY_REASON_TEXT(name, text) \
  case Reason::k_##name:            \
    return text;
    NPY_MATERIALIZE_REASONS(NPY_REASON_TEXT)
#undef NPY_REASON_TEXT
  }
  return "?";
}

Counter& reason_counter(Reason reason) {
  static Counter* counters[] = {
#define NPY_REASON_COUNTER(name, text) &counter("jit.materializations." #name),
      NPY_MATERIALIZE_REASONS(NPY_REASON_COUNTER)
#undef NPY_REASON_COUNTER
  };
  return *counters[static_cast<int>(reason)];
}

PyObject* call_binary_operator(int nb_op, PyObject* a, PyObject* b) {
  switch (nb_op) {
    case NB_ADD: return PyNumber_Add(a, b);
    case NB_SUBTRACT: return PyNumber_Subtract(a, b);
    case NB_MULTIPLY: return PyNumber_Multiply(a, b);
    case NB_TRUE_DIVIDE: return PyNumber_TrueDivide(a, b);
    case NB_FLOOR_DIVIDE: return PyNumber_FloorDivide(a, b);
    case NB_REMAINDER: return PyNumber_Remainder(a, b);
    case NB_POWER: return PyNumber_Power(a, b, Py_None);
    case NB_AND: return PyNumber_And(a, b);
    case NB_OR: return PyNumber_Or(a, b);
    case NB_XOR: return PyNumber_Xor(a, b);
    case NB_INPLACE_ADD: return PyNumber_InPlaceAdd(a, b);
    case NB_INPLACE_SUBTRACT: return PyNumber_InPlaceSubtract(a, b);
    case NB_INPLACE_MULTIPLY: return PyNumber_InPlaceMultiply(a, b);
    case NB_INPLACE_TRUE_DIVIDE: return PyNumber_InPlaceTrueDivide(a, b);
    case NB_INPLACE_FLOOR_DIVIDE: return PyNumber_InPlaceFloorDivide(a, b);
    case NB_INPLACE_REMAINDER: return PyNumber_InPlaceRemainder(a, b);
    case NB_INPLACE_POWER: return PyNumber_InPlacePower(a, b, Py_None);
    case NB_INPLACE_AND: return PyNumber_InPlaceAnd(a, b);
    case NB_INPLACE_OR: return PyNumber_InPlaceOr(a, b);
    case NB_INPLACE_XOR: return PyNumber_InPlaceXor(a, b);
    default:
      PyErr_SetString(PyExc_SystemError, "npython: operator not in the region vocabulary");
      return nullptr;
  }
}

// The node computed as eager NumPy computes it: the same call, operator or
// method on the same objects.
PyObject* compute_eagerly(Trace& trace, int index) {
  const EagerForm& form = trace.eager[index];
  std::vector<PyObject*> args;
  for (std::size_t i = 0; i < form.arg_nodes.size(); ++i) {
    args.push_back(form.arg_nodes[i] >= 0 ? trace.objects[form.arg_nodes[i]] : form.constants[i]);
  }
  switch (form.kind) {
    case EagerForm::Kind::kCall: {
      PyObject* tuple = PyTuple_New(static_cast<Py_ssize_t>(args.size()));
      if (!tuple) return nullptr;
      for (std::size_t i = 0; i < args.size(); ++i) {
        PyTuple_SET_ITEM(tuple, static_cast<Py_ssize_t>(i), Py_NewRef(args[i]));
      }
      PyObject* result = PyObject_Call(form.callable, tuple, form.kwargs);
      Py_DECREF(tuple);
      return result;
    }
    case EagerForm::Kind::kBinaryOperator:
    case EagerForm::Kind::kInPlaceOperator:
      return call_binary_operator(form.operator_code, args[0], args[1]);
    case EagerForm::Kind::kCompare:
      return PyObject_RichCompare(args[0], args[1], form.operator_code);
    case EagerForm::Kind::kUnaryOperator:
      switch (static_cast<UnaryOperator>(form.operator_code)) {
        case UnaryOperator::kNegative: return PyNumber_Negative(args[0]);
        case UnaryOperator::kPositive: return PyNumber_Positive(args[0]);
        case UnaryOperator::kInvert: return PyNumber_Invert(args[0]);
      }
  }
  return nullptr;
}

// NumPy's report of the floating-point flags an op raised, as a warning
// from the line that recorded it.
int report_fp_flags(int flags, const bool warns[4], const char* ufunc_name, int site) {
  struct Category {
    int flag;
    FpCategory category;
    const char* text;
  };
  const Category categories[] = {{FE_DIVBYZERO, FpCategory::kDivide, "divide by zero"},
                                 {FE_OVERFLOW, FpCategory::kOverflow, "overflow"},
                                 {FE_UNDERFLOW, FpCategory::kUnderflow, "underflow"},
                                 {FE_INVALID, FpCategory::kInvalid, "invalid value"}};
  const SiteInfo* info = site_info(site);
  for (const Category& c : categories) {
    if (!(flags & c.flag) || !warns[static_cast<int>(c.category)]) continue;
    const std::string text = std::string(c.text) + " encountered in " + ufunc_name;
    PyObject* message = PyUnicode_FromString(text.c_str());
    if (!message) return -1;
    int err;
    if (info) {
      PyObject* module = PyDict_GetItemString(info->globals, "__name__");  // borrowed
      PyObject* registry = PyDict_GetItemString(info->globals, "__warningregistry__");
      if (!registry) {
        registry = PyDict_New();
        if (registry) {
          PyDict_SetItemString(info->globals, "__warningregistry__", registry);
          Py_DECREF(registry);  // the globals hold it
        }
      }
      err = PyErr_WarnExplicitObject(PyExc_RuntimeWarning, message, info->filename, info->lineno,
                                     module, registry);
    } else {
      err = PyErr_WarnEx(PyExc_RuntimeWarning, text.c_str(), 1);
    }
    Py_DECREF(message);
    if (err < 0) return -1;
  }
  return 0;
}

std::vector<bool> needed_nodes(const Trace& trace) {
  const std::size_t n = trace.region.nodes.size();
  std::vector<bool> needed(n, false);
  for (std::size_t i = n; i-- > 0;) {
    if (trace.handles[i] > 0) needed[i] = true;
    if (!needed[i]) continue;
    const jit::Node& node = trace.region.nodes[i];
    for (int input : node.inputs) {
      if (input >= 0) needed[input] = true;
    }
  }
  return needed;
}

// Runs the needed nodes in order through NumPy, each value released after
// its last use, and temporaries reused as eager evaluation would (NumPy's
// elision of `a + b` into a dead `a`).
int run_nodes_eagerly(Trace& trace, const std::vector<bool>& needed) {
  const std::vector<jit::Node>& nodes = trace.region.nodes;
  std::vector<std::size_t> last_use(nodes.size(), 0);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (!needed[i]) continue;
    for (int input : nodes[i].inputs) {
      if (input >= 0) last_use[input] = i;
    }
  }
  auto is_dead_temporary = [&](int node, std::size_t at) {
    return node >= 0 && nodes[node].op != jit::Op::input && last_use[node] == at &&
           trace.handles[node] == 0;
  };
  bool warns[4];
  for (int c = 0; c < 4; ++c) warns[c] = errstate_warns(static_cast<FpCategory>(c));
  FpErrorsIgnored ignored;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (!needed[i] || nodes[i].op == jit::Op::input) continue;
    const EagerForm& form = trace.eager[i];
    std::feclearexcept(FE_ALL_EXCEPT);
    PyObject* value = nullptr;
    if (form.kind == EagerForm::Kind::kBinaryOperator &&
        (is_dead_temporary(form.arg_nodes[0], i) || is_dead_temporary(form.arg_nodes[1], i))) {
      value = binary_op_into_temporary(form.operator_code, trace.objects[form.arg_nodes[0]],
                                       trace.objects[form.arg_nodes[1]]);
    } else if (form.kind == EagerForm::Kind::kUnaryOperator && is_dead_temporary(form.arg_nodes[0], i) &&
               static_cast<UnaryOperator>(form.operator_code) != UnaryOperator::kPositive) {
      const auto op = static_cast<UnaryOperator>(form.operator_code) == UnaryOperator::kNegative
                          ? UnaryOp::kNegative
                          : UnaryOp::kInvert;
      value = unary_op_into_temporary(op, trace.objects[form.arg_nodes[0]]);
    }
    if (!value && !PyErr_Occurred()) value = compute_eagerly(trace, static_cast<int>(i));
    const int flags = std::fetestexcept(FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID);
    if (!value) return -1;
    trace.objects[i] = value;
    for (int input : nodes[i].inputs) {
      if (is_dead_temporary(input, i)) Py_CLEAR(trace.objects[input]);
    }
    if (flags && form.reports_at_call_site &&
        report_fp_flags(flags, warns, form.ufunc_name, trace.region.nodes[i].site) < 0) {
      return -1;
    }
  }
  return 0;
}

}  // namespace

namespace {
thread_local bool t_running = false;
}  // namespace

bool running_trace() { return t_running; }

int run_trace(Trace& trace, Reason reason, const Location& where, const char* detail) {
  static Counter& regions = counter("jit.regions");
  static Counter& region_ops = counter("jit.region_ops");
  const auto start = std::chrono::steady_clock::now();
  trace.done = true;  // whatever happens, the trace records no more
  const std::vector<bool> needed = needed_nodes(trace);
  std::vector<bool> results(needed.size());
  for (std::size_t i = 0; i < results.size(); ++i) results[i] = trace.handles[i] > 0;
  const int site = site_of(where);
  std::string why = reason_text(reason);
  if (detail) why += std::string(" (") + detail + ")";
  if (jit::log_enabled(jit::LogChannel::kRegions)) {
    jit::log_text(jit::LogChannel::kRegions, "region of " + std::to_string(trace.region.nodes.size()) +
                                                 " nodes, materialized at " + jit::site_text(site) +
                                                 ": " + why + "\n" +
                                                 jit::dump_region(trace.region, results));
  }
  int ops = 0;
  for (std::size_t i = 0; i < needed.size(); ++i) {
    ops += needed[i] && trace.region.nodes[i].op != jit::Op::input;
  }
  t_running = true;
  const int status = run_nodes_eagerly(trace, needed);
  t_running = false;
  // Values no lazy value names are temporaries of the region.
  for (std::size_t i = 0; i < needed.size(); ++i) {
    if (trace.handles[i] == 0) Py_CLEAR(trace.objects[i]);
  }
  regions.add();
  region_ops.add(static_cast<std::uint64_t>(ops));
  reason_counter(reason).add();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (jit::explain_enabled()) jit::record_boundary("materialized", why, site, seconds);
  return status;
}

}  // namespace npy::numpy_shim

namespace npy::numpy_shim {

PyObject* materialize(PyObject* lazy, Reason reason, const Location& where, const char* detail) {
  Trace* trace = trace_of(lazy);
  if (!trace->done && run_trace(*trace, reason, where, detail) < 0) return nullptr;
  PyObject* value = trace->objects[node_of(lazy)];
  if (!value) {
    PyErr_SetString(PyExc_RuntimeError, "npython: value of a region that failed to run");
    return nullptr;
  }
  return Py_NewRef(value);
}

int flush(Reason reason, const Location& where, const char* detail) {
  Trace* trace = pending_trace();
  return trace ? run_trace(*trace, reason, where, detail) : 0;
}

void note_fallback(PyObject* callable, const Location& where) {
  static Counter& fallbacks = counter("jit.fallbacks");
  fallbacks.add();
  if (!jit::explain_enabled() && !jit::log_enabled(jit::LogChannel::kFallback)) return;
  std::string name = "a NumPy callable";
  PyObject* qualname = PyObject_GetAttrString(callable, "__qualname__");
  if (!qualname) qualname = PyObject_GetAttrString(callable, "__name__");
  if (qualname && PyUnicode_Check(qualname)) {
    const char* text = PyUnicode_AsUTF8(qualname);
    if (text) name = text;
  }
  Py_XDECREF(qualname);
  PyErr_Clear();
  const std::string what = name + " not traced";
  const int site = site_of(where);
  if (jit::explain_enabled()) jit::record_boundary("fallback", what, site, 0);
  if (jit::log_enabled(jit::LogChannel::kFallback)) {
    jit::log_text(jit::LogChannel::kFallback, what + " at " + jit::site_text(site));
  }
}

}  // namespace npy::numpy_shim
