#include "interp/evaluator.h"

#include <ceval.h>
#include <cpython/longintrepr.h>
#include <opcode.h>

#include <cstddef>
#include <cstdint>

#include "evaluator_version.h"
#include "interp/bytecode_helpers.h"
#include "interp/exception_groups.h"
#include "interp/lazy_frames.h"
#include "interp/opcode_table.h"
#include "interp/policy.h"
#include "numpy_shim/cpython_api.h"
#include "numpy_shim/default_float.h"
#include "numpy_shim/diagnostics.h"
#include "numpy_shim/numpy_api.h"
#include "numpy_shim/small_arrays.h"
#include "numpy_shim/trace.h"
#include "numpy_shim/tracer.h"
#include "numpy_shim/vocabulary.h"

// The dispatch loop jumps through a table of label addresses (GCC's computed
// goto), as CPython's own evaluator does.
#pragma GCC diagnostic ignored "-Wpedantic"

// Errors and tracing: laid out away from the instructions' common paths,
// which then take fewer instruction-cache lines.
#define NPY_UNLIKELY(condition) __builtin_expect(!!(condition), 0)
// Cache hits: the common path.
#define NPY_LIKELY(condition) __builtin_expect(!!(condition), 1)

namespace npy::interp {
namespace {

// A dict's version tag changes whenever the dict does (PEP 509). CPython 3.12
// deprecates the field for 3.14, where it goes; it is still kept up to date.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
std::uint64_t dict_tag(PyObject* dict) { return reinterpret_cast<PyDictObject*>(dict)->ma_version_tag; }
#pragma GCC diagnostic pop

// Loads a global or builtin by name: a new reference, or NULL with an
// exception set. Fills `cache` (may be null) when the lookup ran no Python
// code (both dicts have str keys only): while neither dict changes, looking
// the name up again would find the same value.
[[gnu::noinline]] PyObject* load_global(PyObject* globals, PyObject* builtins, PyObject* name,
                                        GlobalCacheEntry* cache) {
  if (PyDict_CheckExact(globals) && PyDict_CheckExact(builtins)) {
    PyObject* value = PyDict_GetItemWithError(globals, name);
    if (!value && !PyErr_Occurred()) value = PyDict_GetItemWithError(builtins, name);
    if (!value) {
      if (!PyErr_Occurred()) raise_name_error(PyExc_NameError, kNameErrorFormat, name);
      return nullptr;
    }
    if (cache && PyUnicode_CheckExact(name) && npy_dict_has_str_keys(globals) && npy_dict_has_str_keys(builtins)) {
      *cache = {dict_tag(globals), dict_tag(builtins), value};
    }
    Py_INCREF(value);
    return value;
  }
  PyObject* value = PyObject_GetItem(globals, name);
  if (value) return value;
  if (!PyErr_ExceptionMatches(PyExc_KeyError)) return nullptr;
  PyErr_Clear();
  value = PyObject_GetItem(builtins, name);
  if (!value && PyErr_ExceptionMatches(PyExc_KeyError)) {
    raise_name_error(PyExc_NameError, kNameErrorFormat, name);
  }
  return value;
}

// Looks `name` up in a mapping: a new reference, NULL without an exception
// when absent, NULL with one on error.
PyObject* mapping_lookup(PyObject* mapping, PyObject* name) {
  if (PyDict_CheckExact(mapping)) {
    PyObject* value = PyDict_GetItemWithError(mapping, name);
    Py_XINCREF(value);
    return value;
  }
  PyObject* value = PyObject_GetItem(mapping, name);
  if (!value && PyErr_ExceptionMatches(PyExc_KeyError)) PyErr_Clear();
  return value;
}

int mapping_store(PyObject* mapping, PyObject* name, PyObject* value) {
  return PyDict_CheckExact(mapping) ? PyDict_SetItem(mapping, name, value)
                                    : PyObject_SetItem(mapping, name, value);
}

// The exception table entry covering `index`: handler offset, stack depth to
// unwind to and whether to push the raising instruction's offset.
// Format: Objects/exception_handling_notes.txt of CPython 3.11.
struct Handler {
  int target;
  int depth;
  bool push_lasti;
};

const unsigned char* read_varint(const unsigned char* p, int* value) {
  int v = *p & 63;
  while (*p & 64) {
    ++p;
    v = (v << 6) | (*p & 63);
  }
  *value = v;
  return p + 1;
}

bool find_handler(PyCodeObject* code, int index, Handler* out) {
  const auto* p = reinterpret_cast<const unsigned char*>(PyBytes_AS_STRING(code->co_exceptiontable));
  const unsigned char* end = p + PyBytes_GET_SIZE(code->co_exceptiontable);
  while (p < end) {
    int start, size, target, depth_lasti;
    p = read_varint(p, &start);
    p = read_varint(p, &size);
    p = read_varint(p, &target);
    p = read_varint(p, &depth_lasti);
    if (start > index) return false;
    if (index < start + size) {
      *out = {target, depth_lasti >> 1, (depth_lasti & 1) != 0};
      return true;
    }
  }
  return false;
}

// container[sub], with list[i] and tuple[i] for a small non-negative int i
// read directly (what their own subscript would return).
[[gnu::noinline]] PyObject* subscript(PyObject* container, PyObject* sub) {
  Py_ssize_t i;
  if (version::small_nonnegative_int(sub, &i)) {
    if (PyList_CheckExact(container) && i < PyList_GET_SIZE(container)) {
      return Py_NewRef(PyList_GET_ITEM(container, i));
    }
    if (PyTuple_CheckExact(container) && i < PyTuple_GET_SIZE(container)) {
      return Py_NewRef(PyTuple_GET_ITEM(container, i));
    }
  }
  return PyObject_GetItem(container, sub);
}

// Whether `cache` was filled for the owner's type as it is now.
bool cache_holds_for(const AttrCacheEntry* cache, PyTypeObject* type) {
  return cache->type == type && cache->version == type->tp_version_tag && cache->version != 0;
}

// Whether `cache` holds module.name for a module of the module type itself:
// filled for the module's dict in the state it is in now.
bool module_cache_holds(const AttrCacheEntry* cache, PyObject* module) {
  PyObject* dict = npy_module_dict(module);
  return cache->type == &PyModule_Type && dict && cache->dict_tag == dict_tag(dict);
}

// module.name of a module of the module type itself. `cache` is filled when
// the value is the one the module's dict holds (not one from the module's
// __getattr__): what the module type, which cannot change, and an unchanged
// dict give stays the same; looking a name up in a dict of str keys runs no
// Python code.
PyObject* load_module_attr(PyObject* module, PyObject* name, AttrCacheEntry* cache) {
  PyObject* dict = npy_module_dict(module);
  PyObject* res = PyObject_GetAttr(module, name);
  if (res && dict && PyUnicode_CheckExact(name) && PyDict_CheckExact(dict) && npy_dict_has_str_keys(dict) &&
      PyDict_GetItemWithError(dict, name) == res) {
    *cache = {};
    cache->type = &PyModule_Type;
    cache->index = -1;
    cache->dict_tag = dict_tag(dict);
    cache->value = res;
  }
  return res;
}

// owner.name; an instance attribute held in the instance's inline values is
// read through `cache` when it holds for the owner's type. The first access
// with a type fills `cache`, with index -1 when the attribute is not one, so
// that the next accesses do not look again.
// Kept out of line, like the other helpers, so that the dispatch loop's
// register allocation does not pay for them.
[[gnu::noinline]] PyObject* load_attr(PyObject* owner, PyObject* name, AttrCacheEntry* cache) {
  PyTypeObject* type = Py_TYPE(owner);
  if (type == &PyModule_Type && cache) return load_module_attr(owner, name, cache);
  const bool holds = cache && cache_holds_for(cache, type);
  if (holds && cache->index >= 0) {
    if (PyObject* value = npy_instance_value(owner, cache->index)) return Py_NewRef(value);
  }
  PyObject* res = PyObject_GetAttr(owner, name);
  if (res && cache && !holds) {
    // Only plain attribute access, and only when no class in the MRO defines
    // the name (which a new version tag would announce).
    int index = -1;
    if (type->tp_getattro == PyObject_GenericGetAttr &&
        PyType_HasFeature(type, Py_TPFLAGS_VALID_VERSION_TAG) && PyUnicode_CheckExact(name) &&
        !_PyType_Lookup(type, name)) {
      index = npy_shared_key_index(type, name);
    }
    *cache = {type, type->tp_version_tag, index};
  }
  return res;
}

// _PyObject_GetMethod(owner, name, method), with a method that no instance
// attribute can shadow read from `cache` when it holds for the owner's type.
// The first lookup with a type fills `cache` (with no method when the one
// found cannot be cached), so that the next lookups do not look again.
[[gnu::noinline]] int load_method(PyObject* owner, PyObject* name, PyObject** method,
                                  AttrCacheEntry* cache) {
  PyTypeObject* type = Py_TYPE(owner);
  const bool holds = cache && cache_holds_for(cache, type);
  if (holds && cache->method) {
    const Py_ssize_t entries = cache->shared_keys_entries;
    if (entries < 0 || (npy_has_inline_values(owner) && npy_shared_keys_entries(type) == entries)) {
      *method = Py_NewRef(cache->method);
      return 1;
    }
  }
  const int is_method = _PyObject_GetMethod(owner, name, method);
  if (!cache || holds) return is_method;
  PyObject* cacheable = nullptr;
  Py_ssize_t entries = -1;
  if (is_method && type->tp_getattro == PyObject_GenericGetAttr &&
      PyType_HasFeature(type, Py_TPFLAGS_VALID_VERSION_TAG) && PyUnicode_CheckExact(name)) {
    bool shadowable = false;
    if (PyType_HasFeature(type, Py_TPFLAGS_MANAGED_DICT)) {
      entries = npy_shared_keys_entries(type);
      shadowable = entries < 0 || !npy_has_inline_values(owner) ||
                   npy_shared_key_index(type, name) >= 0;
    } else {
      shadowable = type->tp_dictoffset != 0;  // instances with a dict of their own
    }
    PyObject* found = shadowable ? nullptr : _PyType_Lookup(type, name);
    if (found == *method) cacheable = found;  // what _PyObject_GetMethod returned
  }
  *cache = {type, type->tp_version_tag, -1, cacheable, entries};
  return is_method;
}

// PyObject_Vectorcall (PEP 590) with the thread state the evaluator holds
// rather than looked up again: the callable's vectorcall function if it has
// one, else its tp_call; the result checked as CPython checks every call's
// (_Py_CheckFunctionResult, called only when it has something to report:
// a result with an exception set, or none without one).
PyObject* vectorcall(PyThreadState* tstate, PyObject* callable, PyObject* const* args, size_t nargsf,
                     PyObject* kwnames) {
  PyTypeObject* type = Py_TYPE(callable);
  if (PyType_HasFeature(type, Py_TPFLAGS_HAVE_VECTORCALL)) {
    const auto func =
        *reinterpret_cast<vectorcallfunc*>(reinterpret_cast<char*>(callable) + type->tp_vectorcall_offset);
    if (func) {
      PyObject* res = func(callable, args, nargsf, kwnames);
      if (NPY_LIKELY((res != nullptr) == !version::error_set(tstate))) return res;
      return _Py_CheckFunctionResult(tstate, callable, res, nullptr);
    }
  }
  return _PyObject_MakeTpCall(tstate, callable, args, PyVectorcall_NARGS(nargsf), kwnames);
}

bool is_numpy_pair(PyObject* left, PyObject* right) {
  return numpy_shim::is_lazy(left) || numpy_shim::is_lazy(right) ||
         Py_TYPE(left) == numpy_shim::g_ndarray_type || Py_TYPE(right) == numpy_shim::g_ndarray_type;
}

// Whether CPython compares these as its specialized instructions do
// (COMPARE_OP_INT, _FLOAT, _STR; in 3.11 only before a conditional jump): with the type's own
// comparison, without PyObject_RichCompare's recursion check, so that the
// RecursionError of a deep recursion comes from where it comes in CPython.
bool compared_as_specialized(PyObject* left, PyObject* right, int op, int next_opcode) {
  if (!version::comparison_specializes(next_opcode)) return false;
  if (PyLong_CheckExact(left) && PyLong_CheckExact(right)) {
    return version::is_compact_int(left) && version::is_compact_int(right);
  }
  if (PyFloat_CheckExact(left) && PyFloat_CheckExact(right)) return true;
  return PyUnicode_CheckExact(left) && PyUnicode_CheckExact(right) && (op == Py_EQ || op == Py_NE);
}

// An instance of a subclass of ndarray (np.matrix, np.ma.MaskedArray, ...).
bool is_array_subclass(PyObject* o) {
  return Py_TYPE(o) != numpy_shim::g_ndarray_type && PyObject_TypeCheck(o, numpy_shim::g_ndarray_type);
}

bool any_lazy(PyObject* const* values, int count) {
  for (int i = 0; i < count; ++i) {
    if (numpy_shim::is_lazy(values[i])) return true;
  }
  return false;
}

// Before a call that is not traced, while lazy values exist: lazy arguments
// are computed, and everything pending unless the callee keeps a region
// pending. 0, or -1 with an exception.
[[gnu::noinline]] int materialize_for_call(PyObject* callable, PyObject* const* args, int total_args,
                                           PyObject* kwnames, const numpy_shim::Location& where, PyObject** sp) {
  const bool lazy_args = any_lazy(args, total_args);
  if (!lazy_args && numpy_shim::call_keeps_region_pending(callable, total_args > 0 ? args[0] : nullptr,
                                                            total_args - (kwnames ? PyTuple_GET_SIZE(kwnames) : 0), kwnames)) {
    return 0;
  }
  const bool fallback = lazy_args && numpy_shim::is_numpy_callable(callable);
  if (fallback) numpy_shim::note_fallback();
  const numpy_shim::Reason reason = fallback                           ? numpy_shim::Reason::k_fallback
                                     : numpy_shim::reads_clock(callable) ? numpy_shim::Reason::k_clock
                                                                         : numpy_shim::Reason::k_call;
  return materialize_frames(reason, where, nullptr, sp);
}

// What a materialization at an operator names: "operator", or, while the
// diagnostics are on, the operator as the program writes it ("`**` with
// exponent 3").
[[gnu::noinline]] const char* operator_detail(int nb_op, PyObject* rhs) {
  if (!numpy_shim::g_diagnostics) return "operator";
  static thread_local std::string text;
  text = numpy_shim::describe_binary_operator(nb_op, rhs);
  return text.c_str();
}

// The same for a comparison: "comparison", or "`<`".
[[gnu::noinline]] const char* compare_detail(int compare_op) {
  if (!numpy_shim::g_diagnostics) return "comparison";
  static thread_local std::string text;
  text = numpy_shim::describe_compare(compare_op);
  return text.c_str();
}

// sys.displayhook(value), as the interactive prompt shows an expression
// statement's value. 0, or -1 with an exception set.
int display_value(PyObject* value) {
  PyObject* hook = PySys_GetObject("displayhook");  // borrowed
  if (!hook) {
    PyErr_SetString(PyExc_RuntimeError, "lost sys.displayhook");
    return -1;
  }
  PyObject* res = PyObject_CallOneArg(hook, value);
  if (!res) return -1;
  Py_DECREF(res);
  return 0;
}

// Whether one of the top `count` values, which an instruction stores into
// variables or drops, is lazy.
bool stores_lazy(int count, PyObject** sp) {
  for (int i = 1; i <= count; ++i) {
    if (sp[-i] && numpy_shim::is_lazy(sp[-i])) return true;
  }
  return false;
}

// An f-string's {value!conversion}: str(), repr() or ascii() of `value`
// for FVC_STR, FVC_REPR, FVC_ASCII, else `value`. Steals `value`; NULL with
// an exception set on error.
PyObject* convert_value(PyObject* value, int conversion) {
  PyObject* (*convert)(PyObject*) = conversion == FVC_STR     ? PyObject_Str
                                    : conversion == FVC_REPR  ? PyObject_Repr
                                    : conversion == FVC_ASCII ? PyObject_ASCII
                                                              : nullptr;
  if (!convert) return value;
  PyObject* converted = convert(value);
  Py_DECREF(value);
  return converted;
}

// An f-string's {value:spec} (`spec` may be NULL): a str without a spec is
// itself. Steals both.
PyObject* format_value(PyObject* value, PyObject* spec) {
  if (PyUnicode_CheckExact(value) && !spec) return value;
  PyObject* result = PyObject_Format(value, spec);
  Py_DECREF(value);
  Py_XDECREF(spec);
  return result;
}

PyObject* new_bool(bool b) {
  PyObject* r = b ? Py_True : Py_False;
  Py_INCREF(r);
  return r;
}

}  // namespace

PyObject* evaluate_frame(PyThreadState* tstate, npy_frame* frame, CodeInfo* code_info) {
  npy_frame_link link;
  npy_frame_enter(tstate, frame, &link);
  npy_frame_fields f;
  npy_frame_fields_get(frame, &f);
  PyCodeObject* const code = f.code;
  PyObject* const consts = code->co_consts;
  PyObject* const names_tuple = code->co_names;
  PyObject** const localsplus = f.localsplus;
  PyObject** const stack_base = localsplus + code->co_nlocalsplus;
  npy_codeunit* const first_instr = NPY_CODE_UNITS(code);
  npy_codeunit* next_instr = version::first_to_run(*f.current_instr);
  // The instruction an exception is unwound from: the frame's current one
  // (*f.current_instr), except where a tracer moved the frame and then raised.
  npy_codeunit* unwind_from = next_instr;
  PyObject** sp = localsplus + *f.stacktop;
  const volatile npy_eval_breaker_word* const eval_breaker = npy_eval_breaker(tstate);
  const volatile int* const signals_pending = npy_signals_pending();
  const uint8_t* const base_opcode = npy_base_opcodes();
  const uint8_t* const cache_units = npy_inline_cache_units();
  AttrCacheEntry* const attr_caches = code_info ? code_info->attr_caches.get() : nullptr;
  // The frame's globals and builtins stay the same objects while it runs;
  // their tags can be read only when they are dicts.
  GlobalCacheEntry* const global_caches =
      code_info && PyDict_CheckExact(f.globals) && PyDict_CheckExact(f.builtins) ? code_info->global_caches.get()
                                                                                : nullptr;
  PyObject* kwnames = nullptr;  // set by KW_NAMES for the next CALL
  int opcode = 0;
  int oparg = 0;
  // Operands that several instructions share a handler for.
  numpy_shim::UnaryOperator unary = numpy_shim::UnaryOperator::kNegative;
  PyObject* attr_name = nullptr;
  ActiveFrame active(localsplus, code->co_nlocalsplus);
  // The one slot of the frame's variables that holds `o` (null: none or
  // several), where an assignment into an array only it names may leave a
  // lazy value instead (trace_store_subscript).
  auto only_local_naming = [localsplus, code](PyObject* o) -> PyObject** {
    PyObject** found = nullptr;
    for (int i = 0; i < code->co_nlocalsplus; ++i) {
      if (localsplus[i] != o) continue;
      if (found) return nullptr;
      found = &localsplus[i];
    }
    return found;
  };

#define TOP() (sp[-1])
#define SECOND() (sp[-2])
#define THIRD() (sp[-3])
#define PEEK(n) (sp[-(n)])
#define PUSH(v) (*sp++ = (v))
#define POP() (*--sp)
#define GETLOCAL(i) (localsplus[i])
#define SETLOCAL(i, value)        \
  do {                            \
    PyObject* old_ = GETLOCAL(i); \
    GETLOCAL(i) = (value);        \
    Py_XDECREF(old_);             \
  } while (0)
#define SKIP_CACHES() (next_instr += cache_units[opcode])
// A callable and the NULL a call without self takes, in the version's order.
#define PUSH_CALLABLE(v)                   \
  do {                                     \
    if (version::kNullBelowCallable) {     \
      PUSH(nullptr);                       \
      PUSH(v);                             \
    } else {                               \
      PUSH(v);                             \
      PUSH(nullptr);                       \
    }                                      \
  } while (0)
#define JUMPBY(n) (next_instr += (n))
// Threaded dispatch: each instruction ends by fetching and jumping to the
// next one's handler, which lets the processor predict each jump apart.
// (An instruction the version lacks keeps its handler, never jumped to.)
#define TARGET(op) op_##op: __attribute__((unused));
// The frame's last-instruction field is the instruction being executed.
#define FETCH_AND_JUMP()                           \
  do {                                             \
    *f.current_instr = next_instr;                 \
    opcode = NPY_OPCODE(*next_instr);              \
    oparg = NPY_OPARG(*next_instr);                \
    ++next_instr;                                  \
    goto* DISPATCH_TABLE()[opcode];                \
  } while (0)
// While lazy values exist, instructions that may have to materialize them
// go through `materialize_lazies` first, and every instruction through
// `line_end_check` where regions end with their line.
#define DISPATCH_TABLE()                                                                          \
  (numpy_shim::g_live_lazies ? (numpy_shim::g_regions_end_at_lines ? line_end_targets : lazy_targets) \
                             : targets)
#define DISPATCH()                                 \
  do {                                             \
    NPY_VERSION_TRACING_CHECK();                   \
    FETCH_AND_JUMP();                              \
  } while (0)
// Where the frame is, for the tracer's sites and warnings.
#define INSTR_INDEX() (static_cast<int>(*f.current_instr - first_instr))
#define LOCATION() (numpy_shim::Location{code, INSTR_INDEX(), f.globals})
// Replaces every lazy value of the evaluated frames by its value.
#define MATERIALIZE_FRAMES(reason, detail)                                                     \
  do {                                                                                          \
    if (NPY_UNLIKELY(materialize_frames(numpy_shim::Reason::reason, LOCATION(), detail, sp) < 0)) { \
      goto error;                                                                               \
    }                                                                                           \
  } while (0)
// For an operation on the top two values (BINARY_OP, COMPARE_OP) with a
// NumPy operand: the tracer's result replaces them and the instruction ends
// here; otherwise the expression is true when an operand was NumPy's (lazy,
// or an array) and the operation was not traced. With no lazy value alive,
// arrays too small to trace leave it false at once (nothing to compute
// first, nothing for numpy_shim to do).
#define TRACE_TOP_PAIR(trace) TRACE_TOP_PAIR_ARG(trace, oparg)
#define TRACE_TOP_PAIR_ARG(trace, arg)                                          \
  (numpy_shim::g_ndarray_type && is_numpy_pair(SECOND(), TOP()) &&             \
   (numpy_shim::g_live_lazies || numpy_shim::may_trace_either(SECOND(), TOP())) && \
   ({                                                                          \
     PyObject* traced_ = trace(arg, SECOND(), TOP(), LOCATION());              \
     if (traced_) {                                                            \
       PyObject* right_ = POP();                                               \
       Py_DECREF(right_);                                                      \
       Py_DECREF(TOP());                                                       \
       TOP() = traced_;                                                        \
       SKIP_CACHES();                                                          \
       DISPATCH();                                                             \
     }                                                                         \
     if (NPY_UNLIKELY(ERROR_SET())) goto error;                                \
     true;                                                                     \
   }))
// PyErr_Occurred() without looking the thread state up again.
#define ERROR_SET() (version::error_set(tstate))
#define CHECK_EVAL_BREAKER()                                                          \
  do {                                                                                \
    if (NPY_UNLIKELY(((*eval_breaker & NPY_EVAL_BREAKER_EVENTS) || *signals_pending) && \
                     npy_handle_eval_breaker(tstate) != 0)) {                         \
      goto error;                                                                     \
    }                                                                                 \
  } while (0)

  // While lazy values exist, instructions that may have to materialize
  // them go through `materialize_lazies` first.
  static void* targets[256];
  static void* lazy_targets[256];
  static void* line_end_targets[256];
  static bool targets_ready = false;
  if (!targets_ready) {  // first call, under the GIL
    for (void*& target : targets) target = &&op_unknown;
#define NPY_SET_TARGET_kEvaluated(label, opcode) targets[opcode] = &&label;
#define NPY_SET_TARGET_kGeneratorOnly(label, opcode)
#define NPY_SET_TARGET_kHandedOver(label, opcode)
#define NPY_SET_TARGET_kResumedInCpython(label, opcode) targets[opcode] = &&resume_in_cpython;
#define NPY_SET_TARGET(name, support, lazy) NPY_SET_TARGET_##support(op_##name, name)
    NPY_OPCODE_TABLE(NPY_SET_TARGET)
#undef NPY_SET_TARGET
#undef NPY_SET_TARGET_kEvaluated
#undef NPY_SET_TARGET_kGeneratorOnly
#undef NPY_SET_TARGET_kHandedOver
#undef NPY_SET_TARGET_kResumedInCpython
    for (int op = 0; op < 256; ++op) {
      const LazyUse use = kOpcodeInfos[op].lazy;
      const bool direct = targets[op] == &&op_unknown || use == LazyUse::kPasses || use == LazyUse::kTraces;
      lazy_targets[op] = direct ? targets[op] : &&materialize_lazies;
    }
    // Instructions CPython's evaluator specialised in code it also ran are
    // read back to their base instruction, off the common path.
    for (int op = 0; op < 256; ++op) {
      if (targets[op] == &&op_unknown && targets[base_opcode[op]] != &&op_unknown) {
        targets[op] = lazy_targets[op] = &&specialized;
      }
    }
    for (void*& target : line_end_targets) target = &&line_end_check;
    targets_ready = true;
  }

  if (npy_enter_recursive_call(tstate) != 0) goto exit_unwind;
  // While the frame runs, its stack is invisible to the cycle collector, as
  // under CPython's evaluator.
  *f.stacktop = -1;

  DISPATCH();
  {
      TARGET(NOP)
        DISPATCH();

      TARGET(EXTENDED_ARG) {
        oparg = (oparg << 8) | NPY_OPARG(*next_instr);
        opcode = NPY_OPCODE(*next_instr);
        *f.current_instr = next_instr;
        ++next_instr;
        goto* DISPATCH_TABLE()[opcode];
      }

      TARGET(LOAD_CLOSURE)
      TARGET(LOAD_FAST) {
        PyObject* value = GETLOCAL(oparg);
        if (!value) {
          raise_unbound_local(code, oparg);
          goto error;
        }
        Py_INCREF(value);
        PUSH(value);
        DISPATCH();
      }

      TARGET(LOAD_CONST) {
        PyObject* value = PyTuple_GET_ITEM(consts, oparg);
        Py_INCREF(value);
        PUSH(value);
        DISPATCH();
      }

      TARGET(STORE_FAST) {
        PyObject* value = POP();
        SETLOCAL(oparg, value);
        DISPATCH();
      }

      TARGET(DELETE_FAST) {
        if (!GETLOCAL(oparg)) {
          raise_unbound_local(code, oparg);
          goto error;
        }
        SETLOCAL(oparg, nullptr);
        DISPATCH();
      }

      TARGET(POP_TOP)
        Py_DECREF(POP());
        DISPATCH();

      TARGET(PUSH_NULL)
        PUSH(nullptr);
        DISPATCH();

      TARGET(COPY) {
        PyObject* value = PEEK(oparg);
        Py_INCREF(value);
        PUSH(value);
        DISPATCH();
      }

      TARGET(SWAP) {
        PyObject* top = TOP();
        TOP() = PEEK(oparg);
        PEEK(oparg) = top;
        DISPATCH();
      }

      TARGET(UNARY_NEGATIVE)
        unary = numpy_shim::UnaryOperator::kNegative;
        goto unary_operator;

      TARGET(UNARY_INVERT)
        unary = numpy_shim::UnaryOperator::kInvert;
        goto unary_operator;

    unary_operator: {
        if (numpy_shim::g_ndarray_type) {
          PyObject* operand = TOP();
          if (numpy_shim::is_lazy(operand) || Py_TYPE(operand) == numpy_shim::g_ndarray_type) {
            PyObject* traced = numpy_shim::trace_unary_operator(unary, operand, LOCATION());
            if (traced) {
              Py_DECREF(operand);
              TOP() = traced;
              DISPATCH();
            }
            if (NPY_UNLIKELY(PyErr_Occurred())) goto error;
            if (numpy_shim::is_lazy(operand)) MATERIALIZE_FRAMES(k_operation, kOpcodeInfos[opcode].name);
          }
        }
        PyObject* value = TOP();
        const bool eager = NPY_UNLIKELY(numpy_shim::g_diagnostics) && numpy_shim::g_ndarray_type &&
                           Py_TYPE(value) == numpy_shim::g_ndarray_type &&
                           numpy_shim::begin_eager_operator(unary == numpy_shim::UnaryOperator::kPositive   ? "unary `+`"
                                                            : unary == numpy_shim::UnaryOperator::kNegative ? "unary `-`"
                                                                                                           : "`~`",
                                                            LOCATION(), true);
        PyObject* res = unary == numpy_shim::UnaryOperator::kPositive   ? PyNumber_Positive(value)
                        : unary == numpy_shim::UnaryOperator::kNegative ? negative(value)
                                                                       : invert(value);
        if (NPY_UNLIKELY(eager)) numpy_shim::end_eager();
        Py_DECREF(value);
        TOP() = res;
        if (NPY_UNLIKELY(!res)) goto error;
        DISPATCH();
      }

      TARGET(UNARY_NOT) {
        PyObject* value = TOP();
        const int truth = PyObject_IsTrue(value);
        Py_DECREF(value);
        if (truth < 0) {
          --sp;
          goto error;
        }
        TOP() = new_bool(!truth);
        DISPATCH();
      }

      TARGET(BINARY_OP) {
        bool numpy_operand = false;
        if (TRACE_TOP_PAIR(numpy_shim::trace_binary_operator)) {
          // Not traced: lazy operands are computed, an in-place operator
          // must not write what a pending region reads, and what NumPy
          // warns of here must come after the pending region's warnings.
          if (numpy_shim::g_live_lazies) MATERIALIZE_FRAMES(k_operation, operator_detail(oparg, TOP()));
          numpy_operand = true;
        } else if (numpy_shim::g_live_lazies && numpy_shim::g_ndarray_type &&
                   (numpy_shim::is_numpy_scalar(SECOND()) || numpy_shim::is_numpy_scalar(TOP()) ||
                    is_array_subclass(SECOND()) || is_array_subclass(TOP()))) {
          // NumPy's scalar math warns here (overflow...): after the pending
          // region's warnings. An ndarray subclass's operator (np.ma's +=)
          // runs in CPython and may write memory a pending region reads.
          MATERIALIZE_FRAMES(k_operation, operator_detail(oparg, TOP()));
        }
        PyObject* rhs = POP();
        PyObject* lhs = TOP();
        // The tracer was asked when numpy_operand is set; a pair of small
        // arrays is left to NumPy without asking it.
        const bool eager = NPY_UNLIKELY(numpy_shim::g_diagnostics) && numpy_shim::g_ndarray_type &&
                           (numpy_operand || is_numpy_pair(lhs, rhs)) &&
                           numpy_shim::begin_eager_operator(numpy_shim::describe_binary_operator(oparg, rhs),
                                                            LOCATION(), numpy_operand);
        PyObject* res = numpy_operand ? binary_op(oparg, lhs, rhs) : plain_binary_op(oparg, lhs, rhs);
        if (NPY_UNLIKELY(eager)) numpy_shim::end_eager();
        Py_DECREF(lhs);
        Py_DECREF(rhs);
        TOP() = res;
        if (NPY_UNLIKELY(!res)) goto error;
        SKIP_CACHES();
        DISPATCH();
      }

      TARGET(COMPARE_OP) {
        const int compare = version::comparison_of(oparg);
        bool numpy_operand = false;
        if (TRACE_TOP_PAIR_ARG(numpy_shim::trace_compare, compare)) {
          numpy_operand = true;
          if (numpy_shim::is_lazy(TOP()) || numpy_shim::is_lazy(SECOND())) {
            MATERIALIZE_FRAMES(k_operation, compare_detail(compare));
          }
        }
        PyObject* right = POP();
        PyObject* left = TOP();
        const bool eager = NPY_UNLIKELY(numpy_shim::g_diagnostics) && numpy_shim::g_ndarray_type &&
                           (numpy_operand || is_numpy_pair(left, right)) &&
                           numpy_shim::begin_eager_operator(numpy_shim::describe_compare(compare), LOCATION(),
                                                            numpy_operand);
        const int next_opcode = base_opcode[NPY_OPCODE(next_instr[cache_units[opcode]])];
        PyObject* res = compared_as_specialized(left, right, compare, next_opcode)
                            ? Py_TYPE(left)->tp_richcompare(left, right, compare)
                            : PyObject_RichCompare(left, right, compare);
        if (NPY_UNLIKELY(eager)) numpy_shim::end_eager();
        Py_DECREF(left);
        Py_DECREF(right);
        if (version::compares_to_bool(oparg) && res) {
          // A branch takes the result (3.13 fuses TO_BOOL in); a lazy
          // result of the tracer's is made a bool by the branch.
          const int truth = PyObject_IsTrue(res);
          Py_DECREF(res);
          res = truth < 0 ? nullptr : new_bool(truth);
        }
        TOP() = res;
        if (NPY_UNLIKELY(!res)) goto error;
        SKIP_CACHES();
        DISPATCH();
      }

      TARGET(IS_OP) {
        PyObject* right = POP();
        PyObject* left = TOP();
        const bool result = (left == right) ^ (oparg != 0);
        Py_DECREF(left);
        Py_DECREF(right);
        TOP() = new_bool(result);
        DISPATCH();
      }

      TARGET(CONTAINS_OP) {
        PyObject* right = POP();
        PyObject* left = POP();
        const int found = PySequence_Contains(right, left);
        Py_DECREF(left);
        Py_DECREF(right);
        if (NPY_UNLIKELY(found < 0)) goto error;
        PUSH(new_bool(found ^ oparg));
        SKIP_CACHES();
        DISPATCH();
      }

      TARGET(BINARY_SUBSCR) {
        // x[mask] of arrays is traced too (a compress), and so once more
        // after lazy operands are materialized: the tracer may have cut
        // the region there to start the next at the subscript.
        bool lazy_operand =
            numpy_shim::g_live_lazies && (numpy_shim::is_lazy(SECOND()) || numpy_shim::is_lazy(TOP()));
        while (lazy_operand || (numpy_shim::g_ndarray_type && Py_TYPE(TOP()) == numpy_shim::g_ndarray_type &&
                                numpy_shim::may_trace_mask_subscript(SECOND(), TOP()))) {
          PyObject* view = numpy_shim::trace_subscript(SECOND(), TOP(), LOCATION());
          if (view) {
            Py_DECREF(POP());
            Py_DECREF(TOP());
            TOP() = view;
            SKIP_CACHES();
            DISPATCH();
          }
          if (NPY_UNLIKELY(PyErr_Occurred())) goto error;
          if (!lazy_operand) break;
          MATERIALIZE_FRAMES(k_operation, "subscript");
          lazy_operand = false;
        }
        PyObject* sub = POP();
        PyObject* container = TOP();
        PyObject* res = subscript(container, sub);
        Py_DECREF(container);
        Py_DECREF(sub);
        TOP() = res;
        if (NPY_UNLIKELY(!res)) goto error;
        SKIP_CACHES();
        DISPATCH();
      }

      TARGET(STORE_SUBSCR) {
        if (numpy_shim::g_live_lazies) {
          const int stored =
              numpy_shim::trace_store_subscript(SECOND(), TOP(), THIRD(), LOCATION(), only_local_naming(SECOND()));
          if (stored < 0) goto error;
          if (stored > 0) {
            Py_DECREF(POP());
            Py_DECREF(POP());
            Py_DECREF(POP());
            SKIP_CACHES();
            DISPATCH();
          }
          // Not traced: the assignment may write an array a pending region reads.
          MATERIALIZE_FRAMES(k_store, kOpcodeInfos[opcode].name);
        }
        PyObject* sub = TOP();
        PyObject* container = SECOND();
        PyObject* value = THIRD();
        sp -= 3;
        const int err = PyObject_SetItem(container, sub, value);
        Py_DECREF(value);
        Py_DECREF(container);
        Py_DECREF(sub);
        if (NPY_UNLIKELY(err)) goto error;
        SKIP_CACHES();
        DISPATCH();
      }

      TARGET(DELETE_SUBSCR) {
        PyObject* sub = TOP();
        PyObject* container = SECOND();
        sp -= 2;
        const int err = PyObject_DelItem(container, sub);
        Py_DECREF(container);
        Py_DECREF(sub);
        if (NPY_UNLIKELY(err)) goto error;
        DISPATCH();
      }

      TARGET(BUILD_SLICE) {
        PyObject* step = oparg == 3 ? POP() : nullptr;
        PyObject* stop = POP();
        PyObject* start = TOP();
        PyObject* slice = PySlice_New(start, stop, step);
        Py_DECREF(start);
        Py_DECREF(stop);
        Py_XDECREF(step);
        TOP() = slice;
        if (NPY_UNLIKELY(!slice)) goto error;
        DISPATCH();
      }

      TARGET(GET_LEN) {
        const Py_ssize_t n = PyObject_Length(TOP());
        if (NPY_UNLIKELY(n < 0)) goto error;
        PyObject* len = PyLong_FromSsize_t(n);
        if (NPY_UNLIKELY(!len)) goto error;
        PUSH(len);
        DISPATCH();
      }

      TARGET(GET_ITER) {
        PyObject* iterable = TOP();
        PyObject* it = PyObject_GetIter(iterable);
        Py_DECREF(iterable);
        TOP() = it;
        if (NPY_UNLIKELY(!it)) goto error;
        DISPATCH();
      }

      TARGET(JUMP_FORWARD)
        JUMPBY(oparg);
        DISPATCH();

      TARGET(JUMP_BACKWARD)
        SKIP_CACHES();
        JUMPBY(-oparg);
        CHECK_EVAL_BREAKER();
        DISPATCH();

      TARGET(LOAD_GLOBAL) {
        GlobalCacheEntry* cache = global_caches ? &global_caches[oparg >> 1] : nullptr;
        PyObject* value;
        if (NPY_LIKELY(cache && cache->globals_tag == dict_tag(f.globals) &&
                       cache->builtins_tag == dict_tag(f.builtins))) {
          value = Py_NewRef(cache->value);
        } else {
          value = load_global(f.globals, f.builtins, PyTuple_GET_ITEM(names_tuple, oparg >> 1), cache);
          if (NPY_UNLIKELY(!value)) goto error;
        }
        if (oparg & 1) {
          PUSH_CALLABLE(value);
        } else {
          PUSH(value);
        }
        SKIP_CACHES();
        DISPATCH();
      }

      TARGET(STORE_GLOBAL) {
        PyObject* value = POP();
        const int err = PyDict_SetItem(f.globals, PyTuple_GET_ITEM(names_tuple, oparg), value);
        Py_DECREF(value);
        if (NPY_UNLIKELY(err)) goto error;
        DISPATCH();
      }

      TARGET(DELETE_GLOBAL) {
        PyObject* name = PyTuple_GET_ITEM(names_tuple, oparg);
        if (PyDict_DelItem(f.globals, name) != 0) {
          if (PyErr_ExceptionMatches(PyExc_KeyError)) {
            PyErr_Clear();
            raise_name_error(PyExc_NameError, kNameErrorFormat, name);
          }
          goto error;
        }
        DISPATCH();
      }

      TARGET(LOAD_NAME) {
        PyObject* name = PyTuple_GET_ITEM(names_tuple, oparg);
        if (!f.locals) {
          PyErr_Format(PyExc_SystemError, "no locals when loading %R", name);
          goto error;
        }
        PyObject* value = mapping_lookup(f.locals, name);
        if (!value) {
          if (NPY_UNLIKELY(PyErr_Occurred())) goto error;
          value = load_global(f.globals, f.builtins, name, nullptr);
          if (NPY_UNLIKELY(!value)) goto error;
        }
        PUSH(value);
        DISPATCH();
      }

      TARGET(STORE_NAME) {
        PyObject* name = PyTuple_GET_ITEM(names_tuple, oparg);
        PyObject* value = POP();
        if (!f.locals) {
          PyErr_Format(PyExc_SystemError, "no locals found when storing %R", name);
          Py_DECREF(value);
          goto error;
        }
        const int err = mapping_store(f.locals, name, value);
        Py_DECREF(value);
        if (NPY_UNLIKELY(err)) goto error;
        DISPATCH();
      }

      TARGET(DELETE_NAME) {
        PyObject* name = PyTuple_GET_ITEM(names_tuple, oparg);
        if (!f.locals) {
          PyErr_Format(PyExc_SystemError, "no locals when deleting %R", name);
          goto error;
        }
        if (PyObject_DelItem(f.locals, name) != 0) {
          raise_name_error(PyExc_NameError, kNameErrorFormat, name);
          goto error;
        }
        DISPATCH();
      }

      TARGET(MAKE_CELL) {
        // A cell is read by code npython may not run (a generator
        // expression or coroutine of the function): no lazy value in it.
        if (NPY_UNLIKELY(numpy_shim::g_live_lazies) && GETLOCAL(oparg) && numpy_shim::is_lazy(GETLOCAL(oparg))) {
          MATERIALIZE_FRAMES(k_store, "MAKE_CELL");
        }
        PyObject* cell = PyCell_New(GETLOCAL(oparg));
        if (NPY_UNLIKELY(!cell)) goto error;
        SETLOCAL(oparg, cell);
        DISPATCH();
      }

      TARGET(COPY_FREE_VARS) {
        PyObject* closure = f.func->func_closure;
        const int offset = code->co_nlocalsplus - oparg;  // free variables come last
        for (int i = 0; i < oparg; ++i) {
          PyObject* cell = PyTuple_GET_ITEM(closure, i);
          Py_INCREF(cell);
          localsplus[offset + i] = cell;
        }
        DISPATCH();
      }

      TARGET(LOAD_DEREF) {
        PyObject* value = PyCell_GET(GETLOCAL(oparg));
        if (!value) {
          raise_unbound_cell(code, oparg);
          goto error;
        }
        Py_INCREF(value);
        PUSH(value);
        DISPATCH();
      }

      TARGET(STORE_DEREF) {
        PyObject* value = POP();
        PyObject* cell = GETLOCAL(oparg);
        PyObject* old = PyCell_GET(cell);
        PyCell_SET(cell, value);
        Py_XDECREF(old);
        DISPATCH();
      }

      TARGET(DELETE_DEREF) {
        PyObject* cell = GETLOCAL(oparg);
        PyObject* old = PyCell_GET(cell);
        if (!old) {
          raise_unbound_cell(code, oparg);
          goto error;
        }
        PyCell_SET(cell, nullptr);
        Py_DECREF(old);
        DISPATCH();
      }

    load_attribute: {
        if (numpy_shim::is_lazy(TOP())) {
          PyObject* known = numpy_shim::lazy_attribute(TOP(), attr_name, LOCATION());
          if (known) {
            Py_DECREF(TOP());
            TOP() = known;
            SKIP_CACHES();
            DISPATCH();
          }
          if (NPY_UNLIKELY(PyErr_Occurred())) goto error;
          MATERIALIZE_FRAMES(k_attribute, PyUnicode_AsUTF8(attr_name));
        } else if (NPY_UNLIKELY(numpy_shim::g_live_lazies) && PyFrame_Check(TOP())) {
          // A frame's f_locals copies its locals: their values, not lazy ones.
          MATERIALIZE_FRAMES(k_attribute, PyUnicode_AsUTF8(attr_name));
        }
        PyObject* owner = TOP();
        AttrCacheEntry* cache = attr_caches ? &attr_caches[INSTR_INDEX()] : nullptr;
        PyObject* res;
        if (NPY_LIKELY(cache && Py_TYPE(owner) == &PyModule_Type && module_cache_holds(cache, owner))) {
          res = Py_NewRef(cache->value);
        } else {
          res = load_attr(owner, attr_name, cache);
          if (NPY_UNLIKELY(!res)) goto error;
        }
        Py_DECREF(owner);
        TOP() = res;
        SKIP_CACHES();
        DISPATCH();
      }

    load_method: {
        if (numpy_shim::is_lazy(TOP())) {
          PyObject* traced = numpy_shim::lazy_method(TOP(), attr_name);
          if (traced) {  // [method, self], as for an array
            PyObject* self = TOP();
            TOP() = Py_NewRef(traced);
            PUSH(self);
            SKIP_CACHES();
            DISPATCH();
          }
          MATERIALIZE_FRAMES(k_attribute, PyUnicode_AsUTF8(attr_name));
        }
        PyObject* owner = TOP();
        AttrCacheEntry* cache = attr_caches ? &attr_caches[INSTR_INDEX()] : nullptr;
        // load_method's cache hit for a type whose instances have no dict.
        if (NPY_LIKELY(cache && cache->method && cache->shared_keys_entries < 0 &&
                       cache_holds_for(cache, Py_TYPE(owner)))) {
          TOP() = Py_NewRef(cache->method);
          PUSH(owner);
          SKIP_CACHES();
          DISPATCH();
        }
        PyObject* meth = nullptr;
        const int is_method = load_method(owner, attr_name, &meth, cache);
        if (NPY_UNLIKELY(!meth)) goto error;
        if (is_method) {  // [meth, self]: the call passes self first
          TOP() = meth;
          PUSH(owner);
        } else {  // the attribute and a NULL, in the version's order
          --sp;
          Py_DECREF(owner);
          PUSH_CALLABLE(meth);
        }
        SKIP_CACHES();
        DISPATCH();
      }

      TARGET(STORE_ATTR) {
        PyObject* owner = TOP();
        PyObject* value = SECOND();
        sp -= 2;
        const int err = PyObject_SetAttr(owner, PyTuple_GET_ITEM(names_tuple, oparg), value);
        Py_DECREF(value);
        Py_DECREF(owner);
        if (NPY_UNLIKELY(err)) goto error;
        SKIP_CACHES();
        DISPATCH();
      }

      TARGET(DELETE_ATTR) {
        PyObject* owner = POP();
        const int err = PyObject_SetAttr(owner, PyTuple_GET_ITEM(names_tuple, oparg), nullptr);
        Py_DECREF(owner);
        if (NPY_UNLIKELY(err)) goto error;
        DISPATCH();
      }

      TARGET(KW_NAMES)  // 3.11, 3.12: a borrowed tuple for the next CALL
        kwnames = PyTuple_GET_ITEM(consts, oparg);
        DISPATCH();

      TARGET(CALL) {
        // Stack: the callable, or a method and its self, then the arguments
        // (version::call_passes_self says where the NULL lies).
        const bool is_method = version::call_passes_self(sp, oparg);
        const int total_args = oparg + is_method;
        PyObject* callable = version::call_callable(sp, oparg, is_method);
        const Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
        PyObject** args = sp - total_args;
        PyObject* res = nullptr;
        bool traced = false;  // whether the tracer was asked
        // active.callee_takes_lazy is false here: set only for the call below.
        if (numpy_shim::g_ndarray_type) {
          if (!PyFunction_Check(callable) || numpy_shim::creates_without_arrays(callable)) {
            traced = true;
            res = numpy_shim::trace_call(callable, args, total_args - nkw, kwnames, LOCATION());
            if (NPY_UNLIKELY(!res && ERROR_SET())) goto error;
          } else {
            // A function npython runs may take lazy arguments and return a
            // lazy value: fusion goes on across the call. Not into *args or
            // **kwargs: the tuple and dict the call packs them into reach
            // code npython does not run (np.array(args), str(kwargs)).
            auto* callee = reinterpret_cast<PyCodeObject*>(PyFunction_GET_CODE(callable));
            active.callee_takes_lazy =
                !numpy_shim::g_regions_end_at_lines && evaluates_calls_to(tstate, callee) &&
                (!(callee->co_flags & (CO_VARARGS | CO_VARKEYWORDS)) || !any_lazy(args, total_args));
          }
          if (NPY_UNLIKELY(numpy_shim::g_live_lazies) && !res && !active.callee_takes_lazy) {
            if (materialize_for_call(callable, args, total_args, kwnames, LOCATION(), sp) < 0) goto error;
            callable = version::call_callable(sp, oparg, is_method);
          }
        }
        // A NumPy call npython runs eagerly, not one into a NumPy function
        // npython evaluates (NPY_INTERP=all), whose own calls are recorded.
        const bool eager = NPY_UNLIKELY(numpy_shim::g_diagnostics) && !res && numpy_shim::g_ndarray_type &&
                           !active.callee_takes_lazy &&
                           (!PyFunction_Check(callable) ||
                            !evaluates_calls_to(tstate, reinterpret_cast<PyCodeObject*>(PyFunction_GET_CODE(callable)))) &&
                           numpy_shim::begin_eager_call(callable, LOCATION(), traced);
        if (NPY_UNLIKELY(numpy_shim::default_float32()) && !res) {
          res = numpy_shim::call_with_default_float(callable, args, total_args - nkw, kwnames);
          if (!res && PyErr_Occurred()) goto call_done;
        }
        if (!res && numpy_shim::g_ndarray_type) {
          res = numpy_shim::small_call(callable, args, total_args - nkw, kwnames);
          if (res) active.callee_takes_lazy = false;
        }
        if (!res) {
          res = vectorcall(tstate, callable, args,
                           static_cast<size_t>(total_args - nkw) | PY_VECTORCALL_ARGUMENTS_OFFSET, kwnames);
          active.callee_takes_lazy = false;
        }
      call_done:
        if (NPY_UNLIKELY(eager)) numpy_shim::end_eager();
        version::drop_kwnames(kwnames);
        Py_DECREF(callable);
        for (int i = 0; i < total_args; ++i) Py_DECREF(args[i]);
        sp -= oparg + 2;
        PUSH(res);
        if (NPY_UNLIKELY(!res)) goto error;
        SKIP_CACHES();
        CHECK_EVAL_BREAKER();
        DISPATCH();
      }

      TARGET(CALL_FUNCTION_EX) {
        // Stack: the callable and a NULL (version::kNullBelowCallable says
        // in which order), the positional arguments, maybe the keywords.
        PyObject* kwargs = nullptr;
        if (oparg & 1) {
          kwargs = POP();
          if (!PyDict_CheckExact(kwargs)) {
            PyObject* d = PyDict_New();
            if (!d) {
              Py_DECREF(kwargs);
              goto error;
            }
            if (_PyDict_MergeEx(d, kwargs, 2) < 0) {
              Py_DECREF(d);
              format_kwargs_error(PEEK(version::kNullBelowCallable ? 2 : 3), kwargs);
              Py_DECREF(kwargs);
              goto error;
            }
            Py_DECREF(kwargs);
            kwargs = d;
          }
        }
        PyObject* callargs = POP();
        PyObject* func = version::kNullBelowCallable ? TOP() : SECOND();
        if (!PyTuple_CheckExact(callargs)) {
          if (check_args_iterable(func, callargs) < 0) {
            Py_DECREF(callargs);
            Py_XDECREF(kwargs);
            goto error;
          }
          PyObject* tuple = PySequence_Tuple(callargs);
          Py_DECREF(callargs);
          if (!tuple) {
            Py_XDECREF(kwargs);
            goto error;
          }
          callargs = tuple;
        }
        PyObject* result = PyObject_Call(func, callargs, kwargs);
        Py_DECREF(func);
        Py_DECREF(callargs);
        Py_XDECREF(kwargs);
        --sp;  // the NULL beside the callable
        TOP() = result;
        if (NPY_UNLIKELY(!result)) goto error;
        CHECK_EVAL_BREAKER();
        DISPATCH();
      }

      TARGET(MAKE_FUNCTION) {
        PyObject* code_obj = POP();
        auto* func = reinterpret_cast<PyFunctionObject*>(PyFunction_New(code_obj, f.globals));
        Py_DECREF(code_obj);
        if (NPY_UNLIKELY(!func)) goto error;
        if (oparg & 0x08) func->func_closure = POP();
        if (oparg & 0x04) func->func_annotations = POP();
        if (oparg & 0x02) func->func_kwdefaults = POP();
        if (oparg & 0x01) func->func_defaults = POP();
        PUSH(reinterpret_cast<PyObject*>(func));
        DISPATCH();
      }

    return_top: {
        // A frame object keeps the locals once the frame returns: none of
        // them may be lazy then.
        if (numpy_shim::g_live_lazies && npy_frame_has_frame_object(frame)) {
          MATERIALIZE_FRAMES(k_returned, nullptr);
        }
        if (numpy_shim::is_lazy(TOP()) && !active.returns_to_evaluator()) {
          // The locals die with the frame (it has no frame object, and no
          // tracer will look at them): the region need not write them out.
          if (!NPY_VERSION_TRACING()) release_lazy_locals(localsplus, code->co_nlocalsplus);
          PyObject* value = numpy_shim::materialize(TOP(), numpy_shim::Reason::k_returned, LOCATION(), nullptr);
          if (NPY_UNLIKELY(!value)) goto error;
          Py_SETREF(TOP(), value);
        }
        goto return_to_caller;
      }

      TARGET(BUILD_TUPLE) {
        PyObject* tuple = PyTuple_New(oparg);
        if (NPY_UNLIKELY(!tuple)) goto error;
        while (--oparg >= 0) PyTuple_SET_ITEM(tuple, oparg, POP());
        PUSH(tuple);
        DISPATCH();
      }

      TARGET(BUILD_LIST) {
        PyObject* list = PyList_New(oparg);
        if (NPY_UNLIKELY(!list)) goto error;
        while (--oparg >= 0) PyList_SET_ITEM(list, oparg, POP());
        PUSH(list);
        DISPATCH();
      }

      TARGET(LIST_APPEND) {
        PyObject* value = POP();
        const int err = PyList_Append(PEEK(oparg), value);
        Py_DECREF(value);
        if (NPY_UNLIKELY(err)) goto error;
        DISPATCH();
      }

      TARGET(LIST_EXTEND) {
        PyObject* iterable = POP();
        PyObject* none = _PyList_Extend(reinterpret_cast<PyListObject*>(PEEK(oparg)), iterable);
        if (!none) {
          if (PyErr_ExceptionMatches(PyExc_TypeError) && !Py_TYPE(iterable)->tp_iter &&
              !PySequence_Check(iterable)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "Value after * must be an iterable, not %.200s",
                         Py_TYPE(iterable)->tp_name);
          }
          Py_DECREF(iterable);
          goto error;
        }
        Py_DECREF(none);
        Py_DECREF(iterable);
        DISPATCH();
      }

      TARGET(BUILD_SET) {
        PyObject* set = PySet_New(nullptr);
        if (NPY_UNLIKELY(!set)) goto error;
        int err = 0;
        for (int i = oparg; i > 0; --i) {
          PyObject* item = PEEK(i);
          if (!err) err = PySet_Add(set, item);
          Py_DECREF(item);
        }
        sp -= oparg;
        if (err) {
          Py_DECREF(set);
          goto error;
        }
        PUSH(set);
        DISPATCH();
      }

      TARGET(SET_ADD) {
        PyObject* value = POP();
        const int err = PySet_Add(PEEK(oparg), value);
        Py_DECREF(value);
        if (NPY_UNLIKELY(err)) goto error;
        DISPATCH();
      }

      TARGET(SET_UPDATE) {
        PyObject* iterable = POP();
        const int err = _PySet_Update(PEEK(oparg), iterable);
        Py_DECREF(iterable);
        if (NPY_UNLIKELY(err < 0)) goto error;
        DISPATCH();
      }

      TARGET(BUILD_MAP) {
        PyObject* map = _PyDict_NewPresized(oparg);
        if (NPY_UNLIKELY(!map)) goto error;
        for (int i = 0; i < oparg; ++i) {
          if (PyDict_SetItem(map, PEEK(2 * (oparg - i)), PEEK(2 * (oparg - i) - 1)) < 0) {
            Py_DECREF(map);
            goto error;
          }
        }
        for (int i = 0; i < 2 * oparg; ++i) Py_DECREF(POP());
        PUSH(map);
        DISPATCH();
      }

      TARGET(BUILD_CONST_KEY_MAP) {
        PyObject* keys = TOP();
        if (!PyTuple_CheckExact(keys) || PyTuple_GET_SIZE(keys) != oparg) {
          PyErr_SetString(PyExc_SystemError, "bad BUILD_CONST_KEY_MAP keys argument");
          goto error;
        }
        PyObject* map = _PyDict_NewPresized(oparg);
        if (NPY_UNLIKELY(!map)) goto error;
        for (int i = 0; i < oparg; ++i) {
          if (PyDict_SetItem(map, PyTuple_GET_ITEM(keys, i), PEEK(oparg + 1 - i)) < 0) {
            Py_DECREF(map);
            goto error;
          }
        }
        for (int i = 0; i <= oparg; ++i) Py_DECREF(POP());
        PUSH(map);
        DISPATCH();
      }

      TARGET(MAP_ADD) {
        PyObject* value = POP();
        PyObject* key = POP();
        const int err = PyDict_SetItem(PEEK(oparg), key, value);
        Py_DECREF(key);
        Py_DECREF(value);
        if (NPY_UNLIKELY(err)) goto error;
        DISPATCH();
      }

      TARGET(DICT_UPDATE) {
        PyObject* update = POP();
        if (PyDict_Update(PEEK(oparg), update) < 0) {
          if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
            PyErr_Format(PyExc_TypeError, "'%.200s' object is not a mapping",
                         Py_TYPE(update)->tp_name);
          }
          Py_DECREF(update);
          goto error;
        }
        Py_DECREF(update);
        DISPATCH();
      }

