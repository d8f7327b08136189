#include "numpy_shim/errstate.h"

#include <algorithm>
#include <cstring>

#include "jit/step_run.h"
#include "numpy_shim/py_ref.h"
#include "numpy_shim/trace.h"
#include "numpy_shim/tracer.h"

namespace npy::numpy_shim {
namespace {

struct ErrstateApi {
  PyObject* contextvar = nullptr;   // numpy._core._ufunc_config._extobj_contextvar
  PyObject* get_dict = nullptr;     // _get_extobj_dict
  PyObject* ignore_all = nullptr;   // an extobj with every category 'ignore'
};

ErrstateApi load_api() {
  ErrstateApi api;
  PyObject* module = PyImport_ImportModule("numpy._core._ufunc_config");
  if (!module) {
    PyErr_Clear();
    return api;
  }
  api.contextvar = PyObject_GetAttrString(module, "_extobj_contextvar");
  api.get_dict = PyObject_GetAttrString(module, "_get_extobj_dict");
  PyObject* make = PyObject_GetAttrString(module, "_make_extobj");
  if (make) {
    PyObject* kwargs = Py_BuildValue("{s:s}", "all", "ignore");
    PyObject* empty = PyTuple_New(0);
    if (kwargs && empty) api.ignore_all = PyObject_Call(make, empty, kwargs);
    Py_XDECREF(kwargs);
    Py_XDECREF(empty);
    Py_DECREF(make);
  }
  Py_DECREF(module);
  PyErr_Clear();
  if (!api.contextvar || !api.get_dict || !api.ignore_all) api = ErrstateApi{};
  return api;
}

const ErrstateApi& api() {
  static const ErrstateApi loaded = load_api();
  return loaded;
}

// The state last examined, by identity of NumPy's extobj.
struct Seen {
  PyObject* extobj = nullptr;  // owned
  bool traceable = false;   // every category ignore, warn or raise; NumPy's buffer size
  bool raises = false;      // some category raises
  FpMode modes[4] = {};
};
Seen g_seen;

const Seen* current() {
  if (!api().contextvar) return nullptr;
  PyObject* extobj = nullptr;
  if (PyContextVar_Get(api().contextvar, nullptr, &extobj) < 0 || !extobj) {
    PyErr_Clear();
    return nullptr;
  }
  if (extobj == g_seen.extobj) {
    Py_DECREF(extobj);
    return &g_seen;
  }
  PyObject* modes = PyObject_CallNoArgs(api().get_dict);
  if (!modes) {
    PyErr_Clear();
    Py_DECREF(extobj);
    return nullptr;
  }
  Seen seen;
  seen.extobj = extobj;
  seen.traceable = true;
  const char* names[] = {"divide", "over", "under", "invalid"};
  for (int i = 0; i < 4; ++i) {
    PyObject* mode = PyDict_GetItemString(modes, names[i]);  // borrowed
    const char* text = mode && PyUnicode_Check(mode) ? PyUnicode_AsUTF8(mode) : nullptr;
    if (!text) {
      PyErr_Clear();
      seen.traceable = false;
      continue;
    }
    seen.modes[i] = std::strcmp(text, "ignore") == 0 ? FpMode::kIgnore
                    : std::strcmp(text, "warn") == 0 ? FpMode::kWarn
                    : std::strcmp(text, "raise") == 0 ? FpMode::kRaise
                                                        : FpMode::kOther;
    seen.traceable = seen.traceable && seen.modes[i] != FpMode::kOther;
    seen.raises = seen.raises || seen.modes[i] == FpMode::kRaise;
  }
  // The driver adds some float sums in the order of NumPy's default buffer
  // (8,192 elements): with another size (np.setbufsize) NumPy runs alone.
  PyObject* bufsize = PyDict_GetItemString(modes, "bufsize");  // borrowed
  seen.traceable = seen.traceable && bufsize && PyLong_Check(bufsize) && PyLong_AsLong(bufsize) == jit::kNumpyBufferSize;
  PyErr_Clear();
  Py_DECREF(modes);
  Py_XDECREF(g_seen.extobj);
  g_seen = seen;
  return &g_seen;
}

// The warnings module's parts that decide warnings_defer, held
// so that identity says when they change (catch_warnings and simplefilter
// put in another filters list or change its length or first entry;
// catch_warnings(record=True) replaces showwarning and its implementation).
struct WarningsSeen {
  PyObject* filters = nullptr;
  Py_ssize_t size = -1;
  PyObject* first = nullptr;
  PyObject* shown = nullptr;
  PyObject* impl = nullptr;
  Deferral defer = Deferral::kToUse;
  bool raises = false;  // a filter turns RuntimeWarnings into exceptions
};

WarningsSeen g_warnings_seen;

PyObject* interned(const char* text) { return PyUnicode_InternFromString(text); }

// Whether a filter turns RuntimeWarnings into exceptions.
bool filters_raise(PyObject* filters) {
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(filters); ++i) {
    PyObject* entry = PyList_GET_ITEM(filters, i);
    if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) < 3) continue;
    PyObject* action = PyTuple_GET_ITEM(entry, 0);
    PyObject* category = PyTuple_GET_ITEM(entry, 2);
    if (!PyUnicode_Check(action) || PyUnicode_CompareWithASCIIString(action, "error") != 0) continue;
    const int covers = PyType_Check(category) ? PyObject_IsSubclass(PyExc_RuntimeWarning, category) : 1;
    if (covers < 0) PyErr_Clear();
    if (covers != 0) return true;
  }
  return false;
}

