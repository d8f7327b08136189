// Places in the program where regions record ops or materialize: one
// jit site each (for logs and --explain) plus what Python's warnings
// machinery needs to report a warning there as if issued from that line.
#pragma once

#include <Python.h>

#include "numpy_shim/tracer.h"

namespace npy::numpy_shim {

struct SiteInfo {
  PyObject* filename;  // owned
  int lineno;
  PyObject* globals;   // owned: the frame's globals (module name, warning registry)
};

// The site of a location (registered on first use). -1 when unknown.
int site_of(const Location& where);
const SiteInfo* site_info(int site);

}  // namespace npy::numpy_shim