      TARGET(DICT_MERGE) {
        PyObject* update = POP();
        if (_PyDict_MergeEx(PEEK(oparg), update, 2) < 0) {
          format_kwargs_error(PEEK(2 + oparg), update);
          Py_DECREF(update);
          goto error;
        }
        Py_DECREF(update);
        DISPATCH();
      }

      TARGET(BUILD_STRING) {
        PyObject* str = _PyUnicode_JoinArray(names().empty, sp - oparg, oparg);
        if (NPY_UNLIKELY(!str)) goto error;
        while (--oparg >= 0) Py_DECREF(POP());
        PUSH(str);
        DISPATCH();
      }

      TARGET(FORMAT_VALUE) {  // 3.11, 3.12: f-string's {value!conversion:spec}
        PyObject* spec = (oparg & FVS_MASK) == FVS_HAVE_SPEC ? POP() : nullptr;
        PyObject* value = convert_value(POP(), oparg & FVC_MASK);
        if (NPY_UNLIKELY(!value)) {
          Py_XDECREF(spec);
          goto error;
        }
        PyObject* result = format_value(value, spec);
        if (NPY_UNLIKELY(!result)) goto error;
        PUSH(result);
        DISPATCH();
      }

      TARGET(UNPACK_SEQUENCE) {
        PyObject* seq = POP();
        if (PyTuple_CheckExact(seq) && PyTuple_GET_SIZE(seq) == oparg) {
          for (int i = oparg; i-- > 0;) PUSH(Py_NewRef(PyTuple_GET_ITEM(seq, i)));
        } else if (PyList_CheckExact(seq) && PyList_GET_SIZE(seq) == oparg) {
          for (int i = oparg; i-- > 0;) PUSH(Py_NewRef(PyList_GET_ITEM(seq, i)));
        } else if (unpack_iterable(seq, oparg, -1, sp + oparg)) {
          sp += oparg;
        } else {
          Py_DECREF(seq);
          goto error;
        }
        Py_DECREF(seq);
        SKIP_CACHES();
        DISPATCH();
      }

