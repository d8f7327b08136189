#include "numpy_shim/errstate.h"

#include <cstring>

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
  bool traceable = false;
  bool warns[4] = {};
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
    seen.warns[i] = std::strcmp(text, "warn") == 0;
    seen.traceable = seen.traceable && (seen.warns[i] || std::strcmp(text, "ignore") == 0);
  }
  Py_DECREF(modes);
  Py_XDECREF(g_seen.extobj);
  g_seen = seen;
  return &g_seen;
}

}  // namespace

bool errstate_is_traceable() {
  const Seen* seen = current();
  return seen && seen->traceable;
}

bool errstate_warns(FpCategory category) {
  const Seen* seen = current();
  return seen && seen->warns[static_cast<int>(category)];
}

FpErrorsIgnored::FpErrorsIgnored() {
  if (!api().contextvar) return;
  token_ = PyContextVar_Set(api().contextvar, api().ignore_all);
  if (!token_) PyErr_Clear();
}

FpErrorsIgnored::~FpErrorsIgnored() {
  if (!token_) return;
  PyObject *type, *value, *traceback;  // an error being reported passes through
  PyErr_Fetch(&type, &value, &traceback);
  if (PyContextVar_Reset(api().contextvar, token_) < 0) PyErr_Clear();
  Py_DECREF(token_);
  PyErr_Restore(type, value, traceback);
}

}  // namespace npy::numpy_shim
