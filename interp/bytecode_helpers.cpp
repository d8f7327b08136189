#include "interp/bytecode_helpers.h"

#include <opcode.h>

#include "interp/frame_glue.h"
#include "numpy_shim/cpython_api.h"
#include "numpy_shim/small_arrays.h"
#include "numpy_shim/temporary_elision.h"

namespace npy::interp {
namespace {

PyObject* intern(const char* s) {
  PyObject* name = PyUnicode_InternFromString(s);
  if (!name) Py_FatalError("npython: cannot intern an evaluator name");
  return name;
}

PyObject* power(PyObject* a, PyObject* b) { return PyNumber_Power(a, b, Py_None); }
PyObject* inplace_power(PyObject* a, PyObject* b) { return PyNumber_InPlacePower(a, b, Py_None); }

}  // namespace

const Names& names() {
  static const Names n = {
      intern("__build_class__"), intern("__import__"), intern("__annotations__"),
      intern("__enter__"),       intern("__exit__"),   intern("__name__"), intern("name"),
      intern("__spec__"),        intern("__all__"),    intern("__dict__"),
      intern("get"),             intern("__match_args__"), intern("displayhook"),
      intern(""),
  };
  return n;
}

namespace {

using BinaryFunc = PyObject* (*)(PyObject*, PyObject*);

// Indexed by the NB_* constants of Include/opcode.h.
const BinaryFunc kBinaryOps[26] = {
    PyNumber_Add,         PyNumber_And,           PyNumber_FloorDivide,
    PyNumber_Lshift,      PyNumber_MatrixMultiply, PyNumber_Multiply,
    PyNumber_Remainder,   PyNumber_Or,            power,
    PyNumber_Rshift,      PyNumber_Subtract,      PyNumber_TrueDivide,
    PyNumber_Xor,         PyNumber_InPlaceAdd,    PyNumber_InPlaceAnd,
    PyNumber_InPlaceFloorDivide, PyNumber_InPlaceLshift, PyNumber_InPlaceMatrixMultiply,
    PyNumber_InPlaceMultiply, PyNumber_InPlaceRemainder, PyNumber_InPlaceOr,
    inplace_power,        PyNumber_InPlaceRshift, PyNumber_InPlaceSubtract,
    PyNumber_InPlaceTrueDivide, PyNumber_InPlaceXor,
};

}  // namespace

PyObject* plain_binary_op(int op, PyObject* lhs, PyObject* rhs) {
  // float op float: what float's own slots compute, without the dispatch.
  if (PyFloat_CheckExact(lhs) && PyFloat_CheckExact(rhs)) {
    const double a = PyFloat_AS_DOUBLE(lhs);
    const double b = PyFloat_AS_DOUBLE(rhs);
    switch (op) {
      case NB_ADD:
      case NB_INPLACE_ADD: return PyFloat_FromDouble(a + b);
      case NB_SUBTRACT:
      case NB_INPLACE_SUBTRACT: return PyFloat_FromDouble(a - b);
      case NB_MULTIPLY:
      case NB_INPLACE_MULTIPLY: return PyFloat_FromDouble(a * b);
      default: break;
    }
  }
  if (numpy_shim::g_ndarray_type &&
      (Py_TYPE(lhs) == numpy_shim::g_ndarray_type || Py_TYPE(rhs) == numpy_shim::g_ndarray_type)) {
    if (PyObject* res = numpy_shim::small_binary_operator(op, lhs, rhs)) return res;
  }
  return kBinaryOps[op](lhs, rhs);
}

PyObject* binary_op(int op, PyObject* lhs, PyObject* rhs) {
  if (numpy_shim::may_elide(lhs, rhs)) {
    PyObject* res = numpy_shim::binary_op_into_temporary(op, lhs, rhs);
    if (res || PyErr_Occurred()) return res;
  }
  return plain_binary_op(op, lhs, rhs);
}

PyObject* negative(PyObject* operand) {
  if (numpy_shim::may_elide(operand)) {
    if (PyObject* res = numpy_shim::small_negative(operand)) return res;
    PyObject* res = numpy_shim::unary_op_into_temporary(numpy_shim::UnaryOp::kNegative, operand);
    if (res || PyErr_Occurred()) return res;
  }
  return PyNumber_Negative(operand);
}

PyObject* invert(PyObject* operand) {
  if (numpy_shim::may_elide(operand)) {
    PyObject* res = numpy_shim::unary_op_into_temporary(numpy_shim::UnaryOp::kInvert, operand);
    if (res || PyErr_Occurred()) return res;
  }
  return PyNumber_Invert(operand);
}

const char* const kNameErrorFormat = "name '%.200s' is not defined";

bool do_raise(PyObject* exc, PyObject* cause) {
  if (!exc) {
    PyObject* active = PyErr_GetHandledException();
    if (!active) {
      PyErr_SetString(PyExc_RuntimeError, "No active exception to reraise");
      return false;
    }
    PyObject* type = PyExceptionInstance_Class(active);
    Py_INCREF(type);
    PyErr_Restore(type, active, PyException_GetTraceback(active));
    return true;
  }
  PyObject* type = nullptr;
  PyObject* value = nullptr;
  if (PyExceptionClass_Check(exc)) {
    type = exc;  // owns the reference passed in
    value = PyObject_CallNoArgs(exc);
    if (!value) goto fail;
    if (!PyExceptionInstance_Check(value)) {
      PyErr_Format(PyExc_TypeError,
                   "calling %R should have returned an instance of BaseException, not %R", type,
                   Py_TYPE(value));
      goto fail;
    }
  } else if (PyExceptionInstance_Check(exc)) {
    value = exc;
    type = PyExceptionInstance_Class(exc);
    Py_INCREF(type);
  } else {
    Py_DECREF(exc);
    PyErr_SetString(PyExc_TypeError, "exceptions must derive from BaseException");
    goto fail;
  }
  if (cause) {
    PyObject* fixed = nullptr;
    if (PyExceptionClass_Check(cause)) {
      fixed = PyObject_CallNoArgs(cause);
      if (!fixed) goto fail;
      Py_DECREF(cause);
    } else if (PyExceptionInstance_Check(cause)) {
      fixed = cause;
    } else if (cause == Py_None) {
      Py_DECREF(cause);
    } else {
      PyErr_SetString(PyExc_TypeError, "exception causes must derive from BaseException");
      goto fail;
    }
    cause = nullptr;
    PyException_SetCause(value, fixed);  // steals `fixed`
  }
  PyErr_SetObject(type, value);
  Py_DECREF(value);
  Py_DECREF(type);
  return false;
fail:
  Py_XDECREF(value);
  Py_XDECREF(type);
  Py_XDECREF(cause);
  return false;
}

bool unpack_iterable(PyObject* seq, int count_before, int count_after, PyObject** top) {
  PyObject* it = PyObject_GetIter(seq);
  if (!it) {
    if (PyErr_ExceptionMatches(PyExc_TypeError) && !Py_TYPE(seq)->tp_iter &&
        !PySequence_Check(seq)) {
      PyErr_Format(PyExc_TypeError, "cannot unpack non-iterable %.200s object",
                   Py_TYPE(seq)->tp_name);
    }
    return false;
  }
  PyObject** sp = top;
  int stored = 0;
  for (; stored < count_before; ++stored) {
    PyObject* item = PyIter_Next(it);
    if (!item) {
      if (!PyErr_Occurred()) {
        if (count_after < 0) {
          PyErr_Format(PyExc_ValueError, "not enough values to unpack (expected %d, got %d)",
                       count_before, stored);
        } else {
          PyErr_Format(PyExc_ValueError,
                       "not enough values to unpack (expected at least %d, got %d)",
                       count_before + count_after, stored);
        }
      }
      goto fail;
    }
    *--sp = item;
  }
  if (count_after < 0) {
    PyObject* extra = PyIter_Next(it);
    if (!extra) {
      if (PyErr_Occurred()) goto fail;
      Py_DECREF(it);
      return true;
    }
    Py_DECREF(extra);
    PyErr_Format(PyExc_ValueError, "too many values to unpack (expected %d)", count_before);
    goto fail;
  }
  {
    PyObject* rest = PySequence_List(it);
    if (!rest) goto fail;
    *--sp = rest;
    ++stored;
    const Py_ssize_t n = PyList_GET_SIZE(rest);
    if (n < count_after) {
      PyErr_Format(PyExc_ValueError,
                   "not enough values to unpack (expected at least %d, got %zd)",
                   count_before + count_after, count_before + n);
      goto fail;
    }
    for (int j = count_after; j > 0; --j, ++stored) *--sp = PyList_GET_ITEM(rest, n - j);
    Py_SET_SIZE(rest, n - count_after);  // the moved items' references go to the stack
  }
  Py_DECREF(it);
  return true;
fail:
  for (; stored > 0; --stored, ++sp) Py_DECREF(*sp);
  Py_DECREF(it);
  return false;
}

PyObject* import_name(PyThreadState* tstate, PyObject* builtins, PyObject* globals,
                      PyObject* locals, PyObject* name, PyObject* fromlist, PyObject* level) {
  // The builtins may be any mapping (exec() with a mapping proxy as
  // __builtins__), as 3.13 allows.
  PyObject* import_func = nullptr;
  if (PyDict_CheckExact(builtins)) {
    import_func = Py_XNewRef(PyDict_GetItemWithError(builtins, names().import));
  } else {
    import_func = PyObject_GetItem(builtins, names().import);
    if (!import_func && PyErr_ExceptionMatches(PyExc_KeyError)) PyErr_Clear();
  }
  if (!import_func) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ImportError, "__import__ not found");
    return nullptr;
  }
  if (!locals) locals = Py_None;
  if (import_func == npy_original_import_func(tstate)) {
    Py_DECREF(import_func);
    const int ilevel = cpython::long_as_int(level);
    if (ilevel == -1 && PyErr_Occurred()) return nullptr;
    return PyImport_ImportModuleLevelObject(name, globals, locals, fromlist, ilevel);
  }
  PyObject* args[] = {name, globals, locals, fromlist, level};
  PyObject* result = PyObject_Vectorcall(import_func, args, 5, nullptr);
  Py_DECREF(import_func);
  return result;
}

