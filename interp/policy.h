// Which frames npython's evaluator runs and which it hands to CPython's,
// with the reason, decided once per code object.
#pragma once

#include <Python.h>

#include <cstdint>

#include "interp/frame_glue.h"

namespace npy::interp {

enum class Scope { kUserCode, kAll };  // NPY_INTERP=user|all

// Why a frame goes to CPython's evaluator (kNone: npython evaluates it).
enum class Handover : std::uint8_t {
  kNone,
  kGenerator,          // generator, coroutine or async generator frame
  kTracing,            // sys.settrace / sys.setprofile active
  kUnsupportedOpcode,  // an instruction the evaluator does not run
  kImportStarInFunction,
  kNotUserCode,        // NPY_INTERP=user: the standard library and installed packages
};

const char* handover_name(Handover reason);

// Whether a reason is one the conformance figure may leave out.
bool handover_is_allowed(Handover reason);

// Must be called with the GIL held, once, before `decide`.
void init_policy(Scope scope);

Handover decide(PyThreadState* tstate, npy_frame* frame, int throwflag);

}  // namespace npy::interp
