// Running a trace: which nodes are needed, computing them (a compiled kernel
// where the jit has one, NumPy itself otherwise), NumPy's floating-point
// reports at the lines that recorded the ops, and the logs, stats and
// --explain records of each materialization.
#pragma once

#include "numpy_shim/trace.h"
#include "numpy_shim/tracer.h"

namespace npy::numpy_shim {

// The part of an array the program holds that a node's value is assigned
// to (`u[1:-1] = <node>`): the region's last step may compute the node
// straight into it, instead of into a temporary that NumPy then copies.
struct StoreTarget {
  int node = -1;
  PyObject* part = nullptr;  // borrowed: the ndarray view `u[1:-1]`
  // Set by run_trace: the part holds the node's value; else why not.
  bool stored = false;
  bool read_nearby = false;  // the last step reads the part itself, a few bytes apart
  const char* not_stored = "";
};

// Computes every node of `trace` that a live lazy value names. 0, or -1
// with an exception.
int run_trace(Trace& trace, Reason reason, const Location& where, const char* detail,
              StoreTarget* target = nullptr);

// Whether this thread is running a trace: NumPy's own Python code that runs
// meanwhile is not traced.
bool running_trace();

}  // namespace npy::numpy_shim
