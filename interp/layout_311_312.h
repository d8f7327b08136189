// What the dispatch loop of interp/evaluator.cpp finds laid out alike under
// CPython 3.11 and 3.12 (included by each one's evaluator_version.h).
#pragma once

#include <Python.h>
#include <opcode.h>

#include "interp/frame_glue.h"

namespace npy::interp::version {

// A frame starts or resumes at the instruction after the one its
// last-instruction field holds.
inline npy_codeunit* first_to_run(npy_codeunit* last) { return last + 1; }

// A call's NULL (no self) lies below its callable: [NULL, callable, args]
// or [method, self, args].
constexpr bool kNullBelowCallable = true;
inline bool call_passes_self(PyObject** sp, int oparg) { return sp[-(oparg + 2)] != nullptr; }
inline PyObject* call_callable(PyObject** sp, int oparg, bool passes_self) { return sp[-(oparg + 1 + passes_self)]; }

// CALL's keyword names are a constant KW_NAMES borrowed.
inline void drop_kwnames(PyObject*& kwnames) { kwnames = nullptr; }

// How many of the top values a base instruction stores into variables or
// drops.
inline int values_stored(int base_opcode) {
  return base_opcode == STORE_FAST || base_opcode == STORE_DEREF || base_opcode == POP_TOP ? 1 : 0;
}

// COMPARE_OP gives the comparison's own result.
inline bool compares_to_bool(int) { return false; }

}  // namespace npy::interp::version