// Whether showwarning and its implementation are the module's own.
bool shown_by_default(PyObject* warnings, PyObject* shown, PyObject* impl) {
  static PyObject* original_name = interned("_showwarning_orig");
  PyObject* original = original_name ? PyObject_GetAttr(warnings, original_name) : nullptr;
  bool by_default = shown && shown == original && impl && PyFunction_Check(impl);
  if (by_default) {
    PyObject* impl_name = reinterpret_cast<PyFunctionObject*>(impl)->func_name;
    by_default = PyUnicode_Check(impl_name) && PyUnicode_CompareWithASCIIString(impl_name, "_showwarnmsg_impl") == 0;
  }
  Py_XDECREF(original);
  return by_default;
}

// warnings._showwarnmsg wrapped (`original` the module's own): a warning
// shown while a region is pending, such as NumPy's for an operation on
// small arrays that npython leaves to it, is shown after the warnings of
// the region's operations, which came first in the program.
PyObject* show_after_pending(PyObject* original, PyObject* message) {
  if (pending_trace() && flush(Reason::k_warning, Location{}, nullptr) < 0) return nullptr;
  return PyObject_CallOneArg(original, message);
}

PyMethodDef g_show_after_pending = {"_showwarnmsg", show_after_pending, METH_O, nullptr};

// Whether warnings._showwarnmsg is show_after_pending; puts it in place of
// the module's own function.
bool shows_after_pending(PyObject* warnings) {
  static PyObject* name = interned("_showwarnmsg");
  static PyObject* wrapper = nullptr;
  PyObject* current = name ? PyObject_GetAttr(warnings, name) : nullptr;
  if (!current) {
    PyErr_Clear();
    return false;
  }
  bool wrapped = current == wrapper;
  if (!wrapped && PyFunction_Check(current)) {
    PyObject* function_name = reinterpret_cast<PyFunctionObject*>(current)->func_name;
    if (PyUnicode_Check(function_name) && PyUnicode_CompareWithASCIIString(function_name, "_showwarnmsg") == 0) {
      PyObject* made = PyCFunction_New(&g_show_after_pending, current);
      wrapped = made && PyObject_SetAttr(warnings, name, made) == 0;
      if (wrapped) {
        Py_XSETREF(wrapper, made);
      } else {
        Py_XDECREF(made);
        PyErr_Clear();
      }
    }
  }
  Py_DECREF(current);
  return wrapped;
}

// How far the warnings module lets regions defer their warnings (see
// regions_defer): one lookup of the module and four of its attributes per
// call; the filters are read again only when they changed.
Deferral warnings_defer() {
  static PyObject* module_name = interned("warnings");
  static PyObject* filters_name = interned("filters");
  static PyObject* shown_name = interned("showwarning");
  static PyObject* impl_name = interned("_showwarnmsg_impl");
  WarningsSeen& seen = g_warnings_seen;
  PyObject* warnings = module_name ? PyImport_GetModule(module_name) : nullptr;
  if (!warnings) {
    PyErr_Clear();
    return Deferral::kToUse;  // not imported: nothing changed it
  }
  PyObject* filters = filters_name ? PyObject_GetAttr(warnings, filters_name) : nullptr;
  PyObject* shown = shown_name ? PyObject_GetAttr(warnings, shown_name) : nullptr;
  PyObject* impl = impl_name ? PyObject_GetAttr(warnings, impl_name) : nullptr;
  PyErr_Clear();
  Deferral defer = Deferral::kNone;  // cannot tell: eager
  if (filters && PyList_Check(filters)) {
    const Py_ssize_t size = PyList_GET_SIZE(filters);
    PyObject* first = size ? PyList_GET_ITEM(filters, 0) : nullptr;
    if (filters != seen.filters || size != seen.size || first != seen.first || shown != seen.shown ||
        impl != seen.impl) {
      seen.raises = filters_raise(filters);
      seen.defer = !seen.raises && shown_by_default(warnings, shown, impl) ? Deferral::kToUse : Deferral::kToLineEnd;
      Py_XINCREF(filters);
      Py_XSETREF(seen.filters, filters);
      Py_XINCREF(first);
      Py_XSETREF(seen.first, first);
      Py_XINCREF(shown);
      Py_XSETREF(seen.shown, shown);
      Py_XINCREF(impl);
      Py_XSETREF(seen.impl, impl);
      seen.size = size;
    }
    if (shows_after_pending(warnings)) defer = seen.defer;
  }
  Py_XDECREF(filters);
  Py_XDECREF(shown);
  Py_XDECREF(impl);
  Py_DECREF(warnings);
  return defer;
}

}  // namespace