      TARGET(UNPACK_EX) {
        const int total = 1 + (oparg & 0xFF) + (oparg >> 8);
        PyObject* seq = POP();
        if (!unpack_iterable(seq, oparg & 0xFF, oparg >> 8, sp + total)) {
          Py_DECREF(seq);
          goto error;
        }
        sp += total;
        Py_DECREF(seq);
        DISPATCH();
      }

      TARGET(IMPORT_NAME) {
        PyObject* fromlist = POP();
        PyObject* level = TOP();
        PyObject* res = import_name(tstate, f.builtins, f.globals, f.locals,
                                    PyTuple_GET_ITEM(names_tuple, oparg), fromlist, level);
        Py_DECREF(level);
        Py_DECREF(fromlist);
        TOP() = res;
        if (NPY_UNLIKELY(!res)) goto error;
        if (NPY_UNLIKELY(!numpy_shim::g_ndarray_type)) {
          // A frame that imports NumPy (a script's top level) records what
          // comes after, as frames started later do.
          numpy_shim::notice_numpy();
          if (numpy_shim::g_ndarray_type) numpy_shim::prepare_tracing();
        }
        DISPATCH();
      }

      TARGET(IMPORT_FROM) {
        PyObject* res = import_from(TOP(), PyTuple_GET_ITEM(names_tuple, oparg));
        PUSH(res);
        if (NPY_UNLIKELY(!res)) goto error;
        DISPATCH();
      }

