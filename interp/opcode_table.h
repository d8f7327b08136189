// Every base instruction of CPython 3.11 (Include/opcode.h), listed once with
// what npython's evaluator does with it. Specialised forms found in a code
// object are read back to their base instruction before this table is used.
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
enum class OpcodeSupport : std::uint8_t { kUnknown, kEvaluated, kGeneratorOnly, kHandedOver };

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

#define NPY_OPCODE_TABLE(X)                \
  X(CACHE, kHandedOver, kPasses)                    \
  X(POP_TOP, kEvaluated, kPasses)                   \
  X(PUSH_NULL, kEvaluated, kPasses)                 \
  X(NOP, kEvaluated, kPasses)                       \
  X(UNARY_POSITIVE, kEvaluated, kTraces)            \
  X(UNARY_NEGATIVE, kEvaluated, kTraces)            \
  X(UNARY_NOT, kEvaluated, kBranchOnTop)                 \
  X(UNARY_INVERT, kEvaluated, kTraces)              \
  X(BINARY_SUBSCR, kEvaluated, kTraces)               \
  X(GET_LEN, kEvaluated, kUsesTop)                   \
  X(MATCH_MAPPING, kEvaluated, kUses)             \
  X(MATCH_SEQUENCE, kEvaluated, kUses)            \
  X(MATCH_KEYS, kEvaluated, kUses)                \
  X(PUSH_EXC_INFO, kEvaluated, kPasses)             \
  X(CHECK_EXC_MATCH, kEvaluated, kPasses)           \
  X(CHECK_EG_MATCH, kEvaluated, kPasses)            \
  X(WITH_EXCEPT_START, kEvaluated, kUses)         \
  X(GET_AITER, kGeneratorOnly, kUses)             \
  X(GET_ANEXT, kGeneratorOnly, kUses)             \
  X(BEFORE_ASYNC_WITH, kGeneratorOnly, kUses)     \
  X(BEFORE_WITH, kEvaluated, kUses)               \
  X(END_ASYNC_FOR, kGeneratorOnly, kUses)         \
  X(STORE_SUBSCR, kEvaluated, kTraces)              \
  X(DELETE_SUBSCR, kEvaluated, kStores)             \
  X(GET_ITER, kEvaluated, kUsesTop)                  \
  X(GET_YIELD_FROM_ITER, kGeneratorOnly, kUses)   \
  X(PRINT_EXPR, kEvaluated, kUses)                \
  X(LOAD_BUILD_CLASS, kEvaluated, kPasses)          \
  X(LOAD_ASSERTION_ERROR, kEvaluated, kPasses)      \
  X(RETURN_GENERATOR, kGeneratorOnly, kUses)      \
  X(LIST_TO_TUPLE, kEvaluated, kPasses)             \
  X(RETURN_VALUE, kEvaluated, kTraces)              \
  X(IMPORT_STAR, kEvaluated, kUses)               \
  X(SETUP_ANNOTATIONS, kEvaluated, kUses)         \
  X(YIELD_VALUE, kGeneratorOnly, kUses)           \
  X(ASYNC_GEN_WRAP, kGeneratorOnly, kUses)        \
  X(PREP_RERAISE_STAR, kEvaluated, kPasses)         \
  X(POP_EXCEPT, kEvaluated, kPasses)                \
  X(STORE_NAME, kEvaluated, kStoresTop)                \
  X(DELETE_NAME, kEvaluated, kPasses)               \
  X(UNPACK_SEQUENCE, kEvaluated, kUsesTop)           \
  X(FOR_ITER, kEvaluated, kPasses)                  \
  X(UNPACK_EX, kEvaluated, kUsesTop)                 \
  X(STORE_ATTR, kEvaluated, kStores)                \
  X(DELETE_ATTR, kEvaluated, kStores)               \
  X(STORE_GLOBAL, kEvaluated, kStoresTop)              \
  X(DELETE_GLOBAL, kEvaluated, kPasses)             \
  X(SWAP, kEvaluated, kPasses)                      \
  X(LOAD_CONST, kEvaluated, kPasses)                \
  X(LOAD_NAME, kEvaluated, kPasses)                 \
  X(BUILD_TUPLE, kEvaluated, kStoresOparg)               \
  X(BUILD_LIST, kEvaluated, kStoresOparg)                \
  X(BUILD_SET, kEvaluated, kStoresOparg)                 \
  X(BUILD_MAP, kEvaluated, kStores)                 \
  X(LOAD_ATTR, kEvaluated, kTraces)                 \
  X(COMPARE_OP, kEvaluated, kTraces)                \
  X(IMPORT_NAME, kEvaluated, kUses)               \
  X(IMPORT_FROM, kEvaluated, kUses)               \
  X(JUMP_FORWARD, kEvaluated, kPasses)              \
  X(JUMP_IF_FALSE_OR_POP, kEvaluated, kBranchOnTop)      \
  X(JUMP_IF_TRUE_OR_POP, kEvaluated, kBranchOnTop)       \
  X(POP_JUMP_FORWARD_IF_FALSE, kEvaluated, kBranchOnTop) \
  X(POP_JUMP_FORWARD_IF_TRUE, kEvaluated, kBranchOnTop)  \
  X(LOAD_GLOBAL, kEvaluated, kPasses)               \
  X(IS_OP, kEvaluated, kUsesTop2)                     \
  X(CONTAINS_OP, kEvaluated, kUsesTop2)               \
  X(RERAISE, kEvaluated, kPasses)                   \
  X(COPY, kEvaluated, kPasses)                      \
  X(BINARY_OP, kEvaluated, kTraces)                 \
  X(SEND, kGeneratorOnly, kUses)                  \
  X(LOAD_FAST, kEvaluated, kPasses)                 \
  X(STORE_FAST, kEvaluated, kPasses)                \
  X(DELETE_FAST, kEvaluated, kPasses)               \
  X(POP_JUMP_FORWARD_IF_NOT_NONE, kEvaluated, kPasses) \
  X(POP_JUMP_FORWARD_IF_NONE, kEvaluated, kPasses)  \
  X(RAISE_VARARGS, kEvaluated, kUses)             \
  X(GET_AWAITABLE, kGeneratorOnly, kUses)         \
  X(MAKE_FUNCTION, kEvaluated, kPasses)             \
  X(BUILD_SLICE, kEvaluated, kStoresOparg)               \
  X(JUMP_BACKWARD_NO_INTERRUPT, kGeneratorOnly, kUses) \
  X(MAKE_CELL, kEvaluated, kPasses)                 \
  X(LOAD_CLOSURE, kEvaluated, kPasses)              \
  X(LOAD_DEREF, kEvaluated, kPasses)                \
  X(STORE_DEREF, kEvaluated, kStoresTop)               \
  X(DELETE_DEREF, kEvaluated, kPasses)              \
  X(JUMP_BACKWARD, kEvaluated, kPasses)             \
  X(CALL_FUNCTION_EX, kEvaluated, kUses)          \
  X(EXTENDED_ARG, kEvaluated, kPasses)              \
  X(LIST_APPEND, kEvaluated, kStoresTop)               \
  X(SET_ADD, kEvaluated, kStoresTop)                   \
  X(MAP_ADD, kEvaluated, kStores)                   \
  X(LOAD_CLASSDEREF, kEvaluated, kPasses)           \
  X(COPY_FREE_VARS, kEvaluated, kPasses)            \
  X(RESUME, kEvaluated, kPasses)                    \
  X(MATCH_CLASS, kEvaluated, kUses)               \
  X(FORMAT_VALUE, kEvaluated, kUses)              \
  X(BUILD_CONST_KEY_MAP, kEvaluated, kStores)       \
  X(BUILD_STRING, kEvaluated, kStoresOparg)              \
  X(LOAD_METHOD, kEvaluated, kTraces)               \
  X(LIST_EXTEND, kEvaluated, kStoresTop)               \
  X(SET_UPDATE, kEvaluated, kStoresTop)                \
  X(DICT_MERGE, kEvaluated, kStoresTop)                \
  X(DICT_UPDATE, kEvaluated, kStoresTop)               \
  X(PRECALL, kEvaluated, kPasses)                   \
  X(CALL, kEvaluated, kTraces)                      \
  X(KW_NAMES, kEvaluated, kPasses)                  \
  X(POP_JUMP_BACKWARD_IF_NOT_NONE, kEvaluated, kPasses) \
  X(POP_JUMP_BACKWARD_IF_NONE, kEvaluated, kPasses) \
  X(POP_JUMP_BACKWARD_IF_FALSE, kEvaluated, kBranchOnTop) \
  X(POP_JUMP_BACKWARD_IF_TRUE, kEvaluated, kBranchOnTop)

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
