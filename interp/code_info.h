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

// What a LOAD_ATTR or LOAD_METHOD found at one place in the code, valid
// while the owner's type and its version tag are the ones recorded (CPython
// gives a modified type a new tag, and never reuses one).
//  - LOAD_ATTR: an instance attribute held in the instance's inline values,
//    at `index` among the type's shared keys (-1: not such an attribute).
//  - LOAD_ATTR of a module (`type` is the module type, which cannot change):
//    `value`, found in the module's dict in the state whose version tag
//    (PEP 509, see GlobalCacheEntry) is `dict_tag`; borrowed from that dict.
//  - LOAD_METHOD: a method found on the type (`method`, borrowed from the
//    type's dict; null: none that can be cached), which no instance
//    attribute can shadow: the type's
//    instances have no dict (`shared_keys_entries` < 0), or keep their
//    attributes inline under shared keys that, with this many entries, did
//    not hold the name.
struct AttrCacheEntry {
  PyTypeObject* type = nullptr;
  unsigned int version = 0;
  int index = 0;
  PyObject* method = nullptr;
  Py_ssize_t shared_keys_entries = -1;
  std::uint64_t dict_tag = 0;
  PyObject* value = nullptr;
};

// What LOAD_GLOBAL found for one name of the code, valid while the globals
// and the builtins are the dicts, unchanged, whose version tags (PEP 509) are
// recorded: CPython gives a dict a new tag, from one process-wide counter, at
// its creation and at every change, so a tag names one state of one dict.
// `value` is borrowed from the dict that holds it. Tags start at 1: an entry
// never filled matches no dict.
struct GlobalCacheEntry {
  std::uint64_t globals_tag = 0;
  std::uint64_t builtins_tag = 0;
  PyObject* value = nullptr;
};

struct CodeInfo {
  Handover handover = Handover::kNone;
  // For code npython evaluates (null otherwise): one entry per code unit,
  // and one per name of co_names.
  std::unique_ptr<AttrCacheEntry[]> attr_caches;
  std::unique_ptr<GlobalCacheEntry[]> global_caches;
  // The source line of each code unit (-1: none), made the first time a
  // region must end with its line (line_of).
  std::unique_ptr<int[]> lines;
};

// The source line of the code unit at `offset` of `code`: from `info`'s
// table when there is one (made on first use), else from the code object.
int line_of(CodeInfo* info, PyCodeObject* code, int offset);

}  // namespace npy::interp