      TARGET(LOAD_BUILD_CLASS) {
        PyObject* build_class = mapping_lookup(f.builtins, names().build_class);
        if (!build_class) {
          if (!PyErr_Occurred()) PyErr_SetString(PyExc_NameError, "__build_class__ not found");
          goto error;
        }
        PUSH(build_class);
        DISPATCH();
      }

      TARGET(LOAD_ASSERTION_ERROR)
        PUSH(Py_NewRef(PyExc_AssertionError));
        DISPATCH();

      TARGET(SETUP_ANNOTATIONS) {
        if (!f.locals) {
          PyErr_SetString(PyExc_SystemError, "no locals found when setting up annotations");
          goto error;
        }
        PyObject* existing = mapping_lookup(f.locals, names().annotations);
        if (existing) {
          Py_DECREF(existing);
          DISPATCH();
        }
        if (NPY_UNLIKELY(PyErr_Occurred())) goto error;
        PyObject* annotations = PyDict_New();
        if (NPY_UNLIKELY(!annotations)) goto error;
        const int err = mapping_store(f.locals, names().annotations, annotations);
        Py_DECREF(annotations);
        if (NPY_UNLIKELY(err)) goto error;
        DISPATCH();
      }

      TARGET(BEFORE_WITH) {
        PyObject* mgr = TOP();
        PyObject* enter = lookup_special(mgr, names().enter);
        if (!enter) {
          if (!PyErr_Occurred()) {
            PyErr_Format(PyExc_TypeError,
                         "'%.200s' object does not support the context manager protocol",
                         Py_TYPE(mgr)->tp_name);
          }
          goto error;
        }
        PyObject* exit = lookup_special(mgr, names().exit);
        if (!exit) {
          if (!PyErr_Occurred()) {
            PyErr_Format(PyExc_TypeError,
                         "'%.200s' object does not support the context manager protocol "
                         "(missed __exit__ method)",
                         Py_TYPE(mgr)->tp_name);
          }
          Py_DECREF(enter);
          goto error;
        }
        TOP() = exit;
        Py_DECREF(mgr);
        PyObject* res = PyObject_CallNoArgs(enter);
        Py_DECREF(enter);
        if (NPY_UNLIKELY(!res)) goto error;
        PUSH(res);
        DISPATCH();
      }

