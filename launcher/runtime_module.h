// The `npython` module that programs running under npython can import.
#pragma once

#include <Python.h>

namespace npy {

struct Controls;

// Registers the module as built in. Must be called before Python starts.
void register_runtime_module(const Controls& controls);

}  // namespace npy