int import_all_from(PyObject* locals, PyObject* module) {
  PyObject* all = nullptr;
  bool skip_private = false;
  if (cpython::get_optional_attr(module, names().all, &all) < 0) return -1;
  if (!all) {
    PyObject* dict = nullptr;
    if (cpython::get_optional_attr(module, names().dict, &dict) < 0) return -1;
    if (!dict) {
      PyErr_SetString(PyExc_ImportError, "from-import-* object has no __dict__ and no __all__");
      return -1;
    }
    all = PyMapping_Keys(dict);
    Py_DECREF(dict);
    if (!all) return -1;
    skip_private = true;
  }
  int err = 0;
  for (Py_ssize_t pos = 0;; ++pos) {
    PyObject* name = PySequence_GetItem(all, pos);
    if (!name) {
      if (PyErr_ExceptionMatches(PyExc_IndexError)) {
        PyErr_Clear();
      } else {
        err = -1;
      }
      break;
    }
    if (!PyUnicode_Check(name)) {
      PyObject* modname = PyObject_GetAttr(module, names().dunder_name);
      if (modname && !PyUnicode_Check(modname)) {
        PyErr_Format(PyExc_TypeError, "module __name__ must be a string, not %.100s",
                     Py_TYPE(modname)->tp_name);
      } else if (modname) {
        PyErr_Format(PyExc_TypeError, "%s in %U.%s must be str, not %.100s",
                     skip_private ? "Key" : "Item", modname,
                     skip_private ? "__dict__" : "__all__", Py_TYPE(name)->tp_name);
      }
      Py_XDECREF(modname);
      Py_DECREF(name);
      err = -1;
      break;
    }
    if (skip_private && PyUnicode_READ_CHAR(name, 0) == '_') {
      Py_DECREF(name);
      continue;
    }
    PyObject* value = PyObject_GetAttr(module, name);
    if (!value) {
      err = -1;
    } else if (PyDict_CheckExact(locals)) {
      err = PyDict_SetItem(locals, name, value);
    } else {
      err = PyObject_SetItem(locals, name, value);
    }
    Py_DECREF(name);
    Py_XDECREF(value);
    if (err) break;
  }
  Py_DECREF(all);
  return err;
}

