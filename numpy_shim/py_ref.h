// An owned reference to a Python object, released when it goes out of scope.
#pragma once

#include <Python.h>

namespace npy::numpy_shim {

// Whether this thread holds the GIL, as it must to touch Python objects.
// Destructors ask: under CPython 3.11, a daemon thread that wants the GIL
// back (from a NumPy loop that let it go) while the interpreter finalizes is
// ended by pthread_exit, whose unwinding runs the destructors of its C++
// frames without the GIL; they leave Python alone then (the process is
// exiting: nothing is lost but memory it gives back anyway).
inline bool holds_gil() { return PyGILState_Check() != 0; }

class PyRef {
 public:
  PyRef() = default;
  explicit PyRef(PyObject* owned) : object_(owned) {}
  PyRef(const PyRef&) = delete;
  PyRef& operator=(const PyRef&) = delete;
  PyRef(PyRef&& other) noexcept : object_(other.release()) {}
  PyRef& operator=(PyRef&& other) noexcept {
    PyObject* old = object_;
    object_ = other.release();
    Py_XDECREF(old);
    return *this;
  }
  ~PyRef() {
    if (holds_gil()) Py_XDECREF(object_);
  }

  PyObject* get() const { return object_; }
  explicit operator bool() const { return object_ != nullptr; }
  PyObject* release() {
    PyObject* object = object_;
    object_ = nullptr;
    return object;
  }

 private:
  PyObject* object_ = nullptr;
};

}  // namespace npy::numpy_shim