      TARGET(WITH_EXCEPT_START) {
        // Stack: exit, lasti, previous exception, exception.
        PyObject* val = TOP();
        PyObject* exc = PyExceptionInstance_Class(val);
        PyObject* tb = PyException_GetTraceback(val);
        Py_XDECREF(tb);  // borrowed for the call; the exception keeps it
        PyObject* exit_func = PEEK(4);
        PyObject* stack[4] = {nullptr, exc, val, tb};
        PyObject* res = PyObject_Vectorcall(exit_func, stack + 1, 3 | PY_VECTORCALL_ARGUMENTS_OFFSET, nullptr);
        if (NPY_UNLIKELY(!res)) goto error;
        PUSH(res);
        DISPATCH();
      }

      TARGET(PUSH_EXC_INFO) {
        PyObject* value = TOP();
        _PyErr_StackItem* exc_info = tstate->exc_info;
        TOP() = exc_info->exc_value ? exc_info->exc_value : Py_NewRef(Py_None);
        Py_INCREF(value);
        PUSH(value);
        exc_info->exc_value = value;
        DISPATCH();
      }

      TARGET(POP_EXCEPT) {
        _PyErr_StackItem* exc_info = tstate->exc_info;
        PyObject* old = exc_info->exc_value;
        exc_info->exc_value = POP();
        Py_XDECREF(old);
        DISPATCH();
      }