PyObject* import_from(PyObject* module, PyObject* name) {
  PyObject* found = nullptr;
  if (cpython::get_optional_attr(module, name, &found) != 0) return found;
  // A circular import may not have set the attribute yet: the submodule
  // may already be in sys.modules.
  PyObject* pkgname = PyObject_GetAttr(module, names().dunder_name);
  if (pkgname && PyUnicode_Check(pkgname)) {
    PyObject* fullname = PyUnicode_FromFormat("%U.%U", pkgname, name);
    if (!fullname) {
      Py_DECREF(pkgname);
      return nullptr;
    }
    found = PyImport_GetModule(fullname);
    Py_DECREF(fullname);
    if (found || PyErr_Occurred()) {
      Py_DECREF(pkgname);
      return found;
    }
  } else {
    Py_CLEAR(pkgname);
  }
  PyObject* pkgpath = PyModule_GetFilenameObject(module);
  PyObject* shown_name = pkgname;
  if (!shown_name) {
    shown_name = PyUnicode_FromString("<unknown module name>");
    if (!shown_name) {
      Py_XDECREF(pkgpath);
      return nullptr;
    }
  } else {
    Py_INCREF(shown_name);
  }
  PyObject* message;
  if (!pkgpath || !PyUnicode_Check(pkgpath)) {
    PyErr_Clear();
    message = PyUnicode_FromFormat("cannot import name %R from %R (unknown location)", name,
                                   shown_name);
    PyErr_SetImportError(message, pkgname, nullptr);
  } else {
    PyObject* spec = PyObject_GetAttr(module, names().spec);
    const char* format = cpython::spec_initializing(spec)
                             ? "cannot import name %R from partially initialized module %R "
                               "(most likely due to a circular import) (%S)"
                             : "cannot import name %R from %R (%S)";
    Py_XDECREF(spec);
    message = PyUnicode_FromFormat(format, name, shown_name, pkgpath);
    PyErr_SetImportError(message, pkgname, pkgpath);
  }
  Py_XDECREF(message);
  Py_DECREF(shown_name);
  Py_XDECREF(pkgname);
  Py_XDECREF(pkgpath);
  return nullptr;
}

