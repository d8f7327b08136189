// What interp/evaluator.cpp does its own way under CPython 3.13: the
// version's helpers (with what it shares with 3.12) and the dispatch loop's
// hooks. The version's own instructions are in version_handlers.inc beside
// this file.
#pragma once

#include <Python.h>
#include <opcode.h>

#include "interp/evaluator_312_313.h"

namespace npy::interp::version {

// A frame starts or resumes at the instruction its instr_ptr holds.
inline npy_codeunit* first_to_run(npy_codeunit* current) { return current; }

// Where a frame that goes on in CPython's evaluator resumes.
inline void set_next_to_run(npy_codeunit** current, npy_codeunit* next) { *current = next; }

// A call's NULL (no self) lies above its callable: [callable, NULL, args]
// or [method, self, args].
constexpr bool kNullBelowCallable = false;
inline bool call_passes_self(PyObject** sp, int oparg) { return sp[-(oparg + 1)] != nullptr; }
inline PyObject* call_callable(PyObject** sp, int oparg, bool) { return sp[-(oparg + 2)]; }

// CALL_KW pops the keyword names from the stack: a reference of the call's.
inline void drop_kwnames(PyObject*& kwnames) { Py_CLEAR(kwnames); }

// How many of the top values a base instruction stores into variables or
// drops.
inline int values_stored(int base_opcode) {
  switch (base_opcode) {
    case STORE_FAST:
    case STORE_DEREF:
    case POP_TOP:
    case STORE_FAST_LOAD_FAST: return 1;
    case STORE_FAST_STORE_FAST: return 2;
    default: return 0;
  }
}

// The instructions at a for loop's exit that an exhausted FOR_ITER jumps
// over: END_FOR and POP_TOP (which pop the last item and the iterator).
constexpr int kEndForUnits = 2;

// COMPARE_OP's comparison (Py_LT...) from its argument: bit 4 asks for a
// bool result, the low four bits are a mask for the specialised forms.
inline int comparison_of(int oparg) { return oparg >> 5; }
inline bool compares_to_bool(int oparg) { return (oparg & 16) != 0; }

}  // namespace npy::interp::version