      TARGET(CHECK_EXC_MATCH) {
        PyObject* right = POP();
        PyObject* left = TOP();
        if (check_except_type_valid(right) < 0) {
          Py_DECREF(right);
          goto error;
        }
        const int matches = PyErr_GivenExceptionMatches(left, right);
        Py_DECREF(right);
        PUSH(new_bool(matches));
        DISPATCH();
      }

      TARGET(CHECK_EG_MATCH) {
        PyObject* match_type = POP();
        PyObject* exc_value = TOP();
        PyObject* match = nullptr;
        PyObject* rest = nullptr;
        const int err = exception_group_match(exc_value, match_type, &match, &rest);
        Py_DECREF(match_type);
        if (NPY_UNLIKELY(err < 0)) goto error;
        if (match == Py_None) {
          Py_DECREF(rest);
          PUSH(match);
        } else {
          // [exception] becomes [rest, match]; the match is now being handled.
          TOP() = rest;
          PUSH(match);
          PyErr_SetExcInfo(nullptr, Py_NewRef(match), nullptr);
          Py_DECREF(exc_value);
        }
        DISPATCH();
      }

      TARGET(RAISE_VARARGS) {
        PyObject* cause = nullptr;
        PyObject* exc = nullptr;
        if (oparg == 2) cause = POP();
        if (oparg >= 1) exc = POP();
        if (do_raise(exc, cause)) {
          unwind_from = *f.current_instr;
          goto exception_unwind;
        }
        goto error;
      }

