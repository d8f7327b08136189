#include "interp/exception_groups.h"

#include "interp/bytecode_helpers.h"

namespace npy::interp {
namespace {

bool is_exception_group(PyObject* exc) {
  return PyObject_TypeCheck(exc, reinterpret_cast<PyTypeObject*>(PyExc_BaseExceptionGroup));
}

int check_except_star_type_valid(PyObject* right) {
  if (check_except_type_valid(right) < 0) return -1;
  int is_group = 0;
  if (PyTuple_Check(right)) {
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(right) && !is_group; ++i) {
      is_group = PyObject_IsSubclass(PyTuple_GET_ITEM(right, i), PyExc_BaseExceptionGroup);
      if (is_group < 0) return -1;
    }
  } else {
    is_group = PyObject_IsSubclass(right, PyExc_BaseExceptionGroup);
    if (is_group < 0) return -1;
  }
  if (is_group) {
    PyErr_SetString(PyExc_TypeError,
                    "catching ExceptionGroup with except* is not allowed. Use except instead.");
    return -1;
  }
  return 0;
}

// BaseExceptionGroup("", excs): an ExceptionGroup when all are Exceptions.
PyObject* new_exception_group(PyObject* excs) {
  return PyObject_CallFunction(PyExc_BaseExceptionGroup, "(sO)", "", excs);
}

// Adds the identities of the leaf exceptions of `exc` to `ids`.
int collect_leaf_ids(PyObject* exc, PyObject* ids) {
  if (exc == Py_None) return 0;
  if (!is_exception_group(exc)) {
    PyObject* id = PyLong_FromVoidPtr(exc);
    if (!id) return -1;
    const int err = PySet_Add(ids, id);
    Py_DECREF(id);
    return err;
  }
  PyObject* children = PyObject_GetAttrString(exc, "exceptions");
  if (!children) return -1;
  int err = 0;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(children) && !err; ++i) {
    if (Py_EnterRecursiveCall(" in collect_leaf_ids")) {
      err = -1;
      break;
    }
    err = collect_leaf_ids(PyTuple_GET_ITEM(children, i), ids);
    Py_LeaveRecursiveCall();
  }
  Py_DECREF(children);
  return err;
}

// A Python function `lambda e: id(e) in ids`: BaseExceptionGroup.split takes
// a type or a Python function as its condition.
PyObject* leaf_in_ids_predicate(PyObject* ids) {
  static PyObject* factory = [] {
    PyObject* globals = PyDict_New();
    if (!globals) return static_cast<PyObject*>(nullptr);
    PyObject* made = nullptr;
    if (PyDict_SetItemString(globals, "__builtins__", PyEval_GetBuiltins()) == 0) {
      made = PyRun_String("lambda ids: lambda e: id(e) in ids", Py_eval_input, globals, globals);
    }
    Py_DECREF(globals);
    return made;  // kept for the life of the process
  }();
  return factory ? PyObject_CallOneArg(factory, ids) : nullptr;
}

// The part of `group` made of the leaves that appear in the groups of
// `keep`, with `group`'s nesting and metadata; None when there are none.
PyObject* project(PyObject* group, PyObject* keep) {
  PyObject* ids = PySet_New(nullptr);
  if (!ids) return nullptr;
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(keep); ++i) {
    if (collect_leaf_ids(PyList_GET_ITEM(keep, i), ids) < 0) {
      Py_DECREF(ids);
      return nullptr;
    }
  }
  PyObject* predicate = leaf_in_ids_predicate(ids);
  Py_DECREF(ids);
  if (!predicate) return nullptr;
  PyObject* pair = PyObject_CallMethod(group, "split", "(O)", predicate);
  Py_DECREF(predicate);
  if (!pair) return nullptr;
  PyObject* match = Py_NewRef(PyTuple_GET_ITEM(pair, 0));
  Py_DECREF(pair);
  return match;
}

bool same_metadata(PyObject* a, PyObject* b) {
  auto* x = reinterpret_cast<PyBaseExceptionObject*>(a);
  auto* y = reinterpret_cast<PyBaseExceptionObject*>(b);
  return x->notes == y->notes && x->traceback == y->traceback && x->cause == y->cause &&
         x->context == y->context;
}

}  // namespace

int exception_group_match(PyObject* exc_value, PyObject* match_type, PyObject** match,
                          PyObject** rest) {
  *match = *rest = nullptr;
  if (check_except_star_type_valid(match_type) < 0) return -1;
  if (exc_value == Py_None) {
    *match = Py_NewRef(Py_None);
    *rest = Py_NewRef(Py_None);
    return 0;
  }
  if (PyErr_GivenExceptionMatches(exc_value, match_type)) {
    if (is_exception_group(exc_value)) {
      *match = Py_NewRef(exc_value);
    } else {  // a naked exception: wrapped in a group
      PyObject* excs = PyTuple_Pack(1, exc_value);
      if (!excs) return -1;
      *match = new_exception_group(excs);
      Py_DECREF(excs);
      if (!*match) return -1;
    }
    *rest = Py_NewRef(Py_None);
    return 0;
  }
  if (is_exception_group(exc_value)) {
    PyObject* pair = PyObject_CallMethod(exc_value, "split", "(O)", match_type);
    if (!pair) return -1;
    *match = Py_NewRef(PyTuple_GET_ITEM(pair, 0));
    *rest = Py_NewRef(PyTuple_GET_ITEM(pair, 1));
    Py_DECREF(pair);
    return 0;
  }
  *match = Py_NewRef(Py_None);
  *rest = Py_NewRef(Py_None);
  return 0;
}

PyObject* prepare_reraise_star(PyObject* orig, PyObject* excs) {
  const Py_ssize_t count = PyList_GET_SIZE(excs);
  if (count == 0) return Py_NewRef(Py_None);
  // A naked exception was caught and wrapped: at most one clause ran.
  if (!is_exception_group(orig)) return Py_NewRef(PyList_GET_ITEM(excs, 0));

  PyObject* raised = PyList_New(0);
  PyObject* reraised = PyList_New(0);
  PyObject* result = nullptr;
  if (!raised || !reraised) goto done;
  // What a clause re-raised carries the caught group's metadata; what it
  // raised anew does not.
  for (Py_ssize_t i = 0; i < count; ++i) {
    PyObject* e = PyList_GET_ITEM(excs, i);
    if (e == Py_None) continue;
    if (PyList_Append(same_metadata(e, orig) ? reraised : raised, e) < 0) goto done;
  }
  {
    PyObject* reraised_group = project(orig, reraised);
    if (!reraised_group) goto done;
    if (PyList_GET_SIZE(raised) == 0) {
      result = reraised_group;
      goto done;
    }
    const int err = reraised_group == Py_None ? 0 : PyList_Append(raised, reraised_group);
    Py_DECREF(reraised_group);
    if (err < 0) goto done;
    result = PyList_GET_SIZE(raised) > 1 ? new_exception_group(raised)
                                         : Py_NewRef(PyList_GET_ITEM(raised, 0));
  }
done:
  Py_XDECREF(raised);
  Py_XDECREF(reraised);
  return result;
}

}  // namespace npy::interp
