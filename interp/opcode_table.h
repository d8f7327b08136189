// Every base instruction of the CPython npython is built for, listed once
// with what npython's evaluator does with it (the list itself is the
// version's own: interp/py3XX/opcode_list.h). Specialised forms found in a
// code object are read back to their base instruction before this table is
// used.
#pragma once

#include <Python.h>
#include <opcode.h>

#include <array>
#include <cstdint>

namespace npy::interp {

// kEvaluated: the dispatch loop runs it.
// kGeneratorOnly: appears only in generator and coroutine code, which npython
//   hands to CPython.
// kHandedOver: npython hands frames containing it to CPython. CACHE is one:
//   found where an instruction should start, it means the code object is
//   corrupt, and CPython's evaluator reports that as python3 does.
// kResumedInCpython: met while npython runs a frame, the frame goes on in
//   CPython's evaluator from that instruction (instrumented instructions,
//   which sys.monitoring and tracers put into running code).
enum class OpcodeSupport : std::uint8_t { kUnknown, kEvaluated, kGeneratorOnly, kHandedOver, kResumedInCpython };

// What an instruction does with lazy values (numpy_shim/tracer.h), which
// decides where regions end:
// kPasses: moves values without looking at them, or cannot meet one.
// kTraces: its handler gives lazy values to the tracer.
// kBranchOnTop: the top of the stack decides control flow; a lazy one is
//   materialized (reason "branch").
// kUsesTop, kUsesTop2: uses the top one or two values as Python objects.
// kStoresTop, kStoresOparg: keeps the top one or `oparg` values somewhere
//   the program can reach (reason "store").
// kStores: may write into an array or object a region reads: materializes
//   whenever lazy values exist.
// kUses: anything else: materializes whenever lazy values exist.
enum class LazyUse : std::uint8_t {
  kPasses, kTraces, kBranchOnTop, kUsesTop, kUsesTop2, kStoresTop, kStoresOparg, kStores, kUses
};

// The version's instructions: NPY_OPCODE_TABLE(X), X(name, support, lazy) for
// each (interp/py3XX/opcode_list.h, chosen by the build).
#include "opcode_list.h"

struct OpcodeInfo {
  const char* name;
  OpcodeSupport support;
  LazyUse lazy;
};

constexpr std::array<OpcodeInfo, 256> make_opcode_infos() {
  std::array<OpcodeInfo, 256> infos{};
  for (OpcodeInfo& info : infos) info = {nullptr, OpcodeSupport::kUnknown, LazyUse::kUses};
#define NPY_OPCODE_INFO(name, support, lazy) \
  infos[name] = {#name, OpcodeSupport::support, LazyUse::lazy};
  NPY_OPCODE_TABLE(NPY_OPCODE_INFO)
#undef NPY_OPCODE_INFO
  return infos;
}

inline constexpr std::array<OpcodeInfo, 256> kOpcodeInfos = make_opcode_infos();

}  // namespace npy::interp