      TARGET(RERAISE) {
        unwind_from = *f.current_instr;
        if (oparg) {
          PyObject* lasti = PEEK(oparg + 1);
          if (!PyLong_Check(lasti)) {
            PyErr_SetString(PyExc_SystemError, "lasti is not an int");
            goto error;
          }
          *f.current_instr = first_instr + PyLong_AsLong(lasti);
        }
        PyObject* val = POP();
        PyObject* type = Py_NewRef(PyExceptionInstance_Class(val));
        PyErr_Restore(type, val, PyException_GetTraceback(val));
        goto exception_unwind;
      }

      TARGET(MATCH_MAPPING)
      TARGET(MATCH_SEQUENCE) {
        const unsigned long flag = opcode == MATCH_MAPPING ? Py_TPFLAGS_MAPPING : Py_TPFLAGS_SEQUENCE;
        PyObject* matched = new_bool(Py_TYPE(TOP())->tp_flags & flag);
        PUSH(matched);
        DISPATCH();
      }

      TARGET(MATCH_KEYS) {
        PyObject* values = match_keys(SECOND(), TOP());
        if (NPY_UNLIKELY(!values)) goto error;
        PUSH(values);
        DISPATCH();
      }

      TARGET(MATCH_CLASS) {
        PyObject* kw = POP();
        PyObject* type = POP();
        PyObject* subject = TOP();
        PyObject* attrs = match_class(subject, type, oparg, kw);
        Py_DECREF(kw);
        Py_DECREF(type);
        if (!attrs) {
          if (NPY_UNLIKELY(PyErr_Occurred())) goto error;
          attrs = Py_NewRef(Py_None);
        }
        TOP() = attrs;
        Py_DECREF(subject);
        DISPATCH();
      }

