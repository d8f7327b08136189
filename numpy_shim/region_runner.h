// Running a trace: which nodes are needed, computing them (a compiled kernel
// where the jit has one, NumPy itself otherwise), NumPy's floating-point
// reports at the lines that recorded the ops, and the logs, stats and
// --explain records of each materialization.
#pragma once

#include "numpy_shim/trace.h"
#include "numpy_shim/tracer.h"

namespace npy::numpy_shim {

// Computes every node of `trace` that a live lazy value names. 0, or -1
// with an exception.
int run_trace(Trace& trace, Reason reason, const Location& where, const char* detail);

// Whether this thread is running a trace: NumPy's own Python code that runs
// meanwhile is not traced.
bool running_trace();

}  // namespace npy::numpy_shim
