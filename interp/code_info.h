// What npython keeps per code object, in the code object's extra slot: who
// evaluates it and, when npython does, the evaluator's per-instruction caches.
#pragma once

#include <Python.h>

#include <cstdint>
#include <memory>

namespace npy::interp {

// Why a frame goes to CPython's evaluator (kNone: npython evaluates it).
enum class Handover : std::uint8_t {
  kNone,
  kGenerator,          // generator, coroutine or async generator frame
  kTracing,            // sys.settrace / sys.setprofile active
  kUnsupportedOpcode,  // an instruction the evaluator does not run
  kImportStarInFunction,
  kNotUserCode,        // NPY_INTERP=user: the standard library and installed packages
};

// LOAD_ATTR of an instance attribute held in the instance's inline values:
// valid while the type and its version tag are the ones recorded (CPython
// gives a modified type a new tag, and never reuses one).
struct AttrCacheEntry {
  PyTypeObject* type = nullptr;
  unsigned int version = 0;
  int index = 0;
};

struct CodeInfo {
  Handover handover = Handover::kNone;
  // One entry per code unit, for code npython evaluates; null otherwise.
  std::unique_ptr<AttrCacheEntry[]> attr_caches;
};

}  // namespace npy::interp