namespace {

// One attribute of a class pattern; NULL without an exception when absent.
PyObject* match_class_attr(PyObject* subject, PyObject* type, PyObject* name, PyObject* seen) {
  const int already = PySet_Contains(seen, name);
  if (already || PySet_Add(seen, name)) {
    if (!PyErr_Occurred()) {
      PyErr_Format(PyExc_TypeError, "%s() got multiple sub-patterns for attribute %R",
                   reinterpret_cast<PyTypeObject*>(type)->tp_name, name);
    }
    return nullptr;
  }
  PyObject* attr = PyObject_GetAttr(subject, name);
  if (!attr && PyErr_ExceptionMatches(PyExc_AttributeError)) PyErr_Clear();
  return attr;
}

}  // namespace

PyObject* match_class(PyObject* subject, PyObject* type, Py_ssize_t nargs, PyObject* kwargs) {
  if (!PyType_Check(type)) {
    PyErr_SetString(PyExc_TypeError, "called match pattern must be a type");
    return nullptr;
  }
  const int is_instance = PyObject_IsInstance(subject, type);
  if (is_instance <= 0) return nullptr;
  PyObject* seen = PySet_New(nullptr);
  PyObject* attrs = PyList_New(0);
  PyObject* match_args = nullptr;
  PyTypeObject* tp = reinterpret_cast<PyTypeObject*>(type);
  if (!seen || !attrs) goto fail;
  if (nargs) {
    bool match_self = false;
    match_args = PyObject_GetAttr(type, names().match_args);
    if (match_args) {
      if (!PyTuple_CheckExact(match_args)) {
        PyErr_Format(PyExc_TypeError, "%s.__match_args__ must be a tuple (got %s)",
                     tp->tp_name, Py_TYPE(match_args)->tp_name);
        goto fail;
      }
    } else if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
      PyErr_Clear();
      // Only types without __match_args__ may match their subject itself.
      match_self = PyType_HasFeature(tp, _Py_TPFLAGS_MATCH_SELF);
      match_args = PyTuple_New(0);
      if (!match_args) goto fail;
    } else {
      goto fail;
    }
    const Py_ssize_t allowed = match_self ? 1 : PyTuple_GET_SIZE(match_args);
    if (allowed < nargs) {
      PyErr_Format(PyExc_TypeError, "%s() accepts %zd positional sub-pattern%s (%zd given)",
                   tp->tp_name, allowed, allowed == 1 ? "" : "s", nargs);
      goto fail;
    }
    if (match_self) {
      if (PyList_Append(attrs, subject) < 0) goto fail;
    } else {
      for (Py_ssize_t i = 0; i < nargs; ++i) {
        PyObject* name = PyTuple_GET_ITEM(match_args, i);
        if (!PyUnicode_CheckExact(name)) {
          PyErr_Format(PyExc_TypeError, "__match_args__ elements must be strings (got %s)",
                       Py_TYPE(name)->tp_name);
          goto fail;
        }
        PyObject* attr = match_class_attr(subject, type, name, seen);
        if (!attr) goto fail;
        const int appended = PyList_Append(attrs, attr);
        Py_DECREF(attr);
        if (appended < 0) goto fail;
      }
    }
    Py_CLEAR(match_args);
  }
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(kwargs); ++i) {
    PyObject* attr = match_class_attr(subject, type, PyTuple_GET_ITEM(kwargs, i), seen);
    if (!attr) goto fail;
    const int appended = PyList_Append(attrs, attr);
    Py_DECREF(attr);
    if (appended < 0) goto fail;
  }
  {
    PyObject* result = PyList_AsTuple(attrs);
    Py_DECREF(attrs);
    Py_DECREF(seen);
    return result;
  }
