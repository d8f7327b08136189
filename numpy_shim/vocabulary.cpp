#include "numpy_shim/vocabulary.h"

#include <cstring>
#include <string>
#include <tuple>
#include <unordered_map>

#include "jit/region.h"
#include "numpy_shim/numpy_api.h"

namespace npy::numpy_shim {
namespace {

struct Tables {
  std::unordered_map<PyObject*, VocabularyEntry> callables;
  std::unordered_map<std::string, PyObject*> methods;  // name -> ndarray method descriptor
  PyObject* ufuncs[256] = {};
  PyObject* ufunc_type = nullptr;
  PyObject* creations[6] = {};  // np.zeros, ones, full, empty, arange, linspace
};

// Reductions and their NumPy function names; the methods have the op's name.
struct ReductionName {
  jit::Op op;
  const char* functions[2];
};
const ReductionName kReductions[] = {
    {jit::Op::sum, {"sum", nullptr}},       {jit::Op::prod, {"prod", nullptr}},
    {jit::Op::min, {"min", "amin"}},        {jit::Op::max, {"max", "amax"}},
    {jit::Op::mean, {"mean", nullptr}},     {jit::Op::argmin, {"argmin", nullptr}},
    {jit::Op::argmax, {"argmax", nullptr}}, {jit::Op::any, {"any", nullptr}},
    {jit::Op::all, {"all", nullptr}},
};

PyObject* numpy_module() {
  static PyObject* numpy = PyImport_ImportModule("numpy");
  return numpy;
}

Tables build_tables() {
  Tables t;
  PyObject* np = numpy_module();
  if (!np) {
    PyErr_Clear();
    return t;
  }
  PyObject* add = PyObject_GetAttrString(np, "add");
  if (add) t.ufunc_type = reinterpret_cast<PyObject*>(Py_TYPE(add));
  Py_XDECREF(add);
  for (int i = 0; i < 256; ++i) {
    const auto op = static_cast<jit::Op>(i);
    if (i > static_cast<int>(jit::Op::norm)) break;
    const jit::OpInfo& info = jit::op_info(op);
    if (info.kind != jit::OpKind::kUnary && info.kind != jit::OpKind::kBinary) continue;
    PyObject* ufunc = PyObject_GetAttrString(np, info.name);  // kept for the process
    if (!ufunc || Py_TYPE(ufunc) != reinterpret_cast<PyTypeObject*>(t.ufunc_type)) {
      PyErr_Clear();
      Py_XDECREF(ufunc);
      continue;
    }
    t.ufuncs[i] = ufunc;
    t.callables[ufunc] = {CallForm::kUfunc, op};
  }
  auto add_function = [&](PyObject* module, const char* name, CallForm form, jit::Op op) {
    PyObject* f = PyObject_GetAttrString(module, name);  // kept for the process
    if (!f) {
      PyErr_Clear();
      return;
    }
    t.callables.emplace(f, VocabularyEntry{form, op});
  };
  add_function(np, "where", CallForm::kWhere, jit::Op::where);
  PyObject* ndarray = PyObject_GetAttrString(np, "ndarray");
  for (const ReductionName& r : kReductions) {
    for (const char* name : r.functions) {
      if (name) add_function(np, name, CallForm::kReduce, r.op);
    }
    if (!ndarray) continue;
    const char* method = jit::op_info(r.op).name;
    PyObject* descriptor = PyObject_GetAttrString(ndarray, method);
    if (!descriptor) {
      PyErr_Clear();
      continue;
    }
    t.callables.emplace(descriptor, VocabularyEntry{CallForm::kReduceMethod, r.op});
    t.methods[method] = descriptor;
  }
  add_function(np, "clip", CallForm::kClip, jit::Op::clip);
  for (const jit::Op scan : {jit::Op::cumsum, jit::Op::cumprod}) {
    const char* name = jit::op_info(scan).name;
    add_function(np, name, CallForm::kScan, scan);
    PyObject* method = ndarray ? PyObject_GetAttrString(ndarray, name) : nullptr;
    if (method) {
      t.callables.emplace(method, VocabularyEntry{CallForm::kScan, scan, ViewCall::kReshape, true});
      t.methods[name] = method;
    }
    PyErr_Clear();
  }
  add_function(np, "bincount", CallForm::kBincount, jit::Op::input);
  add_function(np, "histogram", CallForm::kHistogram, jit::Op::input);
  add_function(np, "matmul", CallForm::kProduct, jit::Op::matmul);
  t.ufuncs[static_cast<int>(jit::Op::matmul)] = PyObject_GetAttrString(np, "matmul");  // kept
  PyErr_Clear();
  add_function(np, "dot", CallForm::kProduct, jit::Op::matmul);
  const char* const creations[] = {"zeros", "ones", "full", "empty"};
  for (int i = 0; i < 4; ++i) {
    add_function(np, creations[i], CallForm::kCreate, jit::Op::full);
    t.creations[i] = PyObject_GetAttrString(np, creations[i]);  // kept for the process
    PyErr_Clear();
    add_function(np, (std::string(creations[i]) + "_like").c_str(), CallForm::kCreateLike, jit::Op::full);
  }
  add_function(np, "arange", CallForm::kArange, jit::Op::arange);
  add_function(np, "linspace", CallForm::kLinspace, jit::Op::arange);
  t.creations[4] = PyObject_GetAttrString(np, "arange");  // kept for the process
  t.creations[5] = PyObject_GetAttrString(np, "linspace");
  PyErr_Clear();
  for (const auto& [name, form] : {std::pair{"var", CallForm::kVar}, std::pair{"std", CallForm::kStd}}) {
    add_function(np, name, form, jit::Op::sqrt);
    PyObject* m = ndarray ? PyObject_GetAttrString(ndarray, name) : nullptr;
    if (m) {
      t.callables.emplace(m, VocabularyEntry{form, jit::Op::sqrt, ViewCall::kReshape, true});
      t.methods[name] = m;
    }
    PyErr_Clear();
  }
  struct ViewName {
    ViewCall call;
    const char* name;
    bool is_method;
  };
  const ViewName views[] = {{ViewCall::kReshape, "reshape", true},       {ViewCall::kRavel, "ravel", true},
                            {ViewCall::kTranspose, "transpose", true},   {ViewCall::kSqueeze, "squeeze", true},
                            {ViewCall::kExpandDims, "expand_dims", false},
                            {ViewCall::kBroadcastTo, "broadcast_to", false}};
  for (const ViewName& v : views) {
    PyObject* f = PyObject_GetAttrString(np, v.name);  // kept for the process
    if (f) t.callables.emplace(f, VocabularyEntry{CallForm::kView, jit::Op::view, v.call, false});
    PyObject* m = v.is_method && ndarray ? PyObject_GetAttrString(ndarray, v.name) : nullptr;
    if (m) {
      t.callables.emplace(m, VocabularyEntry{CallForm::kView, jit::Op::view, v.call, true});
      t.methods[v.name] = m;
    }
    PyErr_Clear();
  }
  if (ndarray) {
    for (const auto& [name, form, op] : {std::tuple{"astype", CallForm::kAstype, jit::Op::astype},
                                         std::tuple{"clip", CallForm::kClip, jit::Op::clip},
                                         std::tuple{"dot", CallForm::kProduct, jit::Op::matmul}}) {
      PyObject* method = PyObject_GetAttrString(ndarray, name);
      if (!method) continue;
      t.callables.emplace(method, VocabularyEntry{form, op});
      t.methods[name] = method;
    }
    PyErr_Clear();
  }
  // np.clip is Python that calls this ufunc, which programs rarely name.
  PyObject* umath = PyImport_ImportModule("numpy._core.umath");
  if (umath) {
    t.ufuncs[static_cast<int>(jit::Op::clip)] = PyObject_GetAttrString(umath, "clip");  // kept
    Py_DECREF(umath);
  }
  Py_XDECREF(ndarray);
  PyObject* linalg = PyImport_ImportModule("numpy.linalg");
  if (linalg) {
    add_function(linalg, "norm", CallForm::kNorm, jit::Op::norm);
    Py_DECREF(linalg);
  }
  PyErr_Clear();
  return t;
}

// Built on first use. Modules the build imports may run frames of their
// own, which ask again meanwhile: they are told of no NumPy callable.
Tables& tables() {
  static Tables built;
  static Tables none;
  static enum { kNotBuilt, kBuilding, kBuilt } state = kNotBuilt;
  if (state == kBuilt) return built;
  if (state == kBuilding) return none;
  state = kBuilding;
  built = build_tables();
  state = kBuilt;
  return built;
}

}  // namespace

void load_vocabulary() { tables(); }

VocabularyEntry lookup_callable(PyObject* callable) {
  const Tables& t = tables();
  const auto found = t.callables.find(callable);
  return found == t.callables.end() ? VocabularyEntry{} : found->second;
}

bool creates_without_arrays(PyObject* callable) {
  const Tables& t = tables();
  for (PyObject* f : t.creations) {
    if (f == callable) return true;
  }
  return false;
}

bool is_numpy_callable(PyObject* callable) {
  const Tables& t = tables();
  if (reinterpret_cast<PyObject*>(Py_TYPE(callable)) == t.ufunc_type) return true;
  if (t.callables.count(callable)) return true;
  // Built-in types (float, int, list) and built-in functions (len, print)
  // are called on lazy values most: their module is read where CPython keeps
  // it (a static type's dotted name, a function's m_module), as __module__
  // would give it, rather than through an attribute lookup at every call.
  auto numpy_module = [](const char* name) {
    return std::strcmp(name, "numpy") == 0 || std::strncmp(name, "numpy.", 6) == 0;
  };
  if (PyType_Check(callable) && !(reinterpret_cast<PyTypeObject*>(callable)->tp_flags & Py_TPFLAGS_HEAPTYPE)) {
    // Its module is its name up to the last dot: NumPy's, or one inside
    // NumPy, exactly where the name starts so.
    return std::strncmp(reinterpret_cast<PyTypeObject*>(callable)->tp_name, "numpy.", 6) == 0;
  }
  if (PyCFunction_Check(callable)) {
    PyObject* module = reinterpret_cast<PyCFunctionObject*>(callable)->m_module;
    if (module && PyUnicode_Check(module)) {
      const char* name = PyUnicode_AsUTF8(module);
      if (name) return numpy_module(name);
      PyErr_Clear();
    }
  }
  PyObject* module = PyObject_GetAttrString(callable, "__module__");
  if (!module) {
    PyErr_Clear();
    // Methods of ndarray: their objclass is the ndarray type.
    return false;
  }
  const char* name = PyUnicode_Check(module) ? PyUnicode_AsUTF8(module) : nullptr;
  const bool numpy = name && numpy_module(name);
  Py_DECREF(module);
  PyErr_Clear();
  return numpy;
}

namespace {

// The name of the module a C function belongs to, or nullptr.
const char* module_of(PyObject* callable) {
  if (!PyCFunction_Check(callable)) return nullptr;
  PyObject* module = PyCFunction_GET_SELF(callable);
  if (!module || !PyModule_Check(module)) return nullptr;
  const char* name = PyModule_GetName(module);
  if (!name) PyErr_Clear();
  return name;
}

// Whether `o` is the warnings module's filters list.
bool is_warnings_filters(PyObject* o) {
  static PyObject* module_name = PyUnicode_InternFromString("warnings");
  static PyObject* filters_name = PyUnicode_InternFromString("filters");
  PyObject* warnings = module_name ? PyImport_GetModule(module_name) : nullptr;
  if (!warnings) {
    PyErr_Clear();
    return false;
  }
  PyObject* filters = filters_name ? PyObject_GetAttr(warnings, filters_name) : nullptr;
  PyErr_Clear();
  const bool same = filters == o;
  Py_XDECREF(filters);
  Py_DECREF(warnings);
  return same;
}

// A builtin that cannot look at frames or write into arrays, and whose
// effects need not come after the warnings of a pending region: no output
// (print, methods of io's streams) and no change to warnings.filters.
bool builtin_leaves_region_alone(PyObject* callable, PyObject* first_arg) {
  if (PyType_Check(callable)) {
    return !PyType_HasFeature(reinterpret_cast<PyTypeObject*>(callable), Py_TPFLAGS_HEAPTYPE) &&
           reinterpret_cast<PyObject*>(callable) != reinterpret_cast<PyObject*>(g_ndarray_type);
  }
  if (Py_IS_TYPE(callable, &PyMethodDescr_Type)) {
    // Methods of Python's own containers, strings and numbers only: another
    // C type's may write memory that arrays view (array.array, bytearray),
    // run code npython does not see, or let another thread run (a lock's
    // acquire).
    const PyTypeObject* owner = PyDescr_TYPE(callable);
    if (owner == &PyList_Type) return !(first_arg && is_warnings_filters(first_arg));
    for (const PyTypeObject* plain : {&PyTuple_Type, &PyDict_Type, &PySet_Type, &PyFrozenSet_Type, &PyUnicode_Type,
                                      &PyBytes_Type, &PyLong_Type, &PyFloat_Type, &PyComplex_Type}) {
      if (owner == plain) return true;
    }
    return false;
  }
  const char* module_name = module_of(callable);
  if (!module_name) return false;
  if (std::strcmp(module_name, "math") == 0) return true;
  if (std::strcmp(module_name, "builtins") != 0) return false;
  const char* name = reinterpret_cast<PyCFunctionObject*>(callable)->m_ml->ml_name;
  for (const char* looks_at_frames : {"locals", "vars", "dir", "eval", "exec", "globals", "breakpoint",
                                      "__import__", "compile", "setattr", "delattr"}) {
    if (std::strcmp(name, looks_at_frames) == 0) return false;
  }
  if (std::strcmp(name, "print") == 0) return false;  // output
  return true;
}

// A NumPy call that writes into no existing array and never warns.
// `positional`: its positional arguments (a method's self among them).
bool numpy_call_is_quiet(PyObject* callable, Py_ssize_t positional, PyObject* kwnames) {
  if (kwnames) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(kwnames); ++i) {
      if (PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, i), "out") == 0) return false;
    }
  }
  // Reading only, and warning never: shapes, views, copies, new arrays. A
  // few take `out` by position too, as the argument after `positional_max`
  // (a method's self counted): given so, they write.
  struct Quiet {
    const char* name;
    Py_ssize_t positional_max;
  };
  constexpr Py_ssize_t kAny = PY_SSIZE_T_MAX;
  static const Quiet kQuiet[] = {
      {"reshape", kAny}, {"ravel", kAny}, {"flatten", kAny}, {"transpose", kAny}, {"swapaxes", kAny},
      {"copy", kAny}, {"view", kAny}, {"squeeze", kAny}, {"tolist", kAny}, {"item", kAny},
      {"nonzero", kAny}, {"diagonal", kAny}, {"repeat", kAny}, {"take", 3}, {"tobytes", kAny},
      {"__len__", kAny}, {"array", kAny}, {"asarray", kAny}, {"asanyarray", kAny},
      {"ascontiguousarray", kAny}, {"zeros", kAny}, {"ones", kAny}, {"empty", kAny}, {"full", kAny},
      {"zeros_like", kAny}, {"ones_like", kAny}, {"empty_like", kAny}, {"full_like", kAny},
      {"arange", kAny}, {"expand_dims", kAny}, {"broadcast_to", kAny}, {"concatenate", 2},
      {"stack", 2}, {"vstack", kAny}, {"hstack", kAny}, {"shape", kAny}, {"ndim", kAny}, {"size", kAny},
      {"result_type", kAny}};
  const char* name = nullptr;
  PyObject* name_object = nullptr;
  if (Py_IS_TYPE(callable, &PyMethodDescr_Type)) {
    if (std::strncmp(PyDescr_TYPE(callable)->tp_name, "numpy.", 6) != 0) return false;
    name = PyUnicode_AsUTF8(PyDescr_NAME(callable));
  } else if (PyFunction_Check(callable) ||
             (PyCFunction_Check(callable) &&
              (!PyCFunction_GET_SELF(callable) || PyModule_Check(PyCFunction_GET_SELF(callable))))) {
    if (!is_numpy_callable(callable)) return false;
    name_object = PyObject_GetAttrString(callable, "__name__");
    name = name_object && PyUnicode_Check(name_object) ? PyUnicode_AsUTF8(name_object) : nullptr;
  }
  bool quiet = false;
  for (const Quiet& q : kQuiet) quiet = quiet || (name && std::strcmp(name, q.name) == 0 && positional <= q.positional_max);
  Py_XDECREF(name_object);
  PyErr_Clear();
  return quiet;
}

}  // namespace

