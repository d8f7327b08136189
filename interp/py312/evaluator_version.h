// What interp/evaluator.cpp does its own way under CPython 3.12: the
// version's helpers (with what it shares with 3.11 and with 3.13) and the
// dispatch loop's hooks. The version's own instructions are in
// version_handlers.inc beside this file.
#pragma once

#include <Python.h>
#include <opcode.h>

#include "interp/evaluator_312_313.h"
#include "interp/layout_311_312.h"

namespace npy::interp::version {

// Where a frame that goes on in CPython's evaluator resumes: the
// last-instruction field holds the instruction before.
inline void set_next_to_run(npy_codeunit** last, npy_codeunit* next) { *last = next - 1; }

// The instructions at a for loop's exit that an exhausted FOR_ITER jumps
// over: END_FOR (which pops the iterator and the last item).
constexpr int kEndForUnits = 1;

// COMPARE_OP's comparison (Py_LT...) from its argument (the low four bits
// are a mask for the specialised forms).
inline int comparison_of(int oparg) { return oparg >> 4; }

}  // namespace npy::interp::version
