#include "launcher/runtime_module.h"

#include "common/stats.h"
#include "jit/host.h"
#include "launcher/controls.h"
#include "numpy_shim/py_ref.h"
#include "version.h"

// The module is written against CPython's C API itself: three functions and
// two attributes, the same source for every CPython version npython embeds.
namespace npy {
namespace {

using numpy_shim::PyRef;

Controls g_controls;

PyObject* jit_enabled(PyObject*, PyObject*) { return PyBool_FromLong(g_controls.jit); }

// Stores `value` (a new reference, or NULL with an exception set) under
// `key`; false with an exception set when either step failed.
bool set_item(PyObject* dict, const char* key, PyObject* value) {
  PyRef owned(value);
  return owned && PyDict_SetItemString(dict, key, owned.get()) == 0;
}

PyObject* stats(PyObject*, PyObject*) {
  PyRef out(PyDict_New());
  if (!out) return nullptr;
  for (const auto& [name, value] : snapshot_counters()) {
    if (!set_item(out.get(), name.c_str(), PyLong_FromUnsignedLongLong(value))) return nullptr;
  }
  return out.release();
}

PyObject* host(PyObject*, PyObject*) {
  PyRef out(PyDict_New());
  if (!out || !set_item(out.get(), "vector_isa", PyUnicode_FromString(jit::vector_isa_name(jit::host_vector_isa()))) ||
      !set_item(out.get(), "threads", PyLong_FromLong(jit::host_threads()))) {
    return nullptr;
  }
  return out.release();
}

PyMethodDef g_methods[] = {
    {"jit_enabled", jit_enabled, METH_NOARGS, "False when NPY_JIT=off made npython plain CPython."},
    {"stats", stats, METH_NOARGS, "npython's counters, by name, as a dict."},
    {"host", host, METH_NOARGS, "The vector instruction set and thread count kernels use."},
    {nullptr, nullptr, 0, nullptr}};

PyModuleDef g_module = {PyModuleDef_HEAD_INIT,
                        "npython",
                        "npython's runtime: version, whether the JIT is on, counters.",
                        -1,
                        g_methods,
                        nullptr,
                        nullptr,
                        nullptr,
                        nullptr};

PyObject* init_module() {
  PyRef module(PyModule_Create(&g_module));
  if (!module || PyModule_AddStringConstant(module.get(), "version", NPYTHON_VERSION) != 0) return nullptr;
  return module.release();
}

}  // namespace

void register_runtime_module(const Controls& controls) {
  g_controls = controls;
  PyImport_AppendInittab("npython", &init_module);
}

}  // namespace npy