fail:
  Py_XDECREF(match_args);
  Py_XDECREF(seen);
  Py_XDECREF(attrs);
  return nullptr;
}

PyObject* match_keys(PyObject* subject, PyObject* keys) {
  const Py_ssize_t nkeys = PyTuple_GET_SIZE(keys);
  if (!nkeys) return PyTuple_New(0);
  PyObject* get = nullptr;
  // map.get(key, marker): finds a key without raising, and without making
  // one in mappings such as defaultdict.
  const int is_method = _PyObject_GetMethod(subject, names().get, &get);
  if (!get) return nullptr;
  PyObject* seen = PySet_New(nullptr);
  PyObject* marker = PyObject_CallNoArgs(reinterpret_cast<PyObject*>(&PyBaseObject_Type));
  PyObject* values = PyList_New(0);
  PyObject* result = nullptr;
  if (!seen || !marker || !values) goto done;
  for (Py_ssize_t i = 0; i < nkeys; ++i) {
    PyObject* key = PyTuple_GET_ITEM(keys, i);
    const int already = PySet_Contains(seen, key);
    if (already || PySet_Add(seen, key)) {
      if (!PyErr_Occurred()) {
        PyErr_Format(PyExc_ValueError, "mapping pattern checks duplicate key (%R)", key);
      }
      goto done;
    }
    PyObject* args[] = {subject, key, marker};
    PyObject* value = is_method ? PyObject_Vectorcall(get, args, 3, nullptr)
                                : PyObject_Vectorcall(get, args + 1, 2, nullptr);
    if (!value) goto done;
    if (value == marker) {
      Py_DECREF(value);
      Py_INCREF(Py_None);
      result = Py_None;
      goto done;
    }
    const int appended = PyList_Append(values, value);
    Py_DECREF(value);
    if (appended < 0) goto done;
  }
  result = PyList_AsTuple(values);
done:
  Py_XDECREF(get);
  Py_XDECREF(seen);
  Py_XDECREF(marker);
  Py_XDECREF(values);
  return result;
}