    specialized:
      opcode = base_opcode[opcode];
      goto* (numpy_shim::g_live_lazies ? lazy_targets : targets)[opcode];

    materialize_lazies: {
      // Lazy values exist and this instruction may be where they must be
      // computed (opcode_table.h says which values it looks at).
      const LazyUse use = kOpcodeInfos[opcode].lazy;
      int looks_at = 0;
      switch (use) {
        case LazyUse::kBranchOnTop:
        case LazyUse::kUsesTop:
        case LazyUse::kStoresTop: looks_at = 1; break;
        case LazyUse::kUsesTop2: looks_at = 2; break;
        case LazyUse::kStoresOparg: looks_at = oparg; break;
        default: break;
      }
      bool found = use == LazyUse::kStores || use == LazyUse::kUses;
      for (int i = 1; i <= looks_at && !found; ++i) found = PEEK(i) && numpy_shim::is_lazy(PEEK(i));
      if (found) {
        switch (use) {
          case LazyUse::kBranchOnTop: MATERIALIZE_FRAMES(k_branch, nullptr); break;
          case LazyUse::kStoresTop:
          case LazyUse::kStoresOparg:
          case LazyUse::kStores: MATERIALIZE_FRAMES(k_store, kOpcodeInfos[opcode].name); break;
          default: MATERIALIZE_FRAMES(k_operation, kOpcodeInfos[opcode].name); break;
        }
        // The NumPy work python3 runs in calls, whose end it checks for
        // signals (Ctrl-C), ran here: a signal that came meanwhile is
        // handled at this instruction, not at the loop's next jump.
        CHECK_EVAL_BREAKER();
      }
      goto* targets[opcode];
    }

    line_end_check: {
      // Regions end with the line that recorded their ops, where NumPy's
      // error state or the warnings make errors visible at once (eager
      // NumPy raises or shows them before the next statement runs). In the
      // frame that recorded the region's last op: before an instruction of
      // another line, a store of a lazy value into a variable (eager NumPy
      // raises before the store), a lazy value dropped (an expression
      // statement, `del`) and a return. (Calls of the program's functions
      // compute pending regions first; other frames, such as NumPy's own
      // Python code the tracer calls while it records, leave them alone.)
      // An error is raised from the instruction of the op that raised it (or
      // else of the region's last op): its line, and the handler of a `try`
      // around it.
      numpy_shim::Trace* pending = numpy_shim::pending_trace();
      const int base = base_opcode[opcode];
      if (pending && pending->last_op().code == code &&
          (version::returns(base) ||
           stores_lazy(version::values_stored(base), sp) ||
           (base == DELETE_FAST && GETLOCAL(oparg) && numpy_shim::is_lazy(GETLOCAL(oparg))) ||
           [&] {
             const int line = line_of(code_info, code, INSTR_INDEX());  // -1: none, as for some jumps
             return line >= 0 && line != pending->last_op_line;
           }())) {
        const int last_op = pending->last_op().offset;
        numpy_shim::g_failed_op = {};
        if (materialize_frames(numpy_shim::Reason::k_line_end, LOCATION(), nullptr, sp) < 0) {
          const numpy_shim::RecordedAt failed = numpy_shim::g_failed_op;
          *f.current_instr = first_instr + (failed.code == code ? failed.offset : last_op);
          goto error;
        }
        CHECK_EVAL_BREAKER();
      }
      goto* lazy_targets[opcode];
    }

      // The instructions of this CPython version alone.
#include "version_handlers.inc"

      op_unknown:
        // The policy hands frames with any other instruction to CPython.
        PyErr_Format(PyExc_SystemError, "npython: unexpected opcode %d", opcode);
        goto error;

  error:
    unwind_from = *f.current_instr;
  // (jumped to by 3.11's tracing only)
  error_unwind_from: __attribute__((unused));
    version::drop_kwnames(kwnames);
    if (!PyErr_Occurred()) {
      PyErr_SetString(PyExc_SystemError, "error return without exception set");
    }
    if (!npy_frame_is_incomplete(frame)) npy_traceback_here();
    if (numpy_shim::g_live_lazies) {
      // The traceback shows this frame's locals: no lazy value among them.
      PyObject *type, *value, *tb;
      PyErr_Fetch(&type, &value, &tb);
      if (materialize_frames(numpy_shim::Reason::k_exception, LOCATION(), nullptr, sp) < 0) {
        PyErr_WriteUnraisable(nullptr);
      }
      PyErr_Restore(type, value, tb);
    }
    NPY_VERSION_TRACE_EXCEPTION();

  exception_unwind: {
    Handler handler;
    if (!find_handler(code, static_cast<int>(unwind_from - first_instr), &handler)) {
      while (sp > stack_base) Py_XDECREF(POP());
      *f.stacktop = static_cast<int>(sp - localsplus);
      goto exit_with_exception;
    }
    PyObject** new_top = stack_base + handler.depth;
    while (sp > new_top) Py_XDECREF(POP());
    if (handler.push_lasti) {
      PyObject* lasti = PyLong_FromLong(static_cast<long>(*f.current_instr - first_instr));
      if (!lasti) goto exception_unwind;
      PUSH(lasti);
    }
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    if (!type) {
      PyErr_SetString(PyExc_SystemError, "error return without exception set");
      PyErr_Fetch(&type, &value, &tb);
    }
    PyErr_NormalizeException(&type, &value, &tb);
    PyException_SetTraceback(value, tb ? tb : Py_None);
    Py_XDECREF(tb);
    Py_XDECREF(type);
    PUSH(value);
    next_instr = first_instr + handler.target;
    DISPATCH();
  }
  }

exit_unwind:
  npy_leave_recursive_call(tstate);
  npy_frame_leave(tstate, &link);
  NPY_VERSION_RETURN_EXCEPTION();

#undef TOP
#undef SECOND
#undef THIRD
#undef PEEK
#undef PUSH
#undef POP
#undef GETLOCAL
#undef SETLOCAL
#undef SKIP_CACHES
#undef PUSH_CALLABLE
#undef JUMPBY
#undef CHECK_EVAL_BREAKER
#undef ERROR_SET
#undef INSTR_INDEX
#undef LOCATION
#undef TRACE_TOP_PAIR
#undef TRACE_TOP_PAIR_ARG
#undef MATERIALIZE_FRAMES
#undef TARGET
#undef FETCH_AND_JUMP
#undef DISPATCH
}

}  // namespace npy::interp
