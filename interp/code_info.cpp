#include "interp/code_info.h"

namespace npy::interp {
namespace {

// Fills `lines` (one entry per code unit) from the code object's co_lines():
// ranges of bytes and their line, None where an instruction has none.
bool fill_lines(PyCodeObject* code, int* lines, Py_ssize_t units) {
  for (Py_ssize_t i = 0; i < units; ++i) lines[i] = -1;
  PyObject* ranges = PyObject_CallMethod(reinterpret_cast<PyObject*>(code), "co_lines", nullptr);
  PyObject* iterator = ranges ? PyObject_GetIter(ranges) : nullptr;
  Py_XDECREF(ranges);
  if (!iterator) return false;
  while (PyObject* range = PyIter_Next(iterator)) {
    long start = -1, end = -1;
    PyObject* line = nullptr;
    if (PyArg_ParseTuple(range, "llO", &start, &end, &line) && line != Py_None) {
      const long number = PyLong_AsLong(line);
      for (long unit = start / 2; unit < end / 2 && unit < units; ++unit) lines[unit] = static_cast<int>(number);
    }
    Py_DECREF(range);
    if (PyErr_Occurred()) break;
  }
  Py_DECREF(iterator);
  return !PyErr_Occurred();
}

}  // namespace

int line_of(CodeInfo* info, PyCodeObject* code, int offset) {
  if (!info) return PyCode_Addr2Line(code, offset * 2);
  if (!info->lines) {
    const Py_ssize_t units = Py_SIZE(code);
    auto lines = std::make_unique<int[]>(static_cast<std::size_t>(units));
    if (!fill_lines(code, lines.get(), units)) {
      PyErr_Clear();
      return PyCode_Addr2Line(code, offset * 2);
    }
    info->lines = std::move(lines);
  }
  return offset < Py_SIZE(code) ? info->lines[offset] : -1;
}

}  // namespace npy::interp