void raise_name_error(PyObject* exc, const char* format, PyObject* name) {
  const char* text = PyUnicode_AsUTF8(name);
  if (!text) return;
  PyErr_Format(exc, format, text);
  if (exc != PyExc_NameError) return;
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  if (PyErr_GivenExceptionMatches(value, PyExc_NameError)) {
    // Failure only loses the "Did you mean" suggestion.
    if (PyObject_SetAttr(value, names().name, name) < 0) PyErr_Clear();
  }
  PyErr_Restore(type, value, tb);
}

void raise_unbound_local(PyCodeObject* code, int index) {
  raise_name_error(PyExc_UnboundLocalError,
                   "cannot access local variable '%s' where it is not associated with a value",
                   PyTuple_GET_ITEM(code->co_localsplusnames, index));
}

void raise_unbound_cell(PyCodeObject* code, int index) {
  if (PyErr_Occurred()) return;
  if (index < code->co_nlocalsplus - code->co_nfreevars) {  // not a free variable
    raise_unbound_local(code, index);
  } else {
    raise_name_error(PyExc_NameError,
                     "cannot access free variable '%s' where it is not associated with a value "
                     "in enclosing scope",
                     PyTuple_GET_ITEM(code->co_localsplusnames, index));
  }
}

PyObject* lookup_special(PyObject* obj, PyObject* name) {
  PyObject* attr = _PyType_Lookup(Py_TYPE(obj), name);  // borrowed
  if (!attr) return nullptr;
  descrgetfunc get = Py_TYPE(attr)->tp_descr_get;
  if (get) return get(attr, obj, reinterpret_cast<PyObject*>(Py_TYPE(obj)));
  Py_INCREF(attr);
  return attr;
}

int check_except_type_valid(PyObject* right) {
  static const char* const kMessage =
      "catching classes that do not inherit from BaseException is not allowed";
  if (PyTuple_Check(right)) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(right); ++i) {
      if (!PyExceptionClass_Check(PyTuple_GET_ITEM(right, i))) {
        PyErr_SetString(PyExc_TypeError, kMessage);
        return -1;
      }
    }
  } else if (!PyExceptionClass_Check(right)) {
    PyErr_SetString(PyExc_TypeError, kMessage);
    return -1;
  }
  return 0;
}

int check_args_iterable(PyObject* func, PyObject* args) {
  if (Py_TYPE(args)->tp_iter || PySequence_Check(args)) return 0;
  PyErr_Clear();
  PyObject* funcstr = _PyObject_FunctionStr(func);
  if (funcstr) {
    PyErr_Format(PyExc_TypeError, "%U argument after * must be an iterable, not %.200s", funcstr,
                 Py_TYPE(args)->tp_name);
    Py_DECREF(funcstr);
  }
  return -1;
}

void format_kwargs_error(PyObject* func, PyObject* kwargs) {
  // Merging raises AttributeError for a non-mapping and KeyError((key,))
  // for a repeated keyword: both become CPython's TypeErrors.
  if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
    PyErr_Clear();
    PyObject* funcstr = _PyObject_FunctionStr(func);
    if (funcstr) {
      PyErr_Format(PyExc_TypeError, "%U argument after ** must be a mapping, not %.200s",
                   funcstr, Py_TYPE(kwargs)->tp_name);
      Py_DECREF(funcstr);
    }
  } else if (PyErr_ExceptionMatches(PyExc_KeyError)) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    if (value && PyTuple_Check(value) && PyTuple_GET_SIZE(value) == 1) {
      PyObject* funcstr = _PyObject_FunctionStr(func);
      if (funcstr) {
        PyErr_Format(PyExc_TypeError, "%U got multiple values for keyword argument '%S'",
                     funcstr, PyTuple_GET_ITEM(value, 0));
        Py_DECREF(funcstr);
      }
      Py_XDECREF(type);
      Py_XDECREF(value);
      Py_XDECREF(tb);
    } else {
      PyErr_Restore(type, value, tb);
    }
  }
}

}  // namespace npy::interp