Deferral regions_defer() {
  const Seen* seen = current();
  if (!seen || !seen->traceable) return Deferral::kNone;
  const Deferral warnings = warnings_defer();
  return seen->raises ? std::min(warnings, Deferral::kToLineEnd) : warnings;
}


bool fp_reports_raise() {
  const Seen* seen = current();
  if (!seen || seen->raises) return true;
  const Deferral warnings = warnings_defer();  // brings g_warnings_seen up to date
  return warnings == Deferral::kNone || (warnings == Deferral::kToLineEnd && g_warnings_seen.raises);
}

FpMode errstate_mode(FpCategory category) {
  const Seen* seen = current();
  return seen ? seen->modes[static_cast<int>(category)] : FpMode::kOther;
}

namespace {

// Puts back the error state a PyContextVar_Set replaced (and drops the
// token); an exception being reported passes through untouched.
void reset_error_state(PyObject* token) {
  if (!token || !holds_gil()) return;
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  if (PyContextVar_Reset(api().contextvar, token) < 0) PyErr_Clear();
  Py_DECREF(token);
  PyErr_Restore(type, value, traceback);
}

bool g_noted = false;

PyObject* note_error(PyObject*, PyObject*) {
  g_noted = true;
  Py_RETURN_NONE;
}

// An extobj whose reporting categories are the program's, each 'call'ing
// note_error; by the mask of categories, made once each.
PyObject* noting_extobj(const bool reported[4]) {
  static PyMethodDef note_def = {"npython_note_fp_error", note_error, METH_VARARGS, nullptr};
  static PyObject* note = PyCFunction_New(&note_def, nullptr);
  static PyObject* made[16] = {};
  int mask = 0;
  for (int c = 0; c < 4; ++c) mask |= reported[c] ? 1 << c : 0;
  if (made[mask] || !note) return made[mask];
  PyObject* module = PyImport_ImportModule("numpy._core._ufunc_config");
  PyObject* make = module ? PyObject_GetAttrString(module, "_make_extobj") : nullptr;
  const char* names[] = {"divide", "over", "under", "invalid"};
  PyObject* kwargs = PyDict_New();
  PyObject* empty = PyTuple_New(0);
  if (make && kwargs && empty) {
    for (int c = 0; c < 4; ++c) {
      PyObject* mode = PyUnicode_FromString(mask & (1 << c) ? "call" : "ignore");
      if (mode) PyDict_SetItemString(kwargs, names[c], mode);
      Py_XDECREF(mode);
    }
    PyDict_SetItemString(kwargs, "call", note);
    made[mask] = PyObject_Call(make, empty, kwargs);  // kept for the process
  }
  Py_XDECREF(kwargs);
  Py_XDECREF(empty);
  Py_XDECREF(make);
  Py_XDECREF(module);
  PyErr_Clear();
  return made[mask];
}

}  // namespace

FpErrorsNoted::FpErrorsNoted(const bool reported[4]) {
  PyObject* extobj = noting_extobj(reported);
  g_noted = false;
  if (!api().contextvar || !extobj) return;
  token_ = PyContextVar_Set(api().contextvar, extobj);
  if (!token_) PyErr_Clear();
}

FpErrorsNoted::~FpErrorsNoted() { reset_error_state(token_); }

bool FpErrorsNoted::noted() const { return g_noted || !token_; }

FpErrorsIgnored::FpErrorsIgnored() {
  if (!api().contextvar) return;
  if (PyContextVar_Get(api().contextvar, nullptr, &program_state_) < 0) {
    PyErr_Clear();
    return;
  }
  token_ = PyContextVar_Set(api().contextvar, api().ignore_all);
  if (!token_) PyErr_Clear();
}

FpErrorsIgnored::ProgramState::ProgramState(const FpErrorsIgnored& ignored) {
  if (!ignored.token_ || !ignored.program_state_) return;
  token_ = PyContextVar_Set(api().contextvar, ignored.program_state_);
  if (!token_) PyErr_Clear();
}

FpErrorsIgnored::ProgramState::~ProgramState() { reset_error_state(token_); }

FpErrorsIgnored::~FpErrorsIgnored() {
  reset_error_state(token_);
  if (holds_gil()) Py_XDECREF(program_state_);
}

}  // namespace npy::numpy_shim