bool reads_clock(PyObject* callable) {
  const char* module_name = module_of(callable);
  return module_name && std::strcmp(module_name, "time") == 0;
}

bool call_keeps_region_pending(PyObject* callable, PyObject* first_arg, Py_ssize_t positional, PyObject* kwnames) {
  return builtin_leaves_region_alone(callable, first_arg) || numpy_call_is_quiet(callable, positional, kwnames);
}

PyObject* ufunc_of(jit::Op op) { return tables().ufuncs[static_cast<int>(op)]; }

PyObject* traced_method(PyObject* name) {
  const char* text = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : nullptr;
  if (!text) {
    PyErr_Clear();
    return nullptr;
  }
  return ndarray_method(text);
}

PyObject* ndarray_method(const char* name) {
  const auto& methods = tables().methods;
  const auto found = methods.find(name);
  return found == methods.end() ? nullptr : found->second;
}

PyObject* unbound_array_method(PyObject* callable, PyObject*& self) {
  if (Py_TYPE(callable) != &PyCFunction_Type && Py_TYPE(callable) != &PyCMethod_Type) return nullptr;
  PyObject* bound_to = PyCFunction_GET_SELF(callable);
  if (!bound_to || !g_ndarray_type || Py_TYPE(bound_to) != g_ndarray_type) return nullptr;
  const PyMethodDef* def = reinterpret_cast<PyCFunctionObject*>(callable)->m_ml;
  PyObject* method = ndarray_method(def->ml_name);
  // The descriptor of that very C function, not merely of that name.
  if (!method || Py_TYPE(method) != &PyMethodDescr_Type ||
      reinterpret_cast<PyMethodDescrObject*>(method)->d_method != def) {
    return nullptr;
  }
  self = bound_to;
  return method;
}

PyObject* numpy_attr(const char* name) {
  static std::unordered_map<std::string, PyObject*> cache;
  const auto found = cache.find(name);
  if (found != cache.end()) return found->second;
  PyObject* value = numpy_module() ? PyObject_GetAttrString(numpy_module(), name) : nullptr;
  if (!value) {
    PyErr_Clear();
    return nullptr;  // not remembered: NumPy may not be loaded yet
  }
  cache[name] = value;
  return value;
}

}  // namespace npy::numpy_shim
