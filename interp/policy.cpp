#include "interp/policy.h"

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "evaluator_version.h"
#include "interp/opcode_table.h"

namespace npy::interp {
namespace {

Scope g_scope = Scope::kAll;
Py_ssize_t g_code_extra_index = -1;
std::vector<std::string> g_library_dirs;  // where the standard library and packages live
// An installation's library folder for this CPython, below its prefix.
#define NPY_STRINGIFY(x) #x
#define NPY_VERSION_TEXT(major, minor) NPY_STRINGIFY(major) "." NPY_STRINGIFY(minor)
constexpr const char* kVersionLibDir = "/lib/python" NPY_VERSION_TEXT(PY_MAJOR_VERSION, PY_MINOR_VERSION) "/";
#undef NPY_VERSION_TEXT
#undef NPY_STRINGIFY

// Frees the CodeInfo a code object's extra slot holds, with the code object.
void forget_code_info(void* info) { delete static_cast<CodeInfo*>(info); }

Handover scan_code(PyCodeObject* code) {
  if (code->co_flags & (CO_GENERATOR | CO_COROUTINE | CO_ASYNC_GENERATOR | CO_ITERABLE_COROUTINE)) {
    return Handover::kGenerator;
  }
  const auto* units = NPY_CODE_UNITS(code);
  const uint8_t* const base_opcode = npy_base_opcodes();
  const uint8_t* const cache_units = npy_inline_cache_units();
  const Py_ssize_t n = Py_SIZE(code);
  for (Py_ssize_t i = 0; i < n;) {
    const uint8_t op = base_opcode[NPY_OPCODE(units[i])];
    switch (kOpcodeInfos[op].support) {
      case OpcodeSupport::kEvaluated: break;
      case OpcodeSupport::kGeneratorOnly:
      case OpcodeSupport::kHandedOver:
      case OpcodeSupport::kResumedInCpython:
      case OpcodeSupport::kUnknown: return Handover::kUnsupportedOpcode;
    }
    if (version::imports_star(op, NPY_OPARG(units[i])) && code->co_nlocalsplus > 0) {
      return Handover::kImportStarInFunction;
    }
    i += 1 + cache_units[op];
  }
  return Handover::kNone;
}

bool is_library_code(PyCodeObject* code) {
  const char* file = PyUnicode_AsUTF8(code->co_filename);
  if (!file) {
    PyErr_Clear();
    return true;
  }
  if (std::strncmp(file, "<frozen ", 8) == 0) return true;
  for (const std::string& dir : g_library_dirs) {
    if (std::strncmp(file, dir.c_str(), dir.size()) == 0) return true;
  }
  return false;
}

Handover decide_code(PyCodeObject* code) {
  const Handover scanned = scan_code(code);
  if (scanned != Handover::kNone) return scanned;
  if (g_scope == Scope::kUserCode && is_library_code(code)) return Handover::kNotUserCode;
  return Handover::kNone;
}

void add_library_dir(const char* sys_attr) {
  PyObject* prefix = PySys_GetObject(sys_attr);  // borrowed
  if (!prefix || !PyUnicode_Check(prefix)) return;
  const char* text = PyUnicode_AsUTF8(prefix);
  if (!text) {
    PyErr_Clear();
    return;
  }
  g_library_dirs.push_back(std::string(text) + kVersionLibDir);
}

}  // namespace

const char* handover_name(Handover reason) {
  switch (reason) {
    case Handover::kNone: return "evaluated";
    case Handover::kGenerator: return "generator";
    case Handover::kTracing: return "tracing";
    case Handover::kUnsupportedOpcode: return "unsupported_opcode";
    case Handover::kImportStarInFunction: return "import_star_in_function";
    case Handover::kNotUserCode: return "not_user_code";
  }
  return "unknown";
}

bool handover_is_allowed(Handover reason) {
  return reason == Handover::kGenerator || reason == Handover::kTracing;
}

void init_policy(Scope scope) {
  g_scope = scope;
  g_code_extra_index = version::request_code_extra_index(forget_code_info);
  for (const char* attr : {"prefix", "base_prefix", "exec_prefix", "base_exec_prefix"}) {
    add_library_dir(attr);
  }
  if (const char* home = std::getenv("HOME")) {
    g_library_dirs.push_back(std::string(home) + "/.local" + kVersionLibDir);
  }
}

namespace {

// The first frame of a code object: decides, and keeps the decision (with
// the caches) in the code object's extra slot.
[[gnu::noinline]] Decision decide_first(PyCodeObject* code) {
  const Handover handover = decide_code(code);
  if (g_code_extra_index < 0) return {handover, nullptr};
  auto info = std::make_unique<CodeInfo>();
  info->handover = handover;
  if (handover == Handover::kNone) {
    info->attr_caches = std::make_unique<AttrCacheEntry[]>(static_cast<std::size_t>(Py_SIZE(code)));
    info->global_caches =
        std::make_unique<GlobalCacheEntry[]>(static_cast<std::size_t>(PyTuple_GET_SIZE(code->co_names)));
  }
  if (version::set_code_extra(reinterpret_cast<PyObject*>(code), g_code_extra_index, info.get()) < 0) {
    PyErr_Clear();
    return {handover, nullptr};
  }
  CodeInfo* kept = info.release();  // owned by the code object from now on
  return {handover, kept};
}

}  // namespace

Decision decide(PyThreadState* tstate, npy_frame* frame, int throwflag) {
  if (throwflag || npy_frame_owned_by_generator(frame)) return {Handover::kGenerator, nullptr};
  if (version::tracing(tstate)) return {Handover::kTracing, nullptr};
  PyCodeObject* code = npy_frame_code(frame);
  // Code still instrumented for a tracer that is gone: CPython's evaluator
  // brings it up to date first.
  if (!version::instrumentation_current(tstate, code)) return {Handover::kTracing, nullptr};
  if (g_code_extra_index >= 0) {
    if (auto* info = static_cast<CodeInfo*>(npy_code_extra(code, g_code_extra_index))) return {info->handover, info};
  }
  return decide_first(code);
}

bool tool_active(PyThreadState* tstate) { return version::tracing(tstate); }

bool evaluates_calls_to(PyThreadState* tstate, PyCodeObject* code) {
  constexpr int kGeneratorFlags = CO_GENERATOR | CO_COROUTINE | CO_ASYNC_GENERATOR | CO_ITERABLE_COROUTINE;
  if ((code->co_flags & kGeneratorFlags) || version::tracing(tstate)) return false;
  void* stored = nullptr;
  if (g_code_extra_index >= 0 &&
      version::get_code_extra(reinterpret_cast<PyObject*>(code), g_code_extra_index, &stored) == 0 && stored) {
    return static_cast<CodeInfo*>(stored)->handover == Handover::kNone;
  }
  PyErr_Clear();
  return decide_code(code) == Handover::kNone;
}

}  // namespace npy::interp
