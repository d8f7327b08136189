#include "numpy_shim/diagnostics.h"

#include <opcode.h>

#include <chrono>
#include <cstring>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "common/stats.h"
#include "jit/trace_log.h"
#include "numpy_shim/numpy_api.h"
#include "numpy_shim/sites.h"
#include "numpy_shim/trace.h"
#include "numpy_shim/vocabulary.h"

namespace npy::numpy_shim {
namespace {

static_assert(kMinTracedElements == 2048, "the small_arrays reason names 2048 elements");

struct ReasonText {
  const char* reason;
  const char* hint;
};
const ReasonText kReasons[] = {
#define NPY_EAGER_REASON_TEXT(name, text, hint) {text, hint},
    NPY_EAGER_REASONS(NPY_EAGER_REASON_TEXT)
#undef NPY_EAGER_REASON_TEXT
};

// What the materialization reasons say, by the name of their counter.
struct MaterializationText {
  const char* name;
  const char* text;
};
const MaterializationText kMaterializations[] = {
#define NPY_MATERIALIZATION_TEXT(name, text) {#name, text},
    NPY_MATERIALIZE_REASONS(NPY_MATERIALIZATION_TEXT)
#undef NPY_MATERIALIZATION_TEXT
};

constexpr const char* kTopLevelHint =
    "move top-level loops into a function: a module's top-level variables are globals, and assigning "
    "one computes the pending work, where a function's local variables let the region grow";

// Materializations a change to the program avoids, by reason and detail.
struct MaterializationHint {
  Reason reason;
  const char* detail;
  const char* hint;
};
const MaterializationHint kMaterializationHints[] = {
    {Reason::k_store, "STORE_NAME", kTopLevelHint},
    {Reason::k_store, "STORE_GLOBAL", kTopLevelHint},
};

struct Refusal {
  bool set = false;
  EagerReason reason = EagerReason::k_not_compiled;
  std::string detail;
};
thread_local Refusal t_refusal;
// Seconds of the regions this thread ran, for the eager calls they ran in.
thread_local double t_region_seconds = 0;

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// "np" for numpy and its private modules, "np.linalg" for numpy.linalg:
// the module path up to its first private part.
std::string public_prefix(const char* module) {
  std::string path = "np";
  const char* part = module + 5;  // after "numpy"
  while (*part == '.' && part[1] != '_' && part[1] != '\0') {
    const char* end = std::strchr(part + 1, '.');
    const std::size_t length = end ? static_cast<std::size_t>(end - part) : std::strlen(part);
    path.append(part, length);
    part += length;
  }
  return path;
}

bool is_numpy_module_name(const char* name) {
  return name && std::strncmp(name, "numpy", 5) == 0 && (name[5] == '\0' || name[5] == '.');
}

// A string attribute of `o`, or "".
std::string text_attribute(PyObject* o, const char* attribute) {
  PyObject* value = PyObject_GetAttrString(o, attribute);
  std::string text;
  if (value && PyUnicode_Check(value)) {
    const char* utf8 = PyUnicode_AsUTF8(value);
    if (utf8) text = utf8;
  }
  Py_XDECREF(value);
  PyErr_Clear();
  return text;
}

// Whether reading an attribute of `o` runs none of the program's code:
// its class is built in, or reads attributes as object does (a class's
// __getattr__ or __getattribute__ could print, count or raise).
bool attributes_are_plain(PyObject* o) {
  PyTypeObject* type = Py_TYPE(o);
  return !PyType_HasFeature(type, Py_TPFLAGS_HEAPTYPE) || type->tp_getattro == PyObject_GenericGetAttr;
}

bool is_ufunc(PyObject* o) { return std::strcmp(Py_TYPE(o)->tp_name, "numpy.ufunc") == 0; }

std::string operator_symbol(int nb_op) {
  switch (nb_op % NB_INPLACE_ADD) {
    case NB_ADD: return "+";
    case NB_AND: return "&";
    case NB_FLOOR_DIVIDE: return "//";
    case NB_LSHIFT: return "<<";
    case NB_MATRIX_MULTIPLY: return "@";
    case NB_MULTIPLY: return "*";
    case NB_REMAINDER: return "%";
    case NB_OR: return "|";
    case NB_POWER: return "**";
    case NB_RSHIFT: return ">>";
    case NB_SUBTRACT: return "-";
    case NB_TRUE_DIVIDE: return "/";
    case NB_XOR: return "^";
    default: return "?";
  }
}

}  // namespace

void set_diagnostics(bool on) { g_diagnostics = on; }

void note_refusal(EagerReason reason, const char* detail) {
  if (t_refusal.set) return;
  t_refusal.set = true;
  t_refusal.reason = reason;
  if (detail) {
    t_refusal.detail = detail;
  } else {
    t_refusal.detail.clear();
  }
}

void clear_refusal() {
  t_refusal.set = false;
  t_refusal.detail.clear();
}

std::string describe_binary_operator(int nb_op, PyObject* rhs) {
  std::string text = "`" + operator_symbol(nb_op) + (nb_op >= NB_INPLACE_ADD ? "=`" : "`");
  if (nb_op % NB_INPLACE_ADD != NB_POWER) return text;
  if (PyLong_CheckExact(rhs) || PyFloat_CheckExact(rhs) || is_numpy_scalar(rhs)) {
    PyObject* repr = PyObject_Str(rhs);
    const char* value = repr ? PyUnicode_AsUTF8(repr) : nullptr;
    if (value) text += std::string(" with exponent ") + value;
    Py_XDECREF(repr);
    PyErr_Clear();
  } else if (is_lazy(rhs) || (g_ndarray_type && PyObject_TypeCheck(rhs, g_ndarray_type))) {
    text += " with an array of exponents";
  }
  return text;
}

std::string describe_compare(int compare_op) {
  static const char* const kSymbols[] = {"<", "<=", "==", "!=", ">", ">="};
  return compare_op >= Py_LT && compare_op <= Py_GE ? std::string("`") + kSymbols[compare_op] + "`" : "comparison";
}

std::string numpy_call_name(PyObject* callable) {
  if (!g_ndarray_type) return "";
  PyTypeObject* type = Py_TYPE(callable);
  if (type == &PyMethodDescr_Type) {  // ndarray.sort, taken from the class
    auto* descr = reinterpret_cast<PyDescrObject*>(callable);
    if (!PyType_IsSubtype(descr->d_type, g_ndarray_type)) return "";
    const char* name = PyUnicode_AsUTF8(descr->d_name);
    if (!name) PyErr_Clear();
    return name ? std::string("ndarray.") + name : "";
  }
  if (PyCFunction_Check(callable)) {
    auto* function = reinterpret_cast<PyCFunctionObject*>(callable);
    PyObject* self = function->m_self;
    const char* name = function->m_ml->ml_name;
    if (!self) return "";
    if (PyModule_Check(self)) {  // len, np.array: the module's name is the function's __module__
      PyObject* module = function->m_module;
      const char* module_name = module && PyUnicode_Check(module) ? PyUnicode_AsUTF8(module) : nullptr;
      if (!module_name) PyErr_Clear();
      return is_numpy_module_name(module_name) ? public_prefix(module_name) + "." + name : "";
    }
    if (is_lazy(self) || PyObject_TypeCheck(self, g_ndarray_type)) return std::string("ndarray.") + name;
    if (is_ufunc(self)) return "np." + text_attribute(self, "__name__") + "." + name;
    return "";
  }
  // np.float64(x), np.dtype(...): conversions of scalars and types, not work
  // on arrays.
  if (PyType_Check(callable)) return "";
  if (is_ufunc(callable)) return "np." + text_attribute(callable, "__name__");
  if (PyFunction_Check(callable)) {
    PyObject* module = PyFunction_GET_MODULE(callable);
    const char* module_name = module && PyUnicode_Check(module) ? PyUnicode_AsUTF8(module) : nullptr;
    if (!module_name) PyErr_Clear();
    if (!is_numpy_module_name(module_name)) return "";
    return public_prefix(module_name) + "." + text_attribute(callable, "__qualname__");
  }
  // A bound method reads its function's attributes.
  PyObject* owner = PyMethod_Check(callable) ? PyMethod_GET_FUNCTION(callable) : callable;
  if (!attributes_are_plain(owner)) return "";
  const std::string module = text_attribute(callable, "__module__");
  if (!is_numpy_module_name(module.c_str())) return "";
  std::string name = text_attribute(callable, "__qualname__");
  if (name.empty()) name = text_attribute(callable, "__name__");
  return name.empty() ? "" : public_prefix(module.c_str()) + "." + name;
}

namespace {

// The eager call being timed on this thread.
struct EagerCall {
  bool active = false;
  double start = 0;
  double regions_before = 0;
  std::string name;
  int site = -1;
  EagerReason reason = EagerReason::k_not_compiled;
  std::string detail;
};
thread_local EagerCall t_eager;

void begin_eager(std::string name, const Location& where, bool traced, PyObject* callable, double entered) {
  EagerCall& e = t_eager;
  e.active = true;
  e.name = std::move(name);
  e.site = site_of(where);
  e.detail.clear();
  if (callable && lookup_callable(callable).form == CallForm::kNone) {
    // Outside the vocabulary: whatever its arguments.
    e.reason = EagerReason::k_not_compiled;
  } else if (traced && t_refusal.set) {
    e.reason = t_refusal.reason;
    e.detail = t_refusal.detail;
  } else if (callable) {
    // Not asked of the tracer (a Python function of NumPy's), or declined
    // with no reason given: it is compiled with other arguments.
    e.reason = EagerReason::k_arguments;
  } else {
    e.reason = traced ? EagerReason::k_arguments : EagerReason::k_small_arrays;
  }
  clear_refusal();
  if (jit::log_enabled(jit::LogChannel::kFallback)) {
    std::string line = e.name + " at " + jit::site_text(e.site) + ": " + kReasons[static_cast<int>(e.reason)].reason;
    if (!e.detail.empty()) line += " (" + e.detail + ")";
    jit::log_text(jit::LogChannel::kFallback, line);
  }
  e.regions_before = t_region_seconds;
  e.start = now_seconds();
  add_time(TimeShare::kDiagnostics, e.start - entered);
}

}  // namespace

bool begin_eager_call(PyObject* callable, const Location& where, bool traced) {
  if (t_eager.active) return false;
  std::string name = numpy_call_name(callable);
  if (name.empty()) return false;
  begin_eager(std::move(name), where, traced, callable, now_seconds());
  return true;
}

bool begin_eager_operator(const std::string& name, const Location& where, bool traced) {
  if (t_eager.active) return false;
  begin_eager(name, where, traced, nullptr, now_seconds());
  return true;
}

void end_eager() {
  EagerCall& e = t_eager;
  if (!e.active) return;
  const double ended = now_seconds();
  const double elapsed = ended - e.start;
  e.active = false;
  const double seconds = elapsed - (t_region_seconds - e.regions_before);
  add_time(TimeShare::kEagerNumpy, seconds);
  static Counter& eager_calls = counter("jit.eager_calls");
  eager_calls.add();
  if (jit::explain_enabled()) {
    const ReasonText& text = kReasons[static_cast<int>(e.reason)];
    std::string reason = text.reason;
    if (!e.detail.empty()) reason += " (" + e.detail + ")";
    jit::record_boundary("eager", e.name, e.site, seconds, reason, text.hint);
  }
  add_time(TimeShare::kDiagnostics, now_seconds() - ended);
}

void note_region_time(double seconds) {
  t_region_seconds += seconds;
  add_time(TimeShare::kCompiledRegions, seconds);
}

const char* materialization_hint(Reason reason, const char* detail) {
  if (!detail) return "";
  for (const MaterializationHint& h : kMaterializationHints) {
    if (h.reason == reason && std::strcmp(h.detail, detail) == 0) return h.hint;
  }
  return "";
}

std::string format_summary() {
  std::uint64_t regions = 0, ops = 0, compiled = 0, loaded = 0, reused = 0, eager = 0;
  std::pair<const char*, std::uint64_t> top{nullptr, 0};
  for (const auto& [name, value] : snapshot_counters()) {
    if (name == "jit.regions") regions = value;
    if (name == "jit.region_ops") ops = value;
    if (name == "jit.kernels_compiled") compiled = value;
    if (name == "jit.kernels_loaded") loaded = value;
    if (name == "jit.kernels_reused") reused = value;
    if (name == "jit.eager_calls") eager = value;
    for (const MaterializationText& m : kMaterializations) {
      if (value > top.second && name == std::string("jit.materializations.") + m.name) top = {m.text, value};
    }
  }
  std::ostringstream text;
  if (regions == 0) {
    text << "npython: no compiled region ran";
  } else {
    text << "npython: " << regions << (regions == 1 ? " region" : " regions") << " ran " << ops
         << " operations in compiled kernels (" << compiled << " kernels compiled, " << loaded
         << " loaded from the disk cache, " << reused << " reused)";
  }
  text << "; " << eager << " NumPy calls and operators ran eagerly; " << format_time_shares(time_shares()) << '.';
  if (top.first) {
    text << " Regions ended most often because: " << top.first << " (" << top.second << " of " << regions << ").";
  }
  text << " npython --explain names each operation and line; NPY_JIT_LOG=fallback logs each eager call.";
  // Wrapped at 100 columns, then a blank line.
  std::istringstream words(text.str());
  std::string word, line, out;
  while (words >> word) {
    if (!line.empty() && line.size() + 1 + word.size() > 100) {
      out += line + '\n';
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
  }
  return out + line + "\n\n";
}

}  // namespace npy::numpy_shim
